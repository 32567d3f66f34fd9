"""The listener's lane on its own: it takes a plain, strict head only (anything else is left to
aiohttp's parser, None here, so the lane never frames a request more loosely than aiohttp), and
a stop lets the request it is answering finish."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from bot.adapters.listener import Bounds, Lane, LaneRequest, LaneResponse, Listener
from bot.adapters.listener.head import parse_head
from tests.support.raw_http import Raw

LINE = b"POST /telegram/hook HTTP/1.1"


def test_a_plain_head_gives_its_fields_lower_cased_and_trimmed():
    head = (
        LINE
        + b"\r\nHost: bot\r\nContent-Type: application/json\r\nX-Telegram-Bot-Api-Secret-Token:\tab-1 \r\n"
        + b"Content-Length: 12\r\n"
    )
    assert parse_head(head, LINE, 8190) == {
        "host": "bot",
        "content-type": "application/json",
        "x-telegram-bot-api-secret-token": "ab-1",
        "content-length": "12",
    }
    assert parse_head(LINE + b"\r\nHost: bot\r\n", LINE, 8190) == {"host": "bot"}


@pytest.mark.parametrize(
    "head",
    [
        b"POST /telegram/hook?x=1 HTTP/1.1\r\nHost: bot\r\n",  # another target
        b"POST /telegram/hook HTTP/1.0\r\nHost: bot\r\n",  # another version
        b"GET /telegram/hook HTTP/1.1\r\nHost: bot\r\n",  # another method
        LINE + b"X\r\nHost: bot\r\n",  # a request line that only starts like it
        LINE + b"\r\nHost : bot\r\n",  # space before the colon (a smuggling trick)
        LINE + b"\r\n",  # no Host: HTTP/1.1 asks for one (h11 and RFC 9112 refuse it)
        LINE + b"\r\nHost: a\r\nHost: b\r\n",
        LINE + b"\r\nHost: bot\r\nContent-Length: 5\r\nContent-Length: 6\r\n",  # repeated
        LINE + b"\r\nHost: bot\r\nContent-Length: +5\r\n",
        LINE + b"\r\nHost: bot\r\nContent-Length: 0x5\r\n",
        LINE + b"\r\nHost: bot\r\nContent-Length: 1234567890123\r\n",
        LINE + b"\r\nHost: bot\r\nTransfer-Encoding: chunked\r\n",
        LINE + b"\r\nHost: bot\r\nUpgrade: websocket\r\n",
        LINE + b"\r\nHost: bot\r\nExpect: 100-continue\r\n",
        LINE + b"\r\nHost: bot\r\nA: b\nC: d\r\n",  # a bare LF
        LINE + b"\r\nHost: bot\r\nA: b\x00\r\n",
        LINE + b"\r\nHost: bot\r\n continued\r\n",  # obsolete line folding
        LINE + b"\r\nHost: bot\r\nA: " + b"x" * 100 + b"\r\n",  # longer than the line bound below
    ],
)
def test_anything_else_is_left_to_aiohttp(head):
    assert parse_head(head, LINE, 64) is None


async def test_a_stop_lets_the_request_in_hand_be_answered_then_closes():
    entered, release = asyncio.Event(), asyncio.Event()

    async def handle(request: LaneRequest) -> LaneResponse:
        entered.set()
        await release.wait()
        return LaneResponse(200, b"stored: " + request.body)

    lane = Lane("hook", handle, lambda fields: None, 1 << 10)
    listener = Listener(web.Application(), Bounds(shutdown_seconds=5.0), lane)
    (_, port), *_ = await listener.start([("127.0.0.1", 0)])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Length: 5\r\n\r\npress")
    await asyncio.wait_for(entered.wait(), 5)
    stopping = asyncio.create_task(listener.stop())
    await asyncio.sleep(0.2)
    assert not stopping.done(), "the stop waits for the request in hand"
    release.set()
    answer = await asyncio.wait_for(reader.read(), 5)  # to the end: the connection closes after it
    await asyncio.wait_for(stopping, 5)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and b"Connection: close\r\n" in answer
    assert answer.endswith(b"\r\n\r\nstored: press")
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)
    writer.close()


async def test_pipelined_requests_sent_before_the_client_stops_sending_are_all_answered_in_order():
    async def handle(request: LaneRequest) -> LaneResponse:
        await asyncio.sleep(0.05)  # the second request and the end of input arrive while the first is handled
        return LaneResponse(200, b"stored: " + request.body)

    listener = Listener(web.Application(), Bounds(), Lane("hook", handle, lambda fields: None, 1 << 10))
    (_, port), *_ = await listener.start([("127.0.0.1", 0)])
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"".join(b"POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Length: 2\r\n\r\np%d" % n for n in (1, 2)))
        writer.write_eof()
        answers = await asyncio.wait_for(reader.read(), 5)  # to the end: closed after the last answer
        writer.close()
    finally:
        await listener.stop()
    assert answers.count(b"HTTP/1.1 200 OK\r\n") == 2
    assert answers.index(b"stored: p1") < answers.index(b"stored: p2")


# where the lane read otherwise than h11 (tests/adapters/web/test_lane_differential.py found them)


@pytest.fixture
async def both():
    """A listener whose lane answers `lane` and whose aiohttp route (the same path) `aiohttp`: its port."""

    async def by_lane(request: LaneRequest) -> LaneResponse:
        return LaneResponse(200, b"lane")

    async def by_aiohttp(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(text="aiohttp")

    app = web.Application()
    app.router.add_post("/hook", by_aiohttp)
    listener = Listener(app, Bounds(header_seconds=30.0), Lane("hook", by_lane, lambda fields: None, 1 << 10))
    (_, port), *_ = await listener.start([("127.0.0.1", 0)])
    yield port
    await listener.stop()


async def test_close_among_the_connection_options_closes_after_the_answer(both):
    raw = await Raw.to(both)
    post = b"POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Length: 2\r\nConnection: %s\r\n\r\nhi"
    raw.send(post % b"keep-alive, Close" + post % b"keep-alive")  # the second is not to be answered
    _, sent = await raw.closed_within(5.0)
    raw.close()
    assert sent.count(b"HTTP/1.1 200 OK\r\n") == 1 and b"Connection: close\r\n" in sent
    assert sent.endswith(b"\r\n\r\nlane")


async def test_a_head_with_a_bare_lf_goes_to_aiohttp_at_once_not_waited_on(both):
    raw = await Raw.to(both)  # whole at the LF LF for h11 and aiohttp, never whole for a CRLF CRLF
    raw.send(b"POST /hook HTTP/1.1\r\nHost: bot\nContent-Length: 2\n\nhi")
    status, _, body = await asyncio.wait_for(raw.response(), 5)  # the header time is 30 s
    raw.close()
    assert body != b"lane" and (status, body) in ((200, b"aiohttp"), (400, b"400 Bad Request\n"))


@pytest.mark.parametrize("pieces", [1, 2])
async def test_a_head_longer_than_h11_takes_goes_to_aiohttp(both, pieces):
    fillers = b"".join(b"X-Filler-%d: %s\r\n" % (n, b"f" * 1000) for n in range(17))
    head = b"POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Length: 2\r\n" + fillers
    raw = await Raw.to(both)
    for at in range(pieces):  # in two: past h11's bound (16 KB) before its end comes
        raw.send(head[len(head) * at // pieces : len(head) * (at + 1) // pieces])
        await asyncio.sleep(0.05)
    raw.send(b"\r\nhi")
    status, _, body = await asyncio.wait_for(raw.response(), 5)
    raw.close()
    assert (status, body) == (200, b"aiohttp")
