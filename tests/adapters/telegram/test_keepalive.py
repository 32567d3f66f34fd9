"""The presses' answers on connections of our own (bot/adapters/keepalive.py), against
HTTP servers on loopback that answer the ways a server may: a length, chunks, to the end of
the connection, closing a kept connection, too slowly, not at all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.adapters.keepalive import KeepAlivePoster
from tests.support.raw_http import OK, Server, by_length

FORM = b"callback_query_id=cb1&text=Locked+in%3A+A"


def chunked(body: bytes = OK) -> bytes:
    half = len(body) // 2
    parts = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:half], body[half:]))
    return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + parts + b"0\r\n\r\n"


@pytest.fixture
async def poster() -> AsyncIterator[KeepAlivePoster]:
    poster = KeepAlivePoster(limit=4, timeout=2.0, user_agent="quizhost-test")
    yield poster
    await poster.close()


async def test_answers_come_back_on_one_kept_connection_whatever_the_body_framing(poster):
    no_content = b"HTTP/1.1 204 No Content\r\n\r\n"  # Discord's answer to an interaction callback
    replies = [by_length(), chunked(), no_content, by_length("400 Bad Request", b'{"ok":false}')]
    server = Server(lambda n: replies[n - 1])
    url = await server.start()
    assert [await poster.post(url, FORM) for _ in replies] == [200, 200, 204, 400]
    assert server.connections == 1
    request = server.requests[0]
    assert request.startswith(b"POST /bot123:TOKEN/answerCallbackQuery HTTP/1.1\r\n")
    assert b"Content-Type: application/x-www-form-urlencoded\r\n" in request and request.endswith(FORM)


async def test_a_connection_the_server_closes_is_not_used_again(poster):
    server = Server(lambda n: by_length(extra="Connection: close\r\n"))
    url = await server.start()
    assert [await poster.post(url, FORM) for _ in range(2)] == [200, 200]
    assert server.connections == 2


async def test_a_kept_connection_closed_by_the_server_meanwhile_gets_the_request_again_on_a_new_one(poster):
    # the first connection answers once, then the server drops it when the next request comes
    server = Server(lambda n: by_length() if n != 2 else None)
    url = await server.start()
    assert await poster.post(url, FORM) == 200
    assert await poster.post(url, FORM) == 200
    assert server.connections == 2 and len(server.requests) == 3


async def test_no_answer_a_slow_one_or_no_server_is_a_zero_for_the_callers_ordinary_path(poster):
    silent = Server(lambda n: None)
    assert await poster.post(await silent.start(), FORM) == 0
    slow = Server(lambda n: by_length(), delay=5.0)
    assert await poster.post(await slow.start(), FORM) == 0  # the poster's 2 s timeout
    closed = Server(lambda n: by_length())
    url = await closed.start()
    assert closed.server is not None
    closed.server.close()
    await closed.server.wait_closed()
    assert await poster.post(url, FORM) == 0
    assert await poster.post("ftp://example.invalid/x", FORM) == 0


async def test_a_body_to_the_end_of_the_connection_and_a_malformed_answer(poster):
    to_the_end = Server(lambda n: b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + OK)
    url = await to_the_end.start()
    assert await poster.post(url, FORM) == 200
    garbage = Server(lambda n: b"SMTP ready\r\n\r\n")
    assert await poster.post(await garbage.start(), FORM) == 0


async def test_the_token_in_the_url_never_reaches_an_error(poster, caplog):
    silent = Server(lambda n: None)
    await poster.post(await silent.start(), FORM)
    assert "TOKEN" not in caplog.text


async def test_an_answer_that_arrives_a_few_bytes_at_a_time_is_read_whole_and_the_connection_kept(poster):
    replies = [by_length(), chunked()]
    server = Server(lambda n: replies[n - 1], piece=7)
    url = await server.start()
    assert [await poster.post(url, FORM) for _ in replies] == [200, 200]
    assert server.connections == 1


async def test_presses_beyond_the_limit_wait_their_turn_and_are_all_answered(poster):
    server = Server(lambda n: by_length(), delay=0.05)
    url = await server.start()
    statuses = await asyncio.gather(*(poster.post(url, FORM) for _ in range(12)))
    assert statuses == [200] * 12
    assert server.connections <= 4  # the poster's limit


async def test_a_post_cancelled_while_waiting_or_while_answered_gives_its_turn_back():
    poster = KeepAlivePoster(limit=1, timeout=2.0, user_agent="quizhost-test")
    try:
        server = Server(lambda n: by_length(), delay=0.1)
        url = await server.start()
        first = asyncio.ensure_future(poster.post(url, FORM))
        waiting = asyncio.ensure_future(poster.post(url, FORM))
        await asyncio.sleep(0.02)
        waiting.cancel()  # while it waits for the one connection
        assert await first == 200
        answering = asyncio.ensure_future(poster.post(url, FORM))
        await asyncio.sleep(0.02)
        answering.cancel()  # while its request is out
        assert await asyncio.wait_for(poster.post(url, FORM), 1.5) == 200, "a cancelled post kept its turn"
    finally:
        await poster.close()
