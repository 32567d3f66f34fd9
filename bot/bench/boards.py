"""Leaderboard, /stats and /quizstats latency on one busy chat with 10^4, 10^5 and 10^6 stored answers.

The chat's history: `players` members, runs of 8 questions each answered by 20 of them, 60 %
right, one run every 84 minutes back from now (10^6 answers a year). A larger size adds older
runs, so what grows is the history behind the newest runs, which is what a board must not pay
for: this week and this month hold the newest runs at every size (all of them, up to the 63 runs
of 10^4 answers: 3.7 days). Spread over the year instead, the week of 10^4 answers was empty,
and its board ratio compared 700 players with none. Each board is read by the member in the
middle of the all-time board, as a board's cost grows with the caller's place.

Answers are bulk-loaded (sqlite3, or COPY on PostgreSQL: bot/bench/boards_pg.py) and the board
summaries and question statistics rebuilt the way the boards' and the statistics' migrations
backfill them (the rows the triggers would have made, much faster to load); then the real
engine reads them. The answers use the shipped quizzes' questions and options, so `quizhost
stats pipeline --chat bench:board --db <kept folder>/boards.db` reads what the bench left.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Awaitable, Callable

from bot.app.wiring import open_store
from bot.commands.learning import quiz_report
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player, Question, Quiz
from bot.engine.core import Engine
from bot.ports.store import Boards, QuestionTallies
from bot.testing.clock import FakeClock
from bot.texts import render_stats
from storage.dburl import Kind, parse
from storage.shared.tables import ANSWER_COLUMNS, LATE_TRIGGERS, SUMMARIES
from storage.sqlite.schema import BOARD_BACKFILL, RANKS_BACKFILL, STATS_BACKFILL

CHAT = ChatRef("bench", "board", title="busy group")
QUESTIONS = 8
PER_RUN = 20  # players answering each run
YEAR = 365 * 86400


async def board_latency(
    db: str, catalog: Catalog, sizes: list[int], players: int, repeats: int
) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, int]]:
    """{size: {"all": {p50, p99}, "week", "month", "quiz" (all time, one quiz), "stats", "quizstats"}} in ms,
    and {size: how many players answered the quiz /quizstats reads} (what its cost grows with)."""
    now = time.time()
    store = await open_store(db)
    await store.ensure_chat(CHAT)
    await store.close()
    quizzes = long_enough(catalog)
    loaded, stored_runs, result, answered = 0, 0, {}, {}
    for size in sorted(sizes):
        runs = history(loaded, size, players, quizzes, now, stored_runs + 1)
        stored_runs += len(runs)
        if parse(db).kind is Kind.POSTGRES:
            from bot.bench.boards_pg import load

            await load(db, players, runs)
        else:
            _load(db, players, runs)
        loaded = size
        result[str(size)], answered[str(size)] = await _measure(db, catalog, now, repeats)
    return result, answered


def history(
    have: int, want: int, players: int, quizzes: list[Quiz], now: float, first_id: int
) -> list[tuple[tuple, list[tuple]]]:
    """The runs that take the chat from `have` stored answers to `want`: (run, its answers) each,
    the run as (id, quiz_id, when) and the answers as rows of the answers table."""
    rng = random.Random(want)
    per_run = QUESTIONS * PER_RUN
    runs_total = -(-1_000_000 // per_run)  # the whole year's runs, as for 10^6
    made: list[tuple[tuple, list[tuple]]] = []
    for start in range(-(-have // per_run), -(-want // per_run)):  # `have` was made of ceil(have / per_run) runs
        when = now - YEAR * (start + 1) / runs_total  # newest first: a larger size reaches further back
        made.append(_one_run(rng, start, first_id + len(made), when, players, quizzes))
    return made


def _load(db: str, players: int, runs: list[tuple[tuple, list[tuple]]]) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT OR IGNORE INTO players(key, platform, user_id, name, updated_at) VALUES (?, 'bench', ?, ?, 0)",
            member_rows(players),
        )
        triggers = [
            conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
            for name in LATE_TRIGGERS
        ]
        for name in LATE_TRIGGERS:
            conn.execute(f"DROP TRIGGER {name}")
        conn.executemany(
            "INSERT INTO runs(id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
            "started_at, status, phase, idx, asked_at, due, silent, ended_at) "
            "VALUES (?, ?, ?, 'en', 1, '[]', 30, 5, 'bench:m0', ?, 'finished', 'pausing', 7, ?, ?, 0, ?)",
            ((run_id, CHAT.key, quiz_id, when, when, when, when + 300) for (run_id, quiz_id, when), _ in runs),
        )
        for _, rows in runs:
            conn.executemany(
                f"INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) VALUES ({', '.join('?' * len(ANSWER_COLUMNS))})",
                rows,
            )
        for table in SUMMARIES:
            conn.execute(f"DELETE FROM {table}")
        # executescript commits the loaded answers first
        conn.executescript(BOARD_BACKFILL + STATS_BACKFILL + RANKS_BACKFILL)
        for trigger in triggers:
            conn.execute(trigger)
        conn.commit()
    finally:
        conn.close()


def member_rows(players: int) -> list[tuple[str, str, str]]:
    return [(f"bench:m{i}", f"m{i}", f"Member {i}") for i in range(players)]


def _one_run(
    rng: random.Random, n: int, run_id: int, when: float, players: int, quizzes: list[Quiz]
) -> tuple[tuple, list[tuple]]:
    quiz = quizzes[n % len(quizzes)]
    quiz_id = quiz.id
    rows = []
    for member in rng.sample(range(players), min(PER_RUN, players)):
        streak = 0
        for index, question in enumerate(_one_right_option(quiz)[:QUESTIONS]):
            right = rng.random() < 0.6
            wrong = [i for i in range(len(question.options)) if i != question.answer]
            option = question.answer if right else rng.choice(wrong)
            streak = streak + 1 if right else 0
            elapsed = rng.uniform(1, 30)
            points = round(1000 * (1 - elapsed / 60)) + min(100 * max(streak - 1, 0), 500) if right else 0
            rows.append(
                (
                    run_id,
                    index,
                    question.id,
                    f"bench:m{member}",
                    CHAT.key,
                    quiz_id,
                    option,
                    int(right),
                    elapsed,
                    points,
                    streak,
                    when + 35 * index + elapsed,
                    "",  # response: the bench's questions have one right option
                    1,  # scored
                )
            )
    return (run_id, quiz_id, when), rows


async def _measure(db: str, catalog: Catalog, now: float, repeats: int) -> tuple[dict[str, dict[str, float]], int]:
    store = await open_store(db)
    try:
        engine = Engine(catalog, store, FakeClock(now))
        busiest = long_enough(catalog)[0]
        member = await _middle_member(store)
        calls: dict[str, Callable[[], Awaitable[object]]] = {
            "all": lambda: engine.leaderboard(CHAT, "all", None, member),
            "week": lambda: engine.leaderboard(CHAT, "week", None, member),
            "month": lambda: engine.leaderboard(CHAT, "month", None, member),
            "quiz": lambda: engine.leaderboard(CHAT, "all", busiest.id, member),
            "stats": lambda: engine.player_stats(CHAT, member),
            "quizstats": lambda: _quizstats(store, busiest),
        }
        out: dict[str, dict[str, float]] = {}
        for name, call in calls.items():
            await call()  # the first read warms SQLite's page cache, as a running bot has it
            times = []
            for _ in range(repeats):
                began = time.perf_counter()
                await call()
                times.append((time.perf_counter() - began) * 1000)
            out[name] = {"p50": percentile(times, 50), "p99": percentile(times, 99)}
        tally = await store.quiz_tally(busiest.id, CHAT.key)
    finally:
        await store.close()
    return out, len(tally.places)


async def _middle_member(store: Boards) -> Player:
    """The member in the middle of the chat's all-time board, with the name the bench stored."""
    board = await store.leaderboard(CHAT.key)
    middle = board[len(board) // 2]
    return Player("bench", middle.player_key.removeprefix("bench:"), middle.name)


def flatness(latency: dict[str, dict[str, dict[str, float]]], answered: dict[str, int]) -> dict:
    """/quizstats at the most stored answers against the fewest: 1 is flat."""
    low, high = min(latency, key=int), max(latency, key=int)
    first, last = latency[low]["quizstats"]["p50"], latency[high]["quizstats"]["p50"]
    return {"ratio": round(last / first, 2) if first else None, "of": [high, low], "players": answered}


def _one_right_option(quiz: Quiz) -> tuple[Question, ...]:
    """The questions the bench answers: those with one right option (choice, true/false)."""
    return tuple(q for q in quiz.questions if q.answer >= 0)


def long_enough(catalog: Catalog) -> list[Quiz]:
    """The catalog's quizzes with a run's worth of questions: those the bench's history plays."""
    return [quiz for info in catalog.all() if (quiz := catalog.get(info.id)) and len(quiz.questions) >= QUESTIONS]


async def _quizstats(store: QuestionTallies, quiz: Quiz) -> None:
    """/quizstats as an admin gets it: the chat's figures of one quiz, rendered."""
    render_stats.chat_report("en", quiz, await quiz_report(store, quiz, CHAT.key))


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return round(ordered[int(rank) - 1], 3)
