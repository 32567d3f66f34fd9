"""How the bench's fakes post to the bot: Telegram's updates to its webhook, Discord's signed
interactions to its interactions endpoint. HTTP/1.1 over kept-alive connections, one request at
a time on each, at most so many of them, as both platforms do, and every request in one write.
Written on asyncio's transports rather than with aiohttp's client, whose request and response
objects, timers and tracing cost the fake about as much CPU a press as the whole bot spends
(docs/PERFORMANCE.md): on the bench's two shared cores that was the fake's work, not the bot's.
On Python 3.11 aiohttp's client also writes a request's body (and the head it holds back to go
with it) from a task of its own, so a fake that posts a hundred presses at once handed the bot
none of them until it had prepared them all: the bot idled, then the fake did.

It reads only replies with a Content-Length (what the bot sends, through its lane or aiohttp's
server); anything else (chunked, no length, a closed connection) fails that post. The bot's own
client of this kind (bot/adapters/keepalive.py, on the press path) reads every kind of reply but
keeps only the status; the fakes need the reply's body: the method Telegram carries out, the
callback Discord shows.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

MAX_HEAD = 16 * 1024


class PostFailed(Exception):
    pass


class _Connection(asyncio.Protocol):
    """One kept-alive connection; one request in flight at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self._buffer = bytearray()
        self._reply: asyncio.Future[tuple[int, bytes]] | None = None
        self._length: int | None = None  # the body's length, once the head is read
        self._status = 0
        self._head_end = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._fail(PostFailed(f"the webhook closed the connection ({exc})"))

    def send(self, request: bytes) -> asyncio.Future[tuple[int, bytes]]:
        assert self.transport is not None and self._reply is None
        self._reply = asyncio.get_running_loop().create_future()
        self._buffer.clear()
        self._length = None
        self.transport.write(request)
        return self._reply

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self._length is None and not self._read_head():
            return
        assert self._length is not None
        end = self._head_end + self._length
        if len(self._buffer) >= end and self._reply is not None:
            reply, self._reply = self._reply, None
            if not reply.done():
                reply.set_result((self._status, bytes(self._buffer[self._head_end : end])))

    def _read_head(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > MAX_HEAD:
                self._abort("a reply head past 16 KB")
            return False
        lines = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = headers.get("content-length", "")
        if len(parts) < 2 or not parts[1].isdigit() or not length.isdigit():
            self._abort(f"a reply this client does not read: {lines[0]!r}")
            return False
        self._status, self._length, self._head_end = int(parts[1]), int(length), end + 4
        if headers.get("connection", "").lower() == "close":
            self.closed = True  # answered, then closed by the server: not used again
        return True

    def _abort(self, why: str) -> None:
        self._fail(PostFailed(why))
        if self.transport is not None:
            self.transport.close()
        self.closed = True

    def _fail(self, error: Exception) -> None:
        reply, self._reply = self._reply, None
        if reply is not None and not reply.done():
            reply.set_exception(error)


class WebhookPoster:
    """POSTs to one URL over at most `connections` kept-alive connections, with `headers` on every
    request (and a request's own beside them: Discord signs each one)."""

    def __init__(self, url: str, connections: int, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the bench posts to plain http:// webhooks, not {url!r}")
        self._host, self._port = parts.hostname, parts.port or 80
        path = parts.path or "/"
        fields = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self._head = f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n{fields}".encode("latin-1")
        self._idle: list[_Connection] = []
        self._open = 0
        self._limit = connections
        self._freed = asyncio.Condition()

    async def post(self, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """The status and body of the reply; raises PostFailed or OSError (OSError alone when no
        connection could be made: the request never left)."""
        own = "".join(f"{name}: {value}\r\n" for name, value in headers.items()) if headers else ""
        head = self._head + own.encode("latin-1") + b"Content-Length: %d\r\n\r\n" % len(body)
        connection = await self._take()
        answered = False
        try:
            reply = await connection.send(head + body)
            answered = True
            return reply
        finally:
            if not answered:  # its reply may still come: the connection is not used again
                connection.closed = True
            await self._give_back(connection)

    async def close(self) -> None:
        for connection in self._idle:
            if connection.transport is not None:
                connection.transport.close()
        self._idle.clear()

    async def _take(self) -> _Connection:
        async with self._freed:
            while True:
                while self._idle:
                    connection = self._idle.pop()
                    if not connection.closed:
                        return connection
                    self._open -= 1
                if self._open < self._limit:
                    self._open += 1
                    break
                await self._freed.wait()
        try:
            _, connection = await asyncio.get_running_loop().create_connection(_Connection, self._host, self._port)
        except BaseException:
            async with self._freed:
                self._open -= 1
                self._freed.notify()
            raise
        return connection

    async def _give_back(self, connection: _Connection) -> None:
        async with self._freed:
            if connection.closed:
                self._open -= 1
                if connection.transport is not None:
                    connection.transport.close()
            else:
                self._idle.append(connection)
            self._freed.notify()
