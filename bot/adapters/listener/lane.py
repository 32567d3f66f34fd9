"""A lane of the listener's own for one busy route: `POST /<path>` answered without aiohttp's
server (request objects, middlewares, routing, stream responses), which cost a Telegram webhook
update about as much of the event loop as all of quizhost's handling of it.

A connection starts here. Each request whose head `parse_head` takes is read whole (its body
within `Bounds.body_seconds`, at most `Lane.max_body` bytes) and answered by `Lane.handle`, in
order, on a kept-alive connection; pipelined requests wait their turn. The first request it does
not take (a web page, another path, chunked, Upgrade, a malformed line) is handed with every byte
received since its start to aiohttp's handler on the same connection (asyncio's
`transport.set_protocol`), which keeps the connection from then on. The listener's bounds hold:
the connection is counted from the start, a head must be whole within `Bounds.header_seconds` of
connecting or of the last answer, a late body gets 408 and an oversize one 413 (then what the
client still sends is read and dropped for `Bounds.linger_seconds`), every answer carries the
security headers, and no request's bytes are logged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from http import HTTPStatus
from typing import TYPE_CHECKING

from bot.adapters.listener.head import BARE_LF, parse_head, wants_close
from bot.adapters.listener.headers import HEADER_LINES

if TYPE_CHECKING:
    from bot.adapters.listener import Bounds

log = logging.getLogger("quizhost.web")

# a head longer than this goes to aiohttp (its limits answer it, its header time runs anew); h11's
# bound too, so that the lane never takes a head that h11 would refuse as too long
HEAD_BYTES = 16 << 10
HELD_BYTES = 256 << 10  # pipelined bytes held while a request is handled before reading pauses
STATUS_LINES = {status.value: f"HTTP/1.1 {status.value} {status.phrase}\r\n" for status in HTTPStatus}


@dataclass(frozen=True, slots=True)
class LaneRequest:
    fields: dict[str, str]  # header fields, names lower-cased
    body: bytes


@dataclass(frozen=True, slots=True)
class LaneResponse:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class Lane:
    """`POST /<path>` answered by `handle`; `admit` may refuse a request from its head alone,
    before its body is read (an answer that closes the connection)."""

    path: str
    handle: Callable[[LaneRequest], Awaitable[LaneResponse]]
    admit: Callable[[dict[str, str]], LaneResponse | None]
    max_body: int


def encode(response: LaneResponse, close: bool) -> bytes:
    head = f"{STATUS_LINES[response.status]}Content-Length: {len(response.body)}\r\n"
    if response.body:
        head += f"Content-Type: {response.content_type}\r\n"
    if close:
        head += "Connection: close\r\n"
    return head.encode() + HEADER_LINES + b"\r\n" + response.body


class State(Enum):
    HEAD = 1  # waiting for a request's whole head (the header time runs)
    BODY = 2  # waiting for the rest of its body (the body time runs)
    BUSY = 3  # the request is being handled
    DRAIN = 4  # answered early: what still comes is dropped until the linger time is over
    GONE = 5  # closed, or handed to aiohttp


class LaneProtocol(asyncio.Protocol):
    def __init__(
        self, lane: Lane, bounds: Bounds, hand_off: Callable[[], asyncio.Protocol], done: Callable[[LaneProtocol], None]
    ) -> None:
        self.lane, self.bounds, self._hand_off, self._done = lane, bounds, hand_off, done
        self._line = f"POST /{lane.path} HTTP/1.1".encode()
        self._loop = asyncio.get_running_loop()
        self._buffer = bytearray()
        self._scanned = 0  # the bytes of the head in the making already searched for its end and bare LFs
        self._state = State.HEAD
        self._deadline = self._loop.time() + bounds.header_seconds
        self._timer: asyncio.TimerHandle | None = None
        self._fields: dict[str, str] = {}
        self._length = 0
        self._task: asyncio.Task[None] | None = None
        self._closing = False  # no request after the one in hand (the shutdown)
        self._eof = False  # the client sends nothing more: the requests it sent are answered, then it closes
        self._paused = self._write_paused = False
        self.transport: asyncio.Transport | None = None

    # asyncio's callbacks -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:  # as aiohttp does: a peer that vanished is noticed
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        self._arm(self._deadline)

    def data_received(self, data: bytes) -> None:
        if self._state is State.DRAIN or self._state is State.GONE:
            return
        self._buffer += data
        if self._state is State.BUSY:
            if len(self._buffer) > HELD_BYTES and self.transport is not None:
                self.transport.pause_reading()
                self._paused = True
            return
        self._advance()

    def eof_received(self) -> bool:
        self._eof = True
        return self._state is State.BUSY  # kept open to write its answers, then closed

    def pause_writing(self) -> None:
        self._write_paused = True

    def resume_writing(self) -> None:
        self._write_paused = False
        if self._state is State.HEAD:
            self._advance()

    def connection_lost(self, exc: BaseException | None) -> None:
        # a request being handled goes on: a press is stored whole once it has started
        self._state = State.GONE
        if self._timer is not None:
            self._timer.cancel()
        self._done(self)

    # requests ------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Take the next request in the buffer as far as it came."""
        if self._state is State.HEAD and not self._write_paused:
            # each byte is looked at once, however finely the head comes cut (a CRLF CRLF may straddle pieces)
            end = self._buffer.find(b"\r\n\r\n", max(0, self._scanned - 3))
            if end < 0:  # all of the buffer is the head so far
                if len(self._buffer) > HEAD_BYTES or BARE_LF.search(self._buffer, self._scanned):
                    self._give_away()
                self._scanned = len(self._buffer)
                return
            self._scanned = 0  # the next head starts after this request's body
            if end + 4 > HEAD_BYTES:
                self._give_away()
                return
            fields = parse_head(bytes(self._buffer[: end + 2]), self._line, self.bounds.line_bytes)
            if fields is None:
                self._give_away()
                return
            del self._buffer[: end + 4]
            self._fields, self._length = fields, int(fields.get("content-length", "0"))
            refused = self.lane.admit(fields)
            if refused is None and self._length > self.lane.max_body:
                refused = LaneResponse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, b"413 Request Entity Too Large\n")
            if refused is not None:
                self._refuse(refused)
                return
            self._state = State.BODY
            self._deadline = self._loop.time() + self.bounds.body_seconds
        if self._state is State.BODY and len(self._buffer) >= self._length:
            body = bytes(self._buffer[: self._length])
            del self._buffer[: self._length]
            close = self._closing or wants_close(self._fields)
            self._state, self._deadline = State.BUSY, math.inf
            self._task = self._loop.create_task(self._serve(LaneRequest(self._fields, body), close))
        elif self._state is State.BODY:
            self._arm(self._deadline)

    async def _serve(self, request: LaneRequest, close: bool) -> None:
        try:
            response = await self.lane.handle(request)
        except Exception:
            log.exception("a request to the listener's lane failed")
            response, close = LaneResponse(HTTPStatus.INTERNAL_SERVER_ERROR, b"500 Internal Server Error\n"), True
        close = close or self._closing
        transport = self.transport
        if self._state is State.GONE or transport is None or transport.is_closing():
            return
        transport.write(encode(response, close))
        if close:
            self._state = State.GONE
            transport.close()
            return
        self._state, self._deadline = State.HEAD, self._loop.time() + self.bounds.header_seconds
        self._arm(self._deadline)
        if self._paused:
            self._paused = False
            transport.resume_reading()
        if self._buffer:
            self._advance()
        if self._eof and self._state is State.HEAD:
            self._state = State.GONE
            transport.close()

    def _refuse(self, response: LaneResponse) -> None:
        """Answered before the body was read: the connection closes after the linger time."""
        assert self.transport is not None
        self.transport.write(encode(response, close=True))
        self._buffer.clear()
        self._state, self._deadline = State.DRAIN, self._loop.time() + self.bounds.linger_seconds
        self._arm(self._deadline)

    def _give_away(self) -> None:
        """aiohttp's handler takes the connection over, from the request that starts the buffer."""
        transport = self.transport
        assert transport is not None
        self._state = State.GONE
        if self._timer is not None:
            self._timer.cancel()
        self._done(self)
        handler = self._hand_off()
        transport.set_protocol(handler)
        handler.connection_made(transport)
        if self._paused:
            transport.resume_reading()
        if self._buffer:
            handler.data_received(bytes(self._buffer))
        self._buffer.clear()

    # the one timer: armed once, moved on lazily (most deadlines pass unreached) ------------------

    def _arm(self, when: float) -> None:
        if self._timer is None or self._timer.when() > when:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self._loop.call_at(when, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if self._state is State.BUSY or self._state is State.GONE:
            return
        if self._loop.time() < self._deadline:
            self._arm(self._deadline)
            return
        if self._state is State.BODY:
            self._refuse(LaneResponse(HTTPStatus.REQUEST_TIMEOUT, b"408 Request Timeout\n"))
            return
        self._state = State.GONE  # headers not in time, or the linger time over
        if self.transport is not None:
            self.transport.close()

    async def finish(self, seconds: float) -> None:
        """The shutdown: no request after the one in hand, which gets `seconds` to be answered."""
        self._closing = True
        if self._task is not None and not self._task.done():
            await asyncio.wait({self._task}, timeout=seconds)
        if self.transport is not None and self._state is not State.GONE:
            self._state = State.GONE
            self.transport.close()
