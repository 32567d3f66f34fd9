"""The HTTP server the web pages, the Telegram webhook and the Discord endpoint listen on
(aiohttp), bounded so that no client holds it for the others.

- **Headers in time.** aiohttp arms its keep-alive timer when a connection is made and again
  after each response, and closes the connection when the timer fires while it still waits for
  a whole request: `keepalive_timeout` (a documented AppRunner/RequestHandler option) is thus the
  time a client has to send a request's headers, however slowly it trickles them. aiohttp has no
  separate header-read timeout; this one needs no watchdog of ours.
- **Bodies in time.** Handlers read bodies themselves, within `Bounds.body_seconds`
  (`within_body_time`); a client that takes longer gets 408 and its connection is closed
  after at most `Bounds.linger_seconds` more (aiohttp's `lingering_time`).
- **Connections.** One protocol factory, given to `loop.create_server`, counts the live
  connections; past `Bounds.connections` a new one gets a fixed 503 and is closed at once, so the
  descriptors never run out (the cap is half the process's open-file limit by default).
- **Errors.** What aiohttp's HTTP parser refuses (a request line too long, a bad header) never
  reaches the application's middlewares (aiohttp issues #3287 and #6463): `RequestHandler.handle_error`
  answers it. Ours answers with the status alone and the security headers, never the request's
  own bytes, and logs no part of them (a link's token may be in them).
- **A lane of its own** (optional, `Lane`): one busy route (Telegram's webhook, Discord's
  interactions endpoint) is answered by a small protocol of ours without aiohttp's server; a
  connection starts there and is handed to aiohttp's handler, for good, at the first request
  the lane does not take (lane.py). The bounds above hold on it too.

Handlers are not cancelled when their client goes (`handler_cancellation` stays off): a
Telegram press is stored whole once it has started.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import weakref
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, TypeVar

from aiohttp import web

from bot.adapters.listener.headers import HEADER_LINES, HEADERS, secured
from bot.adapters.listener.lane import Lane, LaneProtocol, LaneRequest, LaneResponse

log = logging.getLogger("quizhost.web")
T = TypeVar("T")

__all__ = [
    "HEADERS",
    "Bounds",
    "Lane",
    "LaneRequest",
    "LaneResponse",
    "Listener",
    "as_web_response",
    "within_body_time",
]


MAX_CONNECTIONS = 256  # each may buffer ~0.3 MB of a body in flight: ~80 MB at worst
READ_BYTES = 16 << 10  # a connection's body buffer (aiohttp pauses reading past twice this)


def _connections_default() -> int:
    """Half the open-file limit (the other half: the database, logs, spooled uploads), at most MAX_CONNECTIONS."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(8, min(MAX_CONNECTIONS, soft // 2)) if soft > 0 else MAX_CONNECTIONS


@dataclass(frozen=True)
class Bounds:
    header_seconds: float = 10.0  # from connecting (or the last response) to a request's whole headers
    body_seconds: float = 60.0  # to send a body: 1 MB at 17 KB/s
    # after an answer given before the body was read whole (408, 413), the rest is read and
    # dropped this long, so that a client still sending sees the answer rather than a reset
    linger_seconds: float = 5.0
    connections: int = field(default_factory=_connections_default)
    line_bytes: int = 8190  # a request line or a header line
    shutdown_seconds: float = 2.0  # requests in flight may finish, then their connections are cut


BOUNDS = web.AppKey("bounds", Bounds)


async def within_body_time(request: web.Request, reading: Awaitable[T]) -> T:
    """`reading` (of the request's body) within the body time; 408 and a closed connection after it."""
    if request.content.is_eof():  # the whole body is here already (nearly every small one): nothing can stall
        return await reading
    bounds = request.config_dict.get(BOUNDS)
    try:
        async with asyncio.timeout(bounds.body_seconds if bounds else Bounds.body_seconds):
            return await reading
    except TimeoutError:
        late = web.HTTPRequestTimeout(headers=HEADERS)
        late.force_close()
        raise late from None


def as_web_response(answer: LaneResponse) -> web.Response:
    """A lane's answer as its aiohttp route gives it, for the requests the lane leaves to aiohttp."""
    if not answer.body:
        return web.Response(status=answer.status)
    return web.Response(status=answer.status, body=answer.body, headers={"Content-Type": answer.content_type})


class Listener:
    """Serves `app` on host:port pairs, within `bounds`, until `stop()`; `lane`'s route first."""

    def __init__(self, app: web.Application, bounds: Bounds | None = None, lane: Lane | None = None) -> None:
        self.bounds, self.lane = bounds or Bounds(), lane
        app[BOUNDS] = self.bounds
        app.middlewares.insert(0, secured)  # outermost: responses other middlewares make carry them too
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=self.bounds.shutdown_seconds)
        self._servers: list[asyncio.Server] = []
        self._live: weakref.WeakSet[asyncio.BaseProtocol] = weakref.WeakSet()

    async def start(self, addresses: Sequence[tuple[str | None, int]]) -> list[tuple[str, int]]:
        """Listen on each (host, port) (port 0: one the system picks); the addresses bound."""
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        for host, port in addresses:
            self._servers.append(await loop.create_server(self._connection, host, port, reuse_address=True))
        return [server.sockets[0].getsockname()[:2] for server in self._servers]

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        lanes = [protocol for protocol in self._live if isinstance(protocol, LaneProtocol)]
        # lets requests in flight finish, closes every connection
        seconds = self.bounds.shutdown_seconds
        await asyncio.gather(self._runner.cleanup(), *(lane.finish(seconds) for lane in lanes))
        for server in self._servers:
            await server.wait_closed()
        self._servers.clear()

    @property
    def connections(self) -> int:
        return len(self._live)

    def _connection(self) -> asyncio.BaseProtocol:
        if len(self._live) >= self.bounds.connections or self._runner.server is None:
            return Busy()
        if self.lane is None:
            return self._handler()
        lane = LaneProtocol(self.lane, self.bounds, self._handler, self._live.discard)
        self._live.add(lane)
        return lane

    def _handler(self) -> GuardedHandler:
        """aiohttp's handler of a connection, counted (a lane's hands its connection to one)."""
        server = self._runner.server
        assert server is not None
        handler = GuardedHandler(
            server,
            self._live,
            loop=asyncio.get_running_loop(),
            keepalive_timeout=self.bounds.header_seconds,
            max_line_size=self.bounds.line_bytes,
            max_field_size=self.bounds.line_bytes,
            read_bufsize=READ_BYTES,
            lingering_time=self.bounds.linger_seconds,
            access_log=None,
        )
        self._live.add(handler)
        return handler


class GuardedHandler(web.RequestHandler):
    """aiohttp's connection handler, counted while it lives, answering parser errors blind."""

    def __init__(self, manager: web.Server, live: weakref.WeakSet[asyncio.BaseProtocol], **options: Any) -> None:
        super().__init__(manager, **options)
        self._live_set = live

    def connection_lost(self, exc: BaseException | None) -> None:
        self._live_set.discard(self)
        super().connection_lost(exc)

    def handle_error(
        self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
            self.log_exception("Error handling a request", exc_info=exc)
        else:  # the request's bytes stay out of the log: a link's token may be in them
            log.info("refused a malformed request from %s (%s)", request.remote, type(exc).__name__)
        if request.writer.output_size > 0:
            raise ConnectionError("a response was sent already: the connection is cut instead")
        response = web.Response(status=status, text=f"{status} {HTTPStatus(status).phrase}\n", headers=HEADERS)
        response.force_close()
        return response


BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\n"
    + HEADER_LINES
    + b"Content-Length: 24\r\nConnection: close\r\n\r\n503 Service Unavailable\n"
)


class Busy(asyncio.Protocol):
    """A connection past the cap: told so, and closed before it sends anything more."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(BUSY)
        transport.close()
