"""`quizhost bench --screen N`: N viewers of one chat's big screen, spread over --screen-workers
`quizhost web` processes on one PostgreSQL database, while this process publishes a run's events
as a run's owner does (storage/postgres/live.py: the table and NOTIFY). Each viewer reads its
event stream as a browser does; the figures are how long after its cause (the publish) each
viewer had each event, and the workers' resident memory per viewer.

Without --db it starts a throwaway PostgreSQL cluster (bot/testing/postgres.py, as the tests do).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.bench.boards import percentile
from bot.bench.databases import BenchDatabases
from bot.bench.platform_process import free_port
from bot.commands.weblinks import LinkSigner
from bot.ports.live import LiveEvents, LiveKind

CHAT = "bench:screen"
SECRET = "bench-screen-secret"  # every worker and this process sign alike
EVENTS = 20  # measured events
EVERY_SECONDS = 0.2  # between two of them: a busy question's counts
WAIT_SECONDS = 60.0  # for the workers to serve, the viewers to connect, the last event to arrive
STOP_SECONDS = 15.0

Progress = Callable[[str], None]


@dataclass
class Viewer:
    """One stream: when each measured event arrived, after its cause."""

    lags: dict[int, float] = field(default_factory=dict)  # sequence number -> seconds
    connected: bool = False


async def screen_bench(url: str, viewers: int, workers: int, progress: Progress) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="quizhost-bench-screen-"))
    dbs = BenchDatabases(folder, url)
    target = await dbs.fresh("screen")
    from storage.postgres.store import PostgresStore

    store = await PostgresStore.open(target, owner="bench-screen")  # the schema, and the run's owner
    try:
        async with _workers(target, workers, folder, progress) as served:
            return await _measure(store.live_events(), served, viewers, progress)
    finally:
        await store.close()
        await dbs.cleanup()


async def _measure(
    live: LiveEvents, served: list[tuple[str, int]], viewers: int, progress: Progress
) -> dict[str, object]:
    before = sum(_rss_kb(pid) for _, pid in served)
    signer = LinkSigner(SECRET)
    links = [signer.at(base).screen_url(CHAT, False, time.time()) + "events" for base, _ in served]
    watching = [Viewer() for _ in range(viewers)]
    progress(f"{viewers} viewers over {len(served)} workers")
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        readers = [asyncio.create_task(_view(http, links[i % len(links)], v)) for i, v in enumerate(watching)]
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                while not all(v.connected for v in watching):  # a warm-up event until each has one
                    await live.publish(CHAT, 1, LiveKind.ANSWERED, {"number": 1, "seq": -1}, time.time())
                    await asyncio.sleep(0.5)
            await asyncio.sleep(1.0)  # the warm-up's stragglers
            after = sum(_rss_kb(pid) for _, pid in served)
            progress(f"{EVENTS} events, one each {EVERY_SECONDS} s")
            for seq in range(EVENTS):
                await live.publish(CHAT, 1, LiveKind.ANSWERED, {"number": 1, "seq": seq}, time.time())
                await asyncio.sleep(EVERY_SECONDS)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5.0):
                    while not all(len(v.lags) >= EVENTS for v in watching):
                        await asyncio.sleep(0.05)
        finally:
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
    lags = sorted(lag for v in watching for lag in v.lags.values())
    expected = viewers * EVENTS
    return {
        "viewers": viewers,
        "workers": len(served),
        "events": EVENTS,
        "received": len(lags),
        "missed": expected - len(lags),
        "within_1s": sum(1 for lag in lags if lag <= 1.0),
        "lag_p50_ms": round(percentile(lags, 50) * 1000, 1) if lags else None,
        "lag_p99_ms": round(percentile(lags, 99) * 1000, 1) if lags else None,
        "lag_max_ms": round(lags[-1] * 1000, 1) if lags else None,
        "worker_kb_per_viewer": round((after - before) / viewers, 1),
    }


async def _view(http: aiohttp.ClientSession, url: str, viewer: Viewer) -> None:
    async with http.get(url) as response:
        response.raise_for_status()
        buffer = ""
        async for chunk in response.content.iter_any():
            arrived = time.time()
            buffer += chunk.decode()
            *blocks, buffer = buffer.replace("\r\n", "\n").split("\n\n")
            for block in blocks:
                data = next((line[6:] for line in block.split("\n") if line.startswith("data: ")), None)
                if data is None:
                    continue  # a keep-alive
                event = json.loads(data)
                viewer.connected = True
                if event.get("seq", -1) >= 0:
                    viewer.lags[event["seq"]] = arrived - event["at"]


@contextlib.asynccontextmanager
async def _workers(db: str, count: int, folder: Path, progress: Progress) -> AsyncIterator[list[tuple[str, int]]]:
    """`quizhost web` processes on the database: (base URL, pid) each, serving once yielded."""
    progress(f"{count} `quizhost web` workers")
    processes: list[asyncio.subprocess.Process] = []
    served = []
    try:
        for n in range(count):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "PYTHONPATH": os.pathsep.join(sys.path),
                "HOME": str(folder),
                "XDG_CACHE_HOME": str(folder / "cache"),
                "LOG_LEVEL": "WARNING",
                "QUIZHOST_DB": db,
                "QUIZHOST_WORKER": f"screen{n}",
                "QUIZHOST_WEB_LISTEN": f"127.0.0.1:{port}",
                "QUIZHOST_WEB_URL": base,
                "QUIZHOST_WEB_SECRET": SECRET,
            }
            with (folder / f"screen{n}.log").open("wb") as sink:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.cli", "web", cwd=folder, env=env, stdin=asyncio.subprocess.DEVNULL,
                    stdout=sink, stderr=sink,
                )  # fmt: skip
            processes.append(process)
            served.append((base, process.pid))
        await _serving([base for base, _ in served])
        yield served
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()


async def _serving(bases: list[str]) -> None:
    async with aiohttp.ClientSession() as http, asyncio.timeout(WAIT_SECONDS):
        for base in bases:
            while True:
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(base + "/") as response:
                        if response.status == 200:
                            break
                await asyncio.sleep(0.2)


def _rss_kb(pid: int) -> int:
    """A process's resident memory (Linux /proc; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)


def main(viewers: int, workers: int, url: str | None) -> int:
    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    cluster = None
    if url is None:
        from bot.testing.postgres import start_cluster

        progress("a throwaway PostgreSQL cluster (no --db given)")
        cluster = start_cluster()
        url = cluster.url()
    try:
        result = asyncio.run(screen_bench(url, viewers, workers, progress))
    finally:
        if cluster is not None:
            cluster.stop()
    print(json.dumps(result, indent=2))
    return 0
