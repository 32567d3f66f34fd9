"""The bench's fakes post updates and interactions with a client of its own (bot/bench/webhook_poster.py):
kept-alive connections, never more than the webhook's max_connections, and a reply it cannot
read fails that post rather than the next one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.bench.webhook_poster import PostFailed, WebhookPoster
from tests.support.raw_http import Server, by_length


def echo(server: Server) -> Callable[[int], bytes]:
    """Answers each request with a method call carrying its body back."""
    return lambda n: by_length(body=b'{"method":"answerCallbackQuery","echo":' + server.body(n) + b"}")


async def test_updates_go_over_kept_alive_connections_never_more_than_the_webhook_allows():
    server = Server(lambda n: echo(server)(n))
    poster = WebhookPoster(await server.start(), 3, {"Content-Type": "application/json"})
    try:
        replies = await asyncio.gather(*(poster.post(b"%d" % i) for i in range(60)))
    finally:
        await poster.close()
        await server.stop()
    assert [status for status, _ in replies] == [200] * 60
    assert [body for _, body in replies] == [b'{"method":"answerCallbackQuery","echo":%d}' % i for i in range(60)]
    assert server.connections <= 3 and len(server.requests) == 60


@pytest.mark.parametrize(
    "reply",
    [
        None,  # hangs up without a word
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        b"garbage\r\n\r\n",
    ],
    ids=["hung-up", "chunked", "garbage"],
)
async def test_a_reply_it_cannot_read_fails_that_post_and_the_next_one_gets_a_new_connection(reply):
    server = Server(lambda n: reply if n == 1 else echo(server)(n))
    poster = WebhookPoster(await server.start(), 1, {})
    try:
        with pytest.raises(PostFailed):
            await asyncio.wait_for(poster.post(b"1"), 5)
        status, body = await asyncio.wait_for(poster.post(b"2"), 5)
    finally:
        await poster.close()
        await server.stop()
    assert (status, body) == (200, b'{"method":"answerCallbackQuery","echo":2}')
    assert server.connections == 2, "the second post came on a connection of its own"


async def test_a_post_carries_its_own_headers_beside_the_posters_and_the_next_post_does_not():
    server = Server(lambda n: by_length())
    poster = WebhookPoster(await server.start(), 1, {"Content-Type": "application/json"})
    try:
        await poster.post(b'{"id":"1"}', {"X-Signature-Ed25519": "ab12", "X-Signature-Timestamp": "1700000000"})
        await poster.post(b'{"id":"2"}')
    finally:
        await poster.close()
        await server.stop()
    signed, plain = (request.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:] for request in server.requests)
    assert set(signed) >= {b"Content-Type: application/json", b"X-Signature-Ed25519: ab12", b"Content-Length: 10"}
    assert b"X-Signature-Timestamp: 1700000000" in signed
    assert not any(line.startswith(b"X-Signature") for line in plain) and b"Content-Length: 10" in plain


def test_only_plain_http_webhooks_are_posted_to():
    with pytest.raises(ValueError, match="plain http"):
        WebhookPoster("https://example.org/hook", 1, {})
