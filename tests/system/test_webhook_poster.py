"""The bench's fake Telegram posts updates with a client of its own (bot/bench/webhook_poster.py):
kept-alive connections, never more than the webhook's max_connections, and a reply it cannot
read fails that post rather than the next one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

from bot.bench.webhook_poster import PostFailed, WebhookPoster

Reply = Callable[[bytes], bytes | None]  # request body -> the whole reply, or None to hang up


def plain(body: bytes) -> bytes:
    answer = b'{"method":"answerCallbackQuery","echo":' + body + b"}"
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(answer), answer)


@contextlib.asynccontextmanager
async def webhook(reply: Reply) -> AsyncIterator[tuple[str, list[int]]]:
    """A server reading `Content-Length` POSTs; yields its URL and, per connection, the requests it took."""
    taken: list[int] = []
    handlers: list[asyncio.Task] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        handlers.append(asyncio.current_task())  # type: ignore[arg-type]
        index = len(taken)
        taken.append(0)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.lower().split(b"\r\n")
                length = next(int(line.split(b":")[1]) for line in lines if line.startswith(b"content-length"))
                body = await reader.readexactly(length)
                taken[index] += 1
                answer = reply(body)
                if answer is None:
                    break
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/hook/secret-path", taken
    finally:
        server.close()
        # each handler ends once the poster has closed its connection
        await asyncio.wait_for(asyncio.gather(*handlers), 5)
        await server.wait_closed()


async def test_updates_go_over_kept_alive_connections_never_more_than_the_webhook_allows():
    async with webhook(plain) as (url, taken):
        poster = WebhookPoster(url, 3, {"Content-Type": "application/json"})
        try:
            replies = await asyncio.gather(*(poster.post(b"%d" % i) for i in range(60)))
        finally:
            await poster.close()
    assert [status for status, _ in replies] == [200] * 60
    assert [body for _, body in replies] == [b'{"method":"answerCallbackQuery","echo":%d}' % i for i in range(60)]
    assert len(taken) <= 3 and sum(taken) == 60, taken


@pytest.mark.parametrize(
    "reply",
    [
        lambda body: None,  # hangs up without a word
        lambda body: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        lambda body: b"garbage\r\n\r\n",
    ],
    ids=["hung-up", "chunked", "garbage"],
)
async def test_a_reply_it_cannot_read_fails_that_post_and_the_next_one_gets_a_new_connection(reply):
    replies = iter([reply, plain])
    async with webhook(lambda body: next(replies)(body)) as (url, taken):
        poster = WebhookPoster(url, 1, {})
        try:
            with pytest.raises(PostFailed):
                await asyncio.wait_for(poster.post(b"1"), 5)
            status, body = await asyncio.wait_for(poster.post(b"2"), 5)
        finally:
            await poster.close()
    assert (status, body) == (200, b'{"method":"answerCallbackQuery","echo":2}')
    assert taken == [1, 1], "the second post came on a connection of its own"


def test_only_plain_http_webhooks_are_posted_to():
    with pytest.raises(ValueError, match="plain http"):
        WebhookPoster("https://example.org/hook", 1, {})
