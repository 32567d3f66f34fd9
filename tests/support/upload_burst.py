"""Resident memory of `quizhost web` before, during and after a burst of concurrent uploads
(the figures in the commit that spooled uploads to disk). Not a test: run it by hand.

    python -m tests.support.upload_burst [N] [BYTES] [big|valid]

`big`: random bytes, past the 1 MB a quiz file may have; `valid`: a GIFT quiz padded with
comment lines. Each upload goes through the upload form of `quizhost web`'s terminal chat link.
ROUNDS=3 in the environment repeats the burst on the same server.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import time

import aiohttp


def rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        found = re.search(r"VmRSS:\s+(\d+)", status.read())
    assert found
    return int(found.group(1)) // 1024


def body_of(size: int, kind: str) -> bytes:
    if kind == "big":
        return os.urandom(size)
    line = b"// padding line of a quiz file\n"
    return line * (size // len(line)) + b"\n::Q1:: Capital of France? {=Paris ~Lyon ~Nice}\n"


async def upload(http: aiohttp.ClientSession, url: str, csrf: str, body: bytes, statuses: dict) -> None:
    data = aiohttp.FormData({"csrf": csrf})
    data.add_field("file", body, filename="burst.gift")
    try:
        async with http.post(url, data=data) as response:
            await response.read()
            outcome: object = response.status
    except aiohttp.ClientError as exc:
        outcome = type(exc).__name__
    statuses[outcome] = statuses.get(outcome, 0) + 1


async def main(count: int, size: int, kind: str) -> None:
    folder = tempfile.mkdtemp()
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", "--listen", "127.0.0.1:0",
        env={**os.environ, "QUIZHOST_DB": f"{folder}/burst.db"}, cwd=folder,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert server.stdout is not None
    await server.stdout.readline()
    link = (await server.stdout.readline()).decode().rsplit(" ", 1)[1].strip()
    async with aiohttp.ClientSession() as http, http.get(link + "upload") as page:
        found = re.search(r'name="csrf" value="([^"]*)"', await page.text())
    assert found
    await asyncio.sleep(1)
    before = peak = rss_mb(server.pid)

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, rss_mb(server.pid))
            await asyncio.sleep(0.05)

    sampler, body = asyncio.create_task(sample()), body_of(size, kind)
    for round_ in range(int(os.environ.get("ROUNDS", "1"))):
        statuses: dict = {}
        started = time.monotonic()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            await asyncio.gather(*(upload(http, link + "upload", found.group(1), body, statuses) for _ in range(count)))
        took = time.monotonic() - started
        await asyncio.sleep(3)
        print(
            f"round {round_ + 1}: {count} x {size:,} B ({kind}) in {took:.1f} s: RSS before {before} MB, "
            f"peak {peak} MB, 3 s after {rss_mb(server.pid)} MB; answers {statuses}"
        )
    sampler.cancel()
    server.terminate()
    await server.wait()


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(
        main(int(args[0]) if args else 300, int(args[1]) if len(args) > 1 else 2_000_000, *args[2:3] or ["big"])
    )
