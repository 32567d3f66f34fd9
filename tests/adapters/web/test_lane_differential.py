"""The listener's lane parses the heads of its route's requests itself (for speed); h11, a
well-kept HTTP/1.1 parser, is the reference it is held to. Over 100,000 generated requests, plain
and hostile (tests/support/http_requests.py: the request-smuggling tricks among them), pipelined
in streams and cut into pieces anywhere, the lane either takes a request exactly as h11 reads it
(the same fields, the same body, the same end, so the next request starts where h11's does, and
the same keep-alive) or does not take it: it hands every byte from that request's start to
aiohttp's handler, or refuses it (413). It never takes a request h11 refuses, never frames one
otherwise, never waits on bytes h11 has read whole.

The lane's own code runs (`LaneProtocol`, its `parse_head`), fed through a stand-in for asyncio's
transport; a few thousand streams then go through a real socket to a running `Listener`, where
what the lane leaves is answered by aiohttp: each answer is the echo of the request h11 reads in
its place (its method, target and body), or a refusal."""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import h11
from aiohttp import web

from bot.adapters.listener import Bounds, Lane, LaneRequest, LaneResponse, Listener, within_body_time
from bot.adapters.listener.lane import LaneProtocol
from tests.support.http_requests import PATH, pieces, stream

REQUESTS = 100_000  # generated requests, in streams of one to four
SOCKET_STREAMS = 2_000  # through a socket, 100 connections at a time
MAX_BODY = 1 << 20  # a longer Content-Length is refused (413) before its body is read


@dataclass
class Read:
    """The requests read from a stream, each as (fields, body, where it ends), and how it stops."""

    requests: list[tuple[dict[str, str], bytes, int]] = field(default_factory=list)
    refused: bool = False  # h11: the next request is malformed; the lane: answered 413 and closed
    closed: bool = False  # the last request asked to close the connection
    handed: bytes | None = None  # the lane: what it gave aiohttp's handler


# h11, the reference --------------------------------------------------------------------------


def h11_reads(chunks: list[bytes], **options: int) -> Read:
    connection = h11.Connection(h11.SERVER, **options)
    read, fed, request, body = Read(), 0, None, bytearray()
    for chunk in chunks:
        connection.receive_data(chunk)
        fed += len(chunk)
        while True:
            try:
                event = connection.next_event()
            except h11.RemoteProtocolError:
                read.refused = True
                return read
            if event is h11.NEED_DATA or event is h11.PAUSED or isinstance(event, h11.ConnectionClosed):
                break
            if isinstance(event, h11.Request):
                request, body = event, bytearray()
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                assert request is not None
                fields = {name.decode(): value.decode("utf-8", "surrogateescape") for name, value in request.headers}
                if len(fields) != len(request.headers):
                    fields["(repeated)"] = ""  # a name said twice: no lane request is alike
                where = fed - len(connection.trailing_data[0])
                fields["(line)"] = f"{request.method.decode()} {request.target.decode()}"
                read.requests.append((fields, bytes(body), where))
                connection.send(h11.Response(status_code=200, headers=[("Content-Length", "0")]))
                connection.send(h11.EndOfMessage())
                if connection.our_state is h11.MUST_CLOSE:
                    read.closed = True
                    return read
                connection.start_next_cycle()
    return read


# the lane, its own code through a stand-in transport -------------------------------------------


class Wire(asyncio.Transport):
    """asyncio's transport as far as the lane uses it: what is written, whether it closed, and
    which protocol the bytes that come go to (the lane's, or the one it handed the connection to)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent, self.closed = bytearray(), False
        self.protocol: asyncio.BaseProtocol | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        assert self.protocol is not None
        return self.protocol


class Taker(asyncio.Protocol):
    """aiohttp's handler's place: what the lane hands over, from the first byte of the request."""

    def __init__(self) -> None:
        self.received = bytearray()

    def data_received(self, data: bytes) -> None:
        self.received += data


class LaneRun:
    """One lane, on one connection, as the listener makes it."""

    def __init__(self) -> None:
        self.taken: list[LaneRequest] = []
        self.taker: Taker | None = None
        self.wire = Wire()
        lane = Lane(PATH, self._handle, lambda fields: None, MAX_BODY)
        self.protocol = LaneProtocol(lane, Bounds(), self._hand_off, lambda protocol: None)
        self.wire.set_protocol(self.protocol)
        self.protocol.connection_made(self.wire)

    async def _handle(self, request: LaneRequest) -> LaneResponse:
        self.taken.append(request)
        return LaneResponse(200, b"taken")

    def _hand_off(self) -> asyncio.Protocol:
        self.taker = Taker()
        return self.taker

    async def settle(self) -> None:
        """Until the lane has answered every request it took (each is answered in a task of its own)."""
        while True:
            before = len(self.taken)
            await asyncio.sleep(0)
            if len(self.taken) == before:
                return

    async def feed(self, chunks: list[bytes], rng: random.Random) -> Read:
        for chunk in chunks:
            if not self.wire.closed:
                protocol = self.wire.get_protocol()
                assert isinstance(protocol, asyncio.Protocol)
                protocol.data_received(chunk)
            if rng.random() < 0.5:  # else the next piece comes while a request is being handled
                await self.settle()
        await self.settle()
        if self.taker is None:
            self.protocol.connection_lost(None)  # its timer goes
        read = Read()
        for request in self.taken:  # where each ends: checked by what is handed over, and by the next
            read.requests.append((request.fields, request.body, -1))
        read.refused = b"HTTP/1.1 413 " in self.wire.sent
        read.closed = self.wire.closed and not read.refused
        read.handed = bytes(self.taker.received) if self.taker is not None else None
        return read


# the comparison ----------------------------------------------------------------------------


def disagreement(data: bytes, lane: Read, reference: Read) -> str | None:
    """How the lane departs from h11 on `data`, or None where it agrees or does not take."""
    if len(lane.requests) > len(reference.requests):
        return f"the lane took {len(lane.requests)} requests, h11 {len(reference.requests)}"
    for n, ((fields, body, _), (h11_fields, h11_body, _)) in enumerate(zip(lane.requests, reference.requests)):
        expected = dict(h11_fields)
        if expected.pop("(line)") != f"POST /{PATH}" or fields != expected or body != h11_body:
            return f"request {n}: the lane read {fields} {body!r}, h11 {h11_fields} {h11_body!r}"
    end = reference.requests[len(lane.requests) - 1][2] if lane.requests else 0
    if lane.handed is not None:
        if lane.handed != data[end:]:
            return f"handed over from byte {len(data) - len(lane.handed)}, h11's next request starts at {end}"
    elif lane.closed != (reference.closed and len(lane.requests) == len(reference.requests)) and not lane.refused:
        return f"the lane {'closed' if lane.closed else 'kept'} the connection, h11 did not"
    elif not lane.refused and not lane.closed and len(lane.requests) < len(reference.requests):
        return f"the lane waits on request {len(lane.requests)}, which h11 read whole"
    return None


async def test_the_lane_takes_only_what_h11_reads_alike_over_100000_generated_requests():
    rng = random.Random(46)
    cases, outcomes, kinds, found = Counter[str](), Counter[str](), Counter[str](), []
    started = time.perf_counter()
    while sum(cases.values()) < REQUESTS:
        names, data = stream(rng)
        cases.update(names)
        chunks = pieces(rng, data)
        lane = await LaneRun().feed(chunks, rng)
        reference = h11_reads(chunks)
        wrong = disagreement(data, lane, reference)
        if wrong is not None:
            kinds[re.sub(r"\b\d+\b", "n", wrong[:40])] += 1
            kinds.update(f"in a stream with {name}" for name in set(names))
            if len(found) < 10:
                found.append(f"{names} {data[:300]!r}: {wrong}")
        handed = "handed over" if lane.handed is not None else "refused or waiting"
        outcomes["disagreed" if wrong else "taken" if lane.requests else handed] += 1
        outcomes["requests taken"] += len(lane.requests)
    seconds = time.perf_counter() - started
    print(f"\n{sum(cases.values())} requests in {seconds:.1f} s; {dict(outcomes)}\n{dict(cases)}")
    assert not found, "\n".join([str(dict(kinds)), *found])
    assert outcomes["requests taken"] > REQUESTS // 4, "the plain requests are taken"


# through a socket: the lane and aiohttp behind it --------------------------------------------


def echo(line: str, body: bytes) -> bytes:
    """What the server answers a request it reads: its method and target, and its body digested
    (the fields are compared with h11's in the lane's own test above; here the framing)."""
    return f"{line} {len(body)} {hashlib.sha256(body).hexdigest()[:16]}".encode("utf-8", "surrogateescape")


def h11_reads_each(data: bytes) -> Read:
    """As `h11_reads` (framing only: aiohttp's own bounds, a line's, refuse what is too long), each
    request read by a new h11 connection after the empty lines before it, which a server SHOULD
    ignore (RFC 9112, 2.2) and aiohttp does, where h11 refuses them."""
    read, at = Read(), 0
    while True:
        at = len(data) - len(data[at:].lstrip(b"\r\n"))
        if at == len(data):
            return read
        one = h11_reads([data[at:]], max_incomplete_event_size=1 << 20)
        if not one.requests:
            read.refused = one.refused
            return read
        fields, body, end = one.requests[0]
        read.requests.append((fields, body, at + end))
        at += end
        if len(one.requests) == 1 and one.closed:
            read.closed = True
            return read


async def lane_echo(request: LaneRequest) -> LaneResponse:
    return LaneResponse(200, echo(f"POST /{PATH}", request.body))


async def aiohttp_echo(request: web.Request) -> web.Response:
    body = await within_body_time(request, request.read())
    return web.Response(body=echo(f"{request.method} {request.raw_path}", body))


def answers(sent: bytes) -> list[tuple[int, bytes]]:
    """The answers in what the server sent back before it closed: (status, body) each."""
    client, found = h11.Connection(h11.CLIENT), []
    client.receive_data(sent)
    client.receive_data(b"")
    while True:
        client.send(h11.Request(method="GET", target="/", headers=[("Host", "x")]))
        client.send(h11.EndOfMessage())
        status, body = 0, bytearray()
        while True:
            try:
                event = client.next_event()
            except h11.RemoteProtocolError:  # closed where an answer would start
                return found
            if isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                break
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                body += event.data
        if isinstance(event, h11.ConnectionClosed):
            return found
        found.append((status, bytes(body)))
        if client.their_state is not h11.DONE:
            return found
        client.start_next_cycle()


async def exchange(port: int, chunks: list[bytes]) -> bytes:
    """`chunks` written one by one; what comes back until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for chunk in chunks:
            writer.write(chunk)
            await writer.drain()
        return await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()


def wrong_answers(got: list[tuple[int, bytes]], reference: Read) -> str | None:
    """Each answer is the echo of the request h11 read in its place, or a refusal (4xx); past the
    last request h11 read, where h11 refuses the next, aiohttp may read more than h11 (its
    leniencies, tallied), but never a request that h11 read inside another's body."""
    for n, (status, body) in enumerate(got):
        if status != 200:
            if not (400 <= status < 500 or status == 501):
                return f"answer {n}: {status}"
        elif n < len(reference.requests):
            fields, request_body, _ = reference.requests[n]
            if body != echo(fields["(line)"], request_body):
                return f"answer {n}: {body!r}, where h11 read {fields['(line)']} {request_body!r}"
        elif not reference.refused or body.startswith(b"GET /smuggled "):
            return f"answer {n}: {body!r}, where h11 read {len(reference.requests)} requests, then waited"
    return None


def lenient(got: list[tuple[int, bytes]], reference: Read) -> bool:
    """Whether aiohttp answered a request h11 refuses."""
    return any(status == 200 for status, _ in got[len(reference.requests) :])


async def test_through_a_socket_each_answer_is_what_h11_reads_or_a_refusal():
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_route("*", "/{tail:.*}", aiohttp_echo)
    # short: each connection ends when the server gives up waiting for more
    bounds = Bounds(header_seconds=0.2, body_seconds=0.2, linger_seconds=0.1)
    listener = Listener(app, bounds, Lane(PATH, lane_echo, lambda fields: None, MAX_BODY))
    (_, port), *_ = await listener.start([("127.0.0.1", 0)])
    rng = random.Random(4646)
    tally, leniencies, found, started = Counter[str](), Counter[str](), [], time.perf_counter()
    try:
        for _ in range(SOCKET_STREAMS // 100):
            streams = [stream(rng) for _ in range(100)]
            chunked = [pieces(rng, data) for _, data in streams]
            sent = await asyncio.gather(*(exchange(port, chunks) for chunks in chunked))
            for (names, data), back in zip(streams, sent, strict=True):
                got = answers(back)
                # framing only: aiohttp's own bounds (a line's) refuse what is too long
                reference = h11_reads_each(data)
                wrong = wrong_answers(got, reference)
                if wrong is not None and len(found) < 20:
                    found.append(f"{names} {data[:300]!r}: {wrong}")
                if lenient(got, reference):
                    leniencies.update(names)
                tally["requests"] += len(names)
                tally.update(str(status) for status, _ in got)
    finally:
        await listener.stop()
    seconds = time.perf_counter() - started
    print(f"\n{SOCKET_STREAMS} streams in {seconds:.1f} s: {dict(tally)}; aiohttp reads more: {dict(leniencies)}")
    assert not found, "\n".join(found)
