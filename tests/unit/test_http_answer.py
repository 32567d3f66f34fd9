"""An HTTP/1.1 answer read as its bytes come (bot/adapters/http_answer.py): not before it is
whole, whatever its framing; a connection kept only when the answer allows it and nothing
came after it; anything malformed or oversized refused."""

from __future__ import annotations

import pytest

from bot.adapters.http_answer import MAX_BODY, MAX_HEAD, Unreadable, parsed

BODY = b'{"ok":true}'
BY_LENGTH = b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n" + BODY
NO_CONTENT = b"HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n"  # Discord's answer to a plain interaction callback
CHUNKED = b'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"ok"\r\n6;x=1\r\n:true}\r\n0\r\nX-T: 1\r\n\r\n'


@pytest.mark.parametrize(("answer", "status"), [(BY_LENGTH, 200), (CHUNKED, 200), (NO_CONTENT, 204)])
def test_an_answer_is_read_only_once_all_of_it_came_and_then_keeps_its_connection(answer, status):
    assert all(parsed(answer[:cut]) is None for cut in range(len(answer)))
    assert parsed(answer) == (status, True)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (b"HTTP/1.1 404 Not Found\r\nCONNECTION: close\r\nContent-Length: 0\r\n\r\n", 404),
        (b"HTTP/1.0 200 OK\r\nContent-Length: 11\r\n\r\n" + BODY, 200),
        (BY_LENGTH + b"HTTP/1.1 200", 200),  # more than one answer: out of step
        (b"HTTP/1.1 200 OK\r\n\r\n" + BODY[:3], 200),  # a body to the end: taken at its head
    ],
)
def test_an_answer_that_ends_its_connection_says_so(answer, status):
    assert parsed(answer) == (status, False)


@pytest.mark.parametrize(
    "answer",
    [
        b"SMTP ready\r\n\r\n",
        b"HTTP/1.1 2x0 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY + 1),
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n" % (MAX_BODY + 1),
        b"HTTP/1.1 200 OK\r\nX: " + b"y" * MAX_HEAD,  # a head that never ends
    ],
)
def test_a_malformed_or_oversized_answer_is_refused(answer):
    with pytest.raises(Unreadable):
        parsed(answer)
