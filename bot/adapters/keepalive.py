"""Small POSTs on keep-alive HTTP/1.1 connections of our own: how a press is answered.

Every press costs one request: Telegram's `answerCallbackQuery`, a Discord interaction callback
(on the gateway). Through aiohttp's client that call took about 40% of the bot's event loop in
`quizhost bench --platform telegram` (most of it entering the request: the connector, request
and response objects, timers and traces aiohttp builds for every call), about as much as the
bench's bare client spends per press in all. The request is a few hundred bytes out and a short
answer back, so this writes it itself on a connection it keeps open and parses the status, the
headers and the body (by Content-Length or chunked) as they arrive, in an `asyncio.Protocol`:
through asyncio's streams, with a semaphore and a timeout context per request, the poster took
15.7% of the loop on Discord's gateway flat out, 11.8% this way (docs/PERFORMANCE.md). An answer
whose body runs to the end of the connection is taken at its head: that connection is dropped
anyway. It answers with the status alone, 0 when anything went wrong: the callers
(`AiohttpRequest.post_form`, `replies.answer_in_time`) then go their library's ordinary way,
which retries and maps errors, so this path never needs to be right about anything but a plain
success.

Connections: at most `limit` open at once per poster, handed out in the order the requests
came and reused most recent first; a new connection must open within `timeout` s and an answer
come within `timeout` s of its request going out (deadlines.py: one loop timer for all); one idle
longer than `IDLE_SECONDS` (the server may have closed it) or one its server has closed is
dropped, and a request that fails on a reused connection before any byte of an answer came
back is sent once more on a new one (as aiohttp does). The URL holds the bot's token: it never
reaches an exception or a log from here.
"""

from __future__ import annotations

import asyncio
import collections
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.adapters import http_answer
from bot.adapters.deadlines import Deadlines

IDLE_SECONDS = 15.0  # an idle connection older than this is closed, not reused


FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


@dataclass(frozen=True)
class _Origin:
    host: str
    port: int
    tls: bool
    headers: bytes  # the request's headers after its first line, up to the Content-Length value


class _Ended(Exception):
    """The connection ended before a whole answer came back; `partial`: some of it had."""

    def __init__(self, partial: bool) -> None:
        super().__init__("the connection ended before the answer")
        self.partial = partial


class _Connection(asyncio.Protocol):
    """One kept-alive connection, one request at a time: the answer is parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.idle_since = time.monotonic()
        self._received = bytearray()
        self._answer: asyncio.Future[tuple[int, bool]] | None = None
        self._ended = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's transport

    def data_received(self, data: bytes) -> None:
        answer = self._answer
        if answer is None or answer.done():  # bytes nobody asked for: out of step, never reused
            self.close()
            return
        self._received += data
        self._settle(answer, ended=False)

    def eof_received(self) -> None:
        """The server will send no more; returning None lets asyncio close the transport."""
        self._ended = True
        if self._answer is not None:
            self._settle(self._answer, ended=True)

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        if self._answer is not None:
            self._settle(self._answer, ended=True)

    def _settle(self, answer: asyncio.Future[tuple[int, bool]], ended: bool) -> None:
        if answer.done():
            return
        try:
            read = http_answer.parsed(bytes(self._received))
        except http_answer.Unreadable as error:
            answer.set_exception(error)
            return
        if read is not None:
            answer.set_result(read)
        elif ended:
            answer.set_exception(_Ended(partial=bool(self._received)))

    def usable(self) -> bool:
        return (
            not self._ended
            and self.transport is not None
            and not self.transport.is_closing()
            and time.monotonic() - self.idle_since < IDLE_SECONDS
        )

    def send(self, request: bytes, loop: asyncio.AbstractEventLoop) -> asyncio.Future[tuple[int, bool]]:
        """The answer's status and whether the connection may carry another request, once it came."""
        assert self.transport is not None
        self._received.clear()
        self._answer = answer = loop.create_future()
        self.transport.write(request)
        return answer

    def time_out(self) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_exception(TimeoutError())
        self.close()

    def close(self) -> None:
        self._ended = True
        if self.transport is not None:
            self.transport.close()


class KeepAlivePoster:
    def __init__(self, limit: int, timeout: float | None, user_agent: str) -> None:
        self._limit = limit
        self._in_use = 0  # requests holding one of the `limit` connections (or opening one)
        self._turns: collections.deque[asyncio.Future[None]] = collections.deque()  # waiting for one
        self._timeout = timeout
        self._timeouts = None if timeout is None else Deadlines(timeout)  # the answers' deadlines
        self._user_agent = user_agent
        self._idle: dict[tuple[str, int, bool], list[_Connection]] = {}
        self._origins: dict[tuple[str, str], _Origin] = {}  # (scheme://host:port, content type) ->
        self._tls: ssl.SSLContext | None = None

    async def post(self, url: str, body: bytes, content_type: str = FORM) -> int:
        """POST `body` to `url`; the answer's status, 0 when none came back."""
        cut = url.find("/", url.find("://") + 3)
        origin_url, path = (url, "/") if cut < 0 else (url[:cut], url[cut:])
        origin = self._origin(origin_url, content_type)
        if origin is None:
            return 0
        request = b"POST %s HTTP/1.1\r\n%s%d\r\n\r\n%s" % (path.encode(), origin.headers, len(body), body)
        loop = asyncio.get_running_loop()
        await self._take_turn()
        try:  # the timeouts count from here: a wait for a connection is our own queue, not a slow server
            return await self._exchange(origin, request, loop)
        except (OSError, TimeoutError, _Ended, http_answer.Unreadable):
            return 0
        finally:
            self._pass_turn()

    async def close(self) -> None:
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()

    async def _take_turn(self) -> None:
        """One of the `limit` connections for this request, in the order the requests came."""
        if self._in_use < self._limit and not self._turns:
            self._in_use += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._turns.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed a connection as it was cancelled
                self._pass_turn()
            raise

    def _pass_turn(self) -> None:
        """The connection passes to the longest waiting request, if any still waits."""
        while self._turns:
            turn = self._turns.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._in_use -= 1

    async def _exchange(self, target: _Origin, request: bytes, loop: asyncio.AbstractEventLoop) -> int:
        idle = self._idle.setdefault((target.host, target.port, target.tls), [])
        connection = _reusable(idle)
        if connection is not None:
            try:
                return await self._send(connection, request, idle, loop)
            except _Ended as ended:
                if ended.partial:
                    raise  # part of an answer came back: the request reached the server
            # the server had closed it as the request went out: once more, on a new connection
        async with asyncio.timeout(self._timeout):
            connection = await self._open(target, loop)
        return await self._send(connection, request, idle, loop)

    async def _open(self, target: _Origin, loop: asyncio.AbstractEventLoop) -> _Connection:
        tls = self._context() if target.tls else None
        _, connection = await loop.create_connection(
            _Connection, target.host, target.port, ssl=tls, server_hostname=target.host if tls else None
        )
        return connection

    async def _send(
        self,
        connection: _Connection,
        request: bytes,
        idle: list[_Connection],
        loop: asyncio.AbstractEventLoop,
    ) -> int:
        timeouts = self._timeouts
        deadline = None if timeouts is None else timeouts.set(connection.time_out)
        try:
            status, keep = await connection.send(request, loop)
        except BaseException:
            connection.close()
            raise
        finally:
            if timeouts is not None and deadline is not None:
                timeouts.cancel(deadline)
        if keep:
            connection.idle_since = time.monotonic()
            idle.append(connection)
        else:
            connection.close()
        return status

    def _origin(self, origin_url: str, content_type: str) -> _Origin | None:
        """Where to connect for `scheme://host[:port]`, and the headers its requests carry."""
        origin = self._origins.get((origin_url, content_type))
        if origin is None:
            parts = urlsplit(origin_url)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
                return None
            tls = parts.scheme == "https"
            port = parts.port or (443 if tls else 80)
            authority = parts.hostname if parts.port is None else f"{parts.hostname}:{port}"
            headers = (
                f"Host: {authority}\r\nUser-Agent: {self._user_agent}\r\nAccept: */*\r\n"
                f"Content-Type: {content_type}\r\nContent-Length: "
            ).encode()
            origin = _Origin(parts.hostname, port, tls, headers)
            if len(self._origins) < 16:  # one or two in practice: the platform's API
                self._origins[(origin_url, content_type)] = origin
        return origin

    def _context(self) -> ssl.SSLContext:
        if self._tls is None:
            self._tls = ssl.create_default_context()
        return self._tls


def _reusable(idle: list[_Connection]) -> _Connection | None:
    """The most recently used idle connection still worth trying; the others found unusable on
    the way are closed."""
    while idle:
        connection = idle.pop()
        if connection.usable():
            return connection
        connection.close()
    return None
