"""Leaderboard and /stats latency on one busy chat with 10^4, 10^5 and 10^6 stored answers.

The chat's history: `players` members, runs of 8 questions spread evenly over the last year,
each run answered by 20 of them, 60 % right. Answers are bulk-loaded (sqlite3, or COPY on
PostgreSQL: bot/bench/boards_pg.py) and the board summaries rebuilt the way migration 2 backfills
them (the same rows the answer trigger would have made, much faster to load); then the real
engine reads the boards.
"""
from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Awaitable, Callable

from bot.app import open_store
from bot.catalog import Catalog
from bot.engine import Engine
from bot.model import ChatRef, Player
from bot.testing.clock import FakeClock
from storage.dburl import Kind, parse
from storage.schema import BOARD_BACKFILL

CHAT = ChatRef("bench", "board", title="busy group")
QUESTIONS = 8
PER_RUN = 20  # players answering each run
YEAR = 365 * 86400


async def board_latency(db: str, catalog: Catalog, sizes: list[int], players: int, repeats: int
                        ) -> dict[str, dict[str, dict[str, float]]]:
    """{size: {"all": {p50, p99}, "week": {...}, "stats": {...}}} in milliseconds."""
    now = time.time()
    store = await open_store(db)
    await store.ensure_chat(CHAT)
    await store.close()
    quiz_ids = [q.id for q in catalog.all()] or ["quiz"]
    loaded, stored_runs, result = 0, 0, {}
    for size in sorted(sizes):
        runs = history(loaded, size, players, quiz_ids, now, stored_runs + 1)
        stored_runs += len(runs)
        if parse(db).kind is Kind.POSTGRES:
            from bot.bench.boards_pg import load

            await load(db, players, runs)
        else:
            _load(db, players, runs)
        loaded = size
        result[str(size)] = await _measure(db, catalog, now, players, repeats)
    return result


def history(have: int, want: int, players: int, quiz_ids: list[str], now: float, first_id: int
            ) -> list[tuple[tuple, list[tuple]]]:
    """The runs that take the chat from `have` stored answers to `want`: (run, its answers) each,
    the run as (id, quiz_id, when) and the answers as rows of the answers table."""
    rng = random.Random(want)
    runs_total = -(-1_000_000 // (QUESTIONS * PER_RUN))  # the whole year's runs, as for 10^6
    made: list[tuple[tuple, list[tuple]]] = []
    for start in range(have // (QUESTIONS * PER_RUN), -(-want // (QUESTIONS * PER_RUN))):
        when = now - YEAR + YEAR * ((start * 7919) % runs_total) / runs_total  # spread over the year
        made.append(_one_run(rng, start, first_id + len(made), when, players, quiz_ids))
    return made


def _load(db: str, players: int, runs: list[tuple[tuple, list[tuple]]]) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("BEGIN")
        conn.executemany("INSERT OR IGNORE INTO players(key, platform, user_id, name, updated_at) "
                         "VALUES (?, 'bench', ?, ?, 0)", member_rows(players))
        trigger = conn.execute("SELECT sql FROM sqlite_master WHERE name='answers_late_to_boards'").fetchone()[0]
        conn.execute("DROP TRIGGER answers_late_to_boards")
        conn.executemany(
            "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
            "started_at, status, phase, idx, asked_at, due, silent, ended_at) "
            "VALUES (?, ?, ?, 'en', 1, '[]', 30, 5, 'bench:m0', ?, 'finished', 'pausing', 7, ?, ?, 0, ?)",
            ((run_id, CHAT.key, quiz_id, when, when, when, when + 300) for (run_id, quiz_id, when), _ in runs))
        for _, rows in runs:
            conn.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.execute("DELETE FROM board_days")
        conn.execute("DELETE FROM board_totals")
        conn.executescript(BOARD_BACKFILL)  # executescript commits the loaded answers first
        conn.execute(trigger)
        conn.commit()
    finally:
        conn.close()


def member_rows(players: int) -> list[tuple[str, str, str]]:
    return [(f"bench:m{i}", f"m{i}", f"Member {i}") for i in range(players)]


def _one_run(rng: random.Random, n: int, run_id: int, when: float, players: int, quiz_ids: list[str]
             ) -> tuple[tuple, list[tuple]]:
    quiz_id = quiz_ids[n % len(quiz_ids)]
    rows = []
    for member in rng.sample(range(players), min(PER_RUN, players)):
        streak = 0
        for index in range(QUESTIONS):
            right = rng.random() < 0.6
            streak = streak + 1 if right else 0
            elapsed = rng.uniform(1, 30)
            points = round(1000 * (1 - elapsed / 60)) + min(100 * max(streak - 1, 0), 500) if right else 0
            rows.append((run_id, index, f"q{index}", f"bench:m{member}", CHAT.key, quiz_id, 0, int(right),
                         elapsed, points, streak, when + 35 * index + elapsed))
    return (run_id, quiz_id, when), rows


async def _measure(db: str, catalog: Catalog, now: float, players: int, repeats: int
                   ) -> dict[str, dict[str, float]]:
    store = await open_store(db)
    engine = Engine(catalog, store, FakeClock(now))
    member = Player("bench", f"m{players // 2}", "Member")
    calls: dict[str, Callable[[], Awaitable[object]]] = {
        "all": lambda: engine.leaderboard(CHAT, "all", None, member),
        "week": lambda: engine.leaderboard(CHAT, "week", None, member),
        "stats": lambda: engine.player_stats(CHAT, member),
    }
    out: dict[str, dict[str, float]] = {}
    try:
        for name, call in calls.items():
            await call()  # the first read warms SQLite's page cache, as a running bot has it
            times = []
            for _ in range(repeats):
                began = time.perf_counter()
                await call()
                times.append((time.perf_counter() - began) * 1000)
            out[name] = {"p50": percentile(times, 50), "p99": percentile(times, 99)}
    finally:
        await store.close()
    return out


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return round(ordered[int(rank) - 1], 3)
