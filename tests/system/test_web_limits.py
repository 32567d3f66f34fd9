"""`quizhost web` under a 256-file limit and 500 connections that never send a request (the
attack that left the server answering "Too many open files"): it turns the ones past its cap
away, never runs out of descriptors, and serves a normal client once the idle ones are cut off."""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from pathlib import Path

import aiohttp

from bot.adapters.listener import Bounds

FILE_LIMIT = 256


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def served(url: str) -> int:
    try:
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            await response.read()
            return response.status
    except aiohttp.ClientError:
        return 0


async def test_500_idle_connections_under_a_256_file_limit_neither_exhaust_nor_stall_it(tmp_path: Path):
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "web.db")}
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", "--listen", "127.0.0.1:0",
        env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        preexec_fn=_limited,
    )  # fmt: skip
    idle: list[asyncio.StreamWriter] = []
    try:
        assert server.stdout is not None and server.stderr is not None
        address = (await server.stdout.readline()).decode().split(" on ")[1].split(" ")[0]
        link = (await server.stdout.readline()).decode().rsplit(" ", 1)[1].strip()
        host, port = address.removeprefix("http://").split(":")
        for _ in range(500):
            _, writer = await asyncio.open_connection(host, int(port))
            idle.append(writer)
        await asyncio.sleep(0.5)
        assert open_files(server.pid) < FILE_LIMIT - 16, "the cap keeps descriptors to spare"
        started, status = time.monotonic(), 0
        while status != 200 and time.monotonic() - started < Bounds().header_seconds + 10:
            status = await served(link)  # 503 while the idle ones hold every slot
            await asyncio.sleep(0.5)
        assert status == 200, "served once the idle connections were cut off"
    finally:
        for writer in idle:
            writer.close()
        server.terminate()
        _, errors = await asyncio.wait_for(server.communicate(), 10)
    assert b"Too many open files" not in errors
    assert server.returncode == 0
