"""One client cannot hold the pages' server for the others: headers that never finish are cut
off, connections past the cap are turned away at once (and served once slots free), and what
the HTTP parser refuses is answered with the security headers, never with the request's bytes."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from bot.adapters.listener import HEADERS, Bounds
from bot.testing.fakes import group
from tests.support.web_harness import serving


async def get(url: str) -> tuple[int, str, dict]:
    connector = aiohttp.TCPConnector(force_close=True)  # one connection per request, closed after
    async with aiohttp.ClientSession(connector=connector) as http, http.get(url) as response:
        return response.status, await response.text(), dict(response.headers)


async def raw(base: str, data: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    if data:
        writer.write(data)
        await writer.drain()
    return reader, writer


async def closed_after(reader: asyncio.StreamReader, within: float) -> tuple[float, bytes]:
    """Seconds until the server closed the connection (reading what it sent), and what it sent."""
    started, sent = time.monotonic(), b""
    try:
        async with asyncio.timeout(within):
            while chunk := await reader.read(4096):
                sent += chunk
    except ConnectionResetError:
        pass
    return time.monotonic() - started, sent


async def trickle(writer: asyncio.StreamWriter) -> None:
    """A header line now and then, never the blank line that ends them (slowloris)."""
    try:
        for n in range(100):
            writer.write(f"X-Slow-{n}: still here\r\n".encode())
            await writer.drain()
            await asyncio.sleep(0.1)
    except ConnectionError:
        pass


async def test_clients_that_never_finish_their_headers_are_cut_off_and_others_are_served(engine):
    async with serving(engine, Bounds(header_seconds=1.0, connections=100)) as site:
        slow = [await raw(site.base, b"GET / HTTP/1.1\r\nHost: quiz\r\n") for _ in range(30)]
        trickling = [asyncio.create_task(trickle(writer)) for _, writer in slow]
        status, html, _ = await get(site.link(group()))
        assert status == 200 and "Leaderboard" in html  # while they trickle
        waited = await asyncio.gather(*(closed_after(reader, 10.0) for reader, _ in slow))
        assert all(seconds < 5.0 for seconds, _ in waited), "cut off within the header time, not left open"
        await asyncio.gather(*trickling)
        assert (await get(site.link(group())))[0] == 200


async def test_past_the_connection_cap_a_client_is_turned_away_at_once_and_served_when_a_slot_frees(engine):
    async with serving(engine, Bounds(header_seconds=30.0, connections=3)) as site:
        idle = [await raw(site.base, b"") for _ in range(3)]
        await asyncio.sleep(0.2)  # the three are accepted and counted
        reader, writer = await raw(site.base, b"")
        seconds, sent = await closed_after(reader, 5.0)
        assert seconds < 2.0 and sent.startswith(b"HTTP/1.1 503 ")
        assert all(f"{name}: {value}".encode() in sent for name, value in HEADERS.items())
        writer.close()
        for _, idle_writer in idle[:2]:
            idle_writer.close()
        await asyncio.sleep(0.2)
        status, html, _ = await get(site.link(group()))
        assert status == 200 and "Leaderboard" in html
        for _, idle_writer in idle[2:]:
            idle_writer.close()


async def test_a_request_line_too_long_gets_a_bare_400_with_the_security_headers(engine):
    marker = "SECRET" + "A" * 10_000
    async with serving(engine) as site:
        reader, writer = await raw(site.base, f"GET /c/{marker}/ HTTP/1.1\r\nHost: quiz\r\n\r\n".encode())
        _, sent = await closed_after(reader, 5.0)
        writer.close()
    head, _, body = sent.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 400 Bad Request")
    assert all(f"{name}: {value}".encode() in head for name, value in HEADERS.items())
    assert b"SECRET" not in sent and b"AAAA" not in sent, "the request is never echoed"
    assert body == b"400 Bad Request\n"


@pytest.mark.parametrize("path", ["/nowhere-SECRET", "/c/SECRET/nowhere"])
async def test_a_page_not_found_carries_the_security_headers_and_not_the_address(engine, path):
    async with serving(engine) as site:
        status, text, headers = await get(site.base + path)
    assert status == 404 and "SECRET" not in text
    assert all(headers.get(name) == value for name, value in HEADERS.items())


async def test_a_body_that_never_finishes_gets_408_within_the_body_time(engine):
    async with serving(engine, Bounds(body_seconds=1.0, linger_seconds=1.0)) as site:
        path = site.link(group()).removeprefix(site.base) + "upload"
        head = (
            f"POST {path} HTTP/1.1\r\nHost: quiz\r\nContent-Length: 100000\r\n"
            "Content-Type: multipart/form-data; boundary=b\r\n\r\n--b\r\n"
        )
        reader, writer = await raw(site.base, head.encode())
        seconds, sent = await closed_after(reader, 10.0)
        writer.close()
        assert seconds < 5.0 and sent.split(b"\r\n")[0].endswith(b" 408 Request Timeout")
        assert (await get(site.link(group())))[0] == 200
