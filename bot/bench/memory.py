"""Memory with many runs open at once, measured in a fresh process: `python -m bot.bench.memory`.

Each run has its question posted and `players` answers on it, as in a live group. The figure
is the growth of the process's resident memory from a warmed-up engine to the same engine
with every run open, divided by the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import sys
import time

from bot.app.compose import compose
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import ChatRef, MessageRef, Player, QuestionCard, Quiz, Reply, Reveal
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock

CHUNK = 500  # runs started together: the store's thread never waits for the next request


class _TokenAdapter:
    """Posts nothing anywhere; remembers one token per open question so the bench can press."""

    platform = "bench"

    def __init__(self) -> None:
        self.tokens: dict[int, str] = {}

    async def post_question(self, card: QuestionCard) -> MessageRef:
        self.tokens[card.run_id] = card.options[0].token
        return MessageRef(card.chat, str(card.run_id))

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        pass

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        pass

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        return True  # the bench assigns nothing


def rss_mb() -> float:
    """Resident memory now (Linux /proc), else the peak the OS reports."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024


async def open_runs(db: str, runs: int, players: int) -> dict[str, float]:
    from bot.app.wiring import open_store

    catalog = Catalog.load(default_quiz_folders())
    quiz = next(q for q in catalog.all() if isinstance(q, Quiz))  # no cache: every quiz is whole
    clock = FakeClock(time.time())
    store = await open_store(db)
    # an hour per question: every run stays open on its first question while the others start
    engine = compose(catalog, store, clock, EngineSettings(question_seconds=3600, pause_seconds=5)).engine
    adapter = _TokenAdapter()
    engine.attach(adapter)
    try:
        await _open(engine, clock, adapter, quiz, 0, CHUNK, players)  # warm up: imports, caches, pools
        gc.collect()
        before = rss_mb()
        began = time.perf_counter()
        for first in range(CHUNK, runs + CHUNK, CHUNK):
            await _open(engine, clock, adapter, quiz, first, min(CHUNK, runs + CHUNK - first), players)
        adapter.tokens.clear()
        for _ in range(3):  # let finished tasks' callbacks run and drop their last references
            await asyncio.sleep(0)
        gc.collect()
        after = rss_mb()
        open_now = len(engine.open_runs()) - CHUNK
    finally:
        await store.close()
    return {
        "rss_mb": round(after, 1),
        "kb_per_run": round((after - before) * 1024 / max(open_now, 1), 2),
        "runs": open_now,
        "answers_per_run": players,
        "seconds": round(time.perf_counter() - began, 1),
    }


async def _open(
    engine: Engine, clock: FakeClock, adapter: _TokenAdapter, quiz: Quiz, first: int, count: int, players: int
) -> None:
    chats = [ChatRef("bench", f"m{first + i}", title="bench") for i in range(count)]
    people = [[Player("bench", f"m{first + i}u{j}", f"Player {j}") for j in range(players)] for i in range(count)]
    starter = Player("bench", "starter", "Starter")
    outcomes = await asyncio.gather(*(engine.start_quiz(c, quiz, starter) for c in chats))
    clock.advance(5)
    await engine.run_due()  # every new run posts its first question
    presses = [(adapter.tokens[o.run.id], p) for o, group in zip(outcomes, people) if o.run for p in group]
    for start in range(0, len(presses), CHUNK):  # a few at a time: no transient heap peak in the figure
        await asyncio.gather(*(engine.answer(token, p) for token, p in presses[start : start + CHUNK]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.memory")
    parser.add_argument("db", help="a SQLite file or a postgresql:// URL")
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=10)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(open_runs(args.db, args.runs, args.players))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
