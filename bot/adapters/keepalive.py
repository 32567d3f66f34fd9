"""Small POSTs on keep-alive HTTP/1.1 connections of our own: how a press is answered.

Every press costs one request: Telegram's `answerCallbackQuery`, a Discord interaction callback
(on the gateway). Through aiohttp's client that call took about 40% of the bot's event loop in
`quizhost bench --platform telegram` (most of it entering the request: the connector, request
and response objects, timers and traces aiohttp builds for every call), about as much as the
bench's bare client spends per press in all. The request is a few hundred bytes out and a short
answer back, so this writes it itself on a connection it keeps open and reads the status, the
headers and the body (by Content-Length, chunked, or to the end) with asyncio's streams. It
answers with the status alone, 0 when anything went wrong: the callers (`AiohttpRequest.post_form`,
`replies.answer_in_time`) then go their library's ordinary way, which retries and maps errors,
so this path never needs to be right about anything but a plain success.

Connections: at most `limit` open at once per poster, reused most recent first; one idle
longer than `IDLE_SECONDS` (the server may have closed it) or one its server has closed is
dropped, and a request that fails on a reused connection before any byte of an answer came
back is sent once more on a new one (as aiohttp does). The URL holds the bot's token: it never
reaches an exception or a log from here.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

IDLE_SECONDS = 15.0  # an idle connection older than this is closed, not reused
MAX_HEAD = 16 * 1024  # a status line and headers longer than this are not an answer we expect
MAX_BODY = 1024 * 1024  # nor is a longer body


FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


@dataclass(frozen=True)
class _Origin:
    host: str
    port: int
    tls: bool
    headers: bytes  # the request's headers after its first line, up to the Content-Length value


@dataclass
class _Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    idle_since: float = field(default_factory=time.monotonic)

    def usable(self) -> bool:
        return not self.reader.at_eof() and time.monotonic() - self.idle_since < IDLE_SECONDS

    def close(self) -> None:
        self.writer.close()


class _Unusable(Exception):
    """The connection cannot carry on (closed, a malformed or oversized answer)."""


class KeepAlivePoster:
    def __init__(self, limit: int, timeout: float | None, user_agent: str) -> None:
        self._slots = asyncio.Semaphore(limit)
        self._timeout = timeout
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
        async with self._slots:
            try:
                async with asyncio.timeout(self._timeout):
                    return await self._exchange(origin, request)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, _Unusable):
                return 0

    async def close(self) -> None:
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()

    async def _exchange(self, target: _Origin, request: bytes) -> int:
        idle = self._idle.setdefault((target.host, target.port, target.tls), [])
        connection = _reusable(idle)
        if connection is not None:
            try:
                return await self._send(connection, request, idle)
            except (OSError, asyncio.IncompleteReadError) as error:
                if isinstance(error, asyncio.IncompleteReadError) and error.partial:
                    raise  # part of an answer came back: the request reached the server
            # the server had closed it as the request went out: once more, on a new connection
        return await self._send(await self._open(target), request, idle)

    async def _open(self, target: _Origin) -> _Connection:
        tls = self._context() if target.tls else None
        reader, writer = await asyncio.open_connection(
            target.host, target.port, ssl=tls, server_hostname=target.host if tls else None, limit=MAX_HEAD
        )
        return _Connection(reader, writer)

    async def _send(self, connection: _Connection, request: bytes, idle: list[_Connection]) -> int:
        try:
            connection.writer.write(request)
            status, keep = await _answer(connection.reader)
        except BaseException:
            connection.close()
            raise
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


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """The answer's status, and whether the connection may carry another request; the body
    is read (and dropped) so the connection is ready for the next one."""
    head = (await reader.readuntil(b"\r\n\r\n")).lower()  # names and the values read here: any case
    code = head[9:12]
    if not head.startswith(b"http/1.") or head[12:13] not in (b" ", b"\r") or not code.isdigit():
        raise _Unusable()
    keep = head.startswith(b"http/1.1") and _header(head, b"connection") != b"close"
    length = _header(head, b"content-length")
    if b"chunked" in (_header(head, b"transfer-encoding") or b""):
        await _chunks(reader)
    elif length is not None:
        if not length.isdigit() or int(length) > MAX_BODY:
            raise _Unusable()
        await reader.readexactly(int(length))
    else:
        await reader.read(MAX_BODY)  # the body runs to the end of the connection
        keep = False
    return int(code), keep


def _header(head: bytes, name: bytes) -> bytes | None:
    """A header's value in a lowercased head, None when it has none (the first of repeats)."""
    start = head.find(b"\r\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 3
    return head[start : head.find(b"\r\n", start)].strip()


async def _chunks(reader: asyncio.StreamReader) -> None:
    total = 0
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";")[0].strip() or b"x", 16) if _hex(size_line) else -1
        if size < 0 or total + size > MAX_BODY:
            raise _Unusable()
        if size == 0:
            while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers, then the blank line
                pass
            return
        await reader.readexactly(size + 2)
        total += size


def _hex(line: bytes) -> bool:
    digits = line.split(b";")[0].strip()
    return bool(digits) and all(c in b"0123456789abcdefABCDEF" for c in digits)
