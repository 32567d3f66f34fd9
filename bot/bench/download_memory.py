"""A chat's whole history downloaded, its peak memory and time (docs/PERFORMANCE.md).

    python -m bot.bench.download_memory fill DB [ANSWERS]   # a SQLite store with that many answers
    python -m bot.bench.download_memory csv|xlsx DB          # the download, in this process

Each download runs in a process of its own, so its peak resident memory (ru_maxrss) is its own.
It goes the way the web page's download goes: the streaming writer (bot/commands/downloads.py)
when this tree has it, else the all-in-memory code before it, so a checkout of either measures
itself (run from that checkout, this file copied into it).
"""

from __future__ import annotations

import asyncio
import resource
import sqlite3
import sys
import time

from bot.app.compose import compose
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player
from bot.domain.records import RunRow, RunStatus
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import make_quiz
from storage.shared.tables import ANSWER_COLUMNS
from storage.sqlite.store import SqliteStore

CHAT = ChatRef("test", "big", title="Big group")
PLAYERS = 50
QUESTIONS = 4  # the demo quiz's


async def fill(db: str, answers: int) -> None:
    store = await SqliteStore.open(db)
    await store.ensure_chat(CHAT)
    for p in range(PLAYERS):
        await store.ensure_player(Player("test", f"p{p}", f"Player {p:02d}"))
    rows = []
    for n in range(answers // (PLAYERS * QUESTIONS)):
        ids = tuple(f"q{q + 1}" for q in range(QUESTIONS))
        start = 1_700_000_000.0 + 3600 * n
        run = RunRow(CHAT.key, CHAT.chat_id, CHAT.platform, False, "demo", "en", 1, ids, 30, 5.0, "test:p0", start)
        run.status = RunStatus.FINISHED
        run_id = await store.create_run(run)
        for q in range(QUESTIONS):
            for p in range(PLAYERS):
                at = run.started_at + 30 * q + p / 10
                right = int(p % 4 == q)
                rows.append((run_id, q, f"q{q + 1}", f"test:p{p}", CHAT.key, "demo", p % 4, right, 1.5, 500, 1, at))
    await store.close()
    with sqlite3.connect(db) as conn:
        columns = ", ".join(ANSWER_COLUMNS[:12])
        conn.executemany(f"INSERT INTO answers({columns}) VALUES ({', '.join('?' * 12)})", rows)


async def download(db: str, kind: str) -> int:
    store = await SqliteStore.open(db)
    results = compose(Catalog.from_quizzes([make_quiz()]), store, FakeClock(), EngineSettings()).results
    try:
        from bot.commands import downloads
        from bot.commands.results import chat_result_pages
    except ImportError:  # the code before streaming
        from bot.commands import sheets
        from bot.commands.results import chat_results

        lines = await chat_results(results, CHAT.key, "en")
        data = await asyncio.to_thread(sheets.as_file, lines, kind)  # type: ignore[attr-defined]
        await store.close()
        return len(data)
    written = 0

    async def write(chunk: bytes) -> None:
        nonlocal written
        written += len(chunk)

    await downloads.write_results(chat_result_pages(results, CHAT.key, "en"), kind, write)
    await store.close()
    return written


def main(argv: list[str]) -> None:
    if argv[0] == "fill":
        asyncio.run(fill(argv[1], int(argv[2]) if len(argv) > 2 else 100_000))
        return
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    size = asyncio.run(download(argv[1], argv[0]))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{argv[0]}: {size:,} bytes in {seconds:.1f} s, peak {peak / 1024:.0f} MB (before: {before / 1024:.0f} MB)")


if __name__ == "__main__":
    main(sys.argv[1:])
