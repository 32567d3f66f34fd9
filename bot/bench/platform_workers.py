"""`quizhost bench --platform telegram --workers N --db postgresql://...`: presses per second
through N webhook workers on one PostgreSQL database, and through one, in the same run. With
`--platform discord --http`, through N interactions endpoint workers the same way (the fake
Discord signs each interaction and posts it to the next worker in turn).

Each worker is a `quizhost run` process of its own (the real python-telegram-bot webhook app,
listening on its own loopback port), all on one database. The fake Bot API of the platform
bench (another process) is also their load balancer: it posts every update, the /quiz commands
too, to the next worker in turn, so a quiz runs on the worker that got its /quiz and most of
its presses reach workers that do not run it (they check them against the database). A press
counts when its answerCallbackQuery reaches the fake. Phases per pass, each on a fresh schema:
/quiz in every chat, a warm-up round, then `--chats` x `--players` presses flat out with
`--window` waiting for their acknowledgement (Telegram's connection limit caps that at 100).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bot.bench.databases import BenchDatabases
from bot.bench.platform_process import FakeProcess
from bot.bench.worker_process import HOOK_PATH, Pool, WorkerProcess, while_alive

TOPIC = "pipeline"
START_TIMEOUT = 300.0  # Telegram's flood limit paces the first questions: about 30 a second per worker
SQLITE_REFUSAL = (
    "--workers needs --db postgresql://...: several workers share one PostgreSQL database (SQLite is one process's)"
)


@dataclass(frozen=True)
class WorkersOptions:
    workers: int
    platform: str
    db: str
    chats: int = 100
    players: int = 50
    window: int = 1000
    webhook_answers: str = "reply"
    folder: str | None = None


def problem(args: argparse.Namespace) -> str | None:
    """Why these flags cannot bench several workers (a password is never shown), or None."""
    from storage.dburl import Kind, parse

    if args.platform != "telegram" and not args.http:
        return (
            "--workers is for --platform telegram, or discord with --http (on the gateway, Discord "
            "splits shards over processes instead)"
        )
    if args.workers < 1:
        return "these must be positive: --workers"
    if args.ptb_default_request:
        return "--ptb-default-request is for the single-process bench, without --workers"
    try:
        kind = parse(args.db).kind if args.db is not None else Kind.SQLITE
    except ValueError as exc:  # its message never holds the password
        return f"--db {exc}"
    return SQLITE_REFUSAL if kind is not Kind.POSTGRES else None


def main(args: argparse.Namespace) -> int:
    from bot.bench.platform import endpoint_window
    from bot.bench.platform_report import workers_table

    options = WorkersOptions(
        workers=args.workers,
        platform=args.platform,
        db=args.db,
        chats=args.chats,
        players=args.players,
        window=endpoint_window(args.window) if args.platform == "discord" else args.window,
        webhook_answers=args.webhook_answers,
        folder=args.keep,
    )

    def progress(text: str) -> None:
        print(f"… {text}", file=sys.stderr, flush=True)

    result = asyncio.run(bench_workers(options, progress))
    print(json.dumps(result) if args.json else workers_table(result))
    return 0


async def bench_workers(options: WorkersOptions, progress: Callable[[str], None] = lambda text: None) -> dict:
    """One worker, then `options.workers`, against one fake in one run; the ratio of the two."""
    from bot.bench.platform import versions

    counts = sorted({1, options.workers})
    with tempfile.TemporaryDirectory(prefix="quizhost-workers-bench-") as scratch:
        folder = Path(options.folder or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        databases = BenchDatabases(folder, options.db, keep=bool(options.folder))
        config = {
            **asdict(options),
            "db": "postgresql",
            **versions(options.platform),
            "topic": TOPIC,
            "postgresql": await _server_version(options.db),
            "load_before": _load(),
        }
        passes: dict[str, dict] = {}
        try:
            async with await FakeProcess.spawn(options.platform) as fake:
                for count in counts:
                    passes[str(count)] = await _pass(fake, options, count, databases, folder, progress)
        finally:
            await databases.cleanup()
    one, many = passes["1"]["flat_out"]["per_s"], passes[str(options.workers)]["flat_out"]["per_s"]
    return {"config": config, "passes": passes, "ratio": round(many / one, 3) if one else None}


async def _pass(
    fake: FakeProcess,
    options: WorkersOptions,
    count: int,
    databases: BenchDatabases,
    folder: Path,
    progress: Callable[[str], None],
) -> dict:
    presses = options.chats * options.players
    warm = min(options.window, presses)  # pools fill and caches warm, as in workers up for a while
    chats = options.chats + math.ceil(warm / options.players)
    made = await fake.ask("setup", chats=chats, players=options.players)
    pool = _pool(fake.info, made, options, await databases.fresh(f"workers_{count}"), folder)
    workers: list[WorkerProcess] = []
    label = f"{count} worker{'s' if count > 1 else ''}"
    try:  # every worker started is stopped, whatever fails
        for n in range(count):
            workers.append(await WorkerProcess.spawn(pool, f"bench-{count}-{n + 1}"))
        await fake.ask("balance", addresses=[w.address for w in workers], secret=pool.secret)

        async def phase(command: str, **arguments: Any) -> dict:
            return await while_alive(workers, asyncio.ensure_future(fake.ask(command, **arguments)))

        progress(f"{label}: /quiz {TOPIC} in {chats} chats")
        start = await phase("start", topic=TOPIC, timeout=START_TIMEOUT)
        progress(f"{label}: warm-up, {warm:,} presses")
        await phase("flat", presses=warm, window=options.window)
        progress(f"{label}: flat out, {presses:,} presses, {options.window} in flight")
        cpu = sum(w.cpu_seconds() for w in workers)
        flat = await phase("flat", presses=presses, window=options.window)
        used = sum(w.cpu_seconds() for w in workers) - cpu
        delivered = await fake.ask("delivered")
    finally:
        await asyncio.gather(*(w.stop() for w in workers))
    per_press = round(used / flat["acked"] * 1e6) if flat["acked"] else 0
    return {
        "workers": count,
        "start": start,
        "flat_out": flat,
        "workers_cpu_us_per_press": per_press,
        "updates_per_worker": delivered["per_worker"],
        "failed_deliveries": delivered["failed"],
    }


def _pool(info: dict, made: dict, options: WorkersOptions, db: str, folder: Path) -> Pool:
    """What the pass's workers share; Discord's take the fake's public key as theirs."""
    if options.platform == "discord":
        return Pool(
            api_url=info["api_base"],
            token=info["token"],
            public_url="",
            secret=info["public_key"],
            db=db,
            answers="",
            folder=folder,
            platform="discord",
            guild_ids=",".join(map(str, made["guild_ids"])),
        )
    return Pool(
        api_url=info["api_url"],
        token=info["token"],
        public_url=f"http://127.0.0.1:{info['port']}/{HOOK_PATH}",
        secret=secrets.token_urlsafe(24),
        db=db,
        answers=options.webhook_answers,
        folder=folder,
    )


async def _server_version(url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SHOW server_version"))
    finally:
        await conn.close()


def _load() -> list[float]:
    """The machine's load averages (1, 5, 15 minutes) as the bench starts: others share the cores."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []
