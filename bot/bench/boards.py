"""Leaderboard, /stats and /quizstats latency in chats of 10^4, 10^5 and 10^6 stored answers.

Each size is a chat of its own in one store. Its history: `players` members, runs of 8 questions
each answered by 20 of them, 60 % right, one run every 84 minutes back from now (10^6 answers a
year), each run made from its own place in the history alone. So a larger chat holds the smaller
one's runs and older ones, and what grows is the history behind the newest runs, which is what a
board must not pay for: this week and this month hold the same newest runs at every size (all of
them, up to the 63 runs of 10^4 answers: 3.7 days). Each board is read by the member in the middle
of its chat's all-time board, as a board's cost grows with the caller's place.

The sizes' boards are read in turn, one read of each, through one store: the host's slow
moments (a read of 0.3 ms runs at 0.17 ms for a while after the machine idled, and at 1 ms now
and then) fall on every size alike. Read one size after the other, they fell on one size's 200
reads and not the other's, and decided the p99 ratio (docs/PERFORMANCE.md). A board reads only
its own chat's summaries, so the other chats in the file do not enter its cost.

Answers are bulk-loaded (sqlite3, or COPY on PostgreSQL: bot/bench/boards_pg.py) and the board
summaries and question statistics rebuilt the way the boards' and the statistics' migrations
backfill them (the rows the triggers would have made, much faster to load); then the real
engine reads them. The answers use the shipped quizzes' questions and options, so `quizhost
stats pipeline --chat bench:board-1000000 --db <kept folder>/boards.db` reads what the bench left.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Awaitable, Callable

from bot.app.compose import compose
from bot.app.wiring import open_store
from bot.commands.learning import quiz_report
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player, Question, Quiz
from bot.engine.standings import Standings
from bot.ports.store import Boards, QuestionTallies
from bot.testing.clock import FakeClock
from bot.texts import render_stats
from storage.dburl import Kind, parse
from storage.shared.tables import ANSWER_COLUMNS, LATE_TRIGGERS, SUMMARIES
from storage.sqlite.schema import BOARD_BACKFILL, RANKS_BACKFILL, RESPONSES_BACKFILL, STATS_BACKFILL

QUESTIONS = 8
PER_RUN = 20  # players answering each run
YEAR = 365 * 86400
READS = ("all", "week", "month", "quiz", "stats", "quizstats")  # timed in each chat (_reads)


def board_chat(size: int) -> ChatRef:
    """The chat whose history holds `size` answers."""
    return ChatRef("bench", f"board-{size}", title=f"{size} answers")


async def board_latency(
    db: str, catalog: Catalog, sizes: list[int], players: int, repeats: int
) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, int]]:
    """{size: {"all": {p50, p99}, "week", "month", "quiz" (all time, one quiz), "stats", "quizstats"}} in ms,
    and {size: how many players answered the quiz /quizstats reads} (what its cost grows with)."""
    now = time.time()
    chats = {size: board_chat(size) for size in sorted(set(sizes))}
    store = await open_store(db)
    for chat in chats.values():
        await store.ensure_chat(chat)
    await store.close()
    quizzes = long_enough(catalog)
    runs: list[tuple[tuple, list[tuple]]] = []
    for size, chat in chats.items():
        runs += history(size, chat, players, quizzes, now, len(runs) + 1)
    if parse(db).kind is Kind.POSTGRES:
        from bot.bench.boards_pg import load

        await load(db, players, runs)
    else:
        _load(db, players, runs)
    del runs  # a million rows the timed reads should not share the heap with
    return await _measure(db, catalog, now, chats, quizzes[0], repeats)


def history(
    want: int, chat: ChatRef, players: int, quizzes: list[Quiz], now: float, first_id: int
) -> list[tuple[tuple, list[tuple]]]:
    """The runs that give `chat` `want` stored answers, newest first: (run, its answers) each,
    the run as (id, chat key, quiz_id, when) and the answers as rows of the answers table. The
    n-th newest run is the same in every chat but for its ids: a larger size adds older runs."""
    per_run = QUESTIONS * PER_RUN
    runs_total = -(-1_000_000 // per_run)  # the whole year's runs, as for 10^6
    return [
        _one_run(random.Random(n), n, first_id + n, chat, now - YEAR * (n + 1) / runs_total, players, quizzes)
        for n in range(-(-want // per_run))
    ]


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
            (
                (run_id, chat_key, quiz_id, when, when, when, when + 300)
                for (run_id, chat_key, quiz_id, when), _ in runs
            ),
        )
        for _, rows in runs:
            conn.executemany(
                f"INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) VALUES ({', '.join('?' * len(ANSWER_COLUMNS))})",
                rows,
            )
        for table in SUMMARIES:
            conn.execute(f"DELETE FROM {table}")
        # executescript commits the loaded answers first
        conn.executescript(BOARD_BACKFILL + STATS_BACKFILL + RESPONSES_BACKFILL + RANKS_BACKFILL)
        for trigger in triggers:
            conn.execute(trigger)
        conn.commit()
    finally:
        conn.close()


def member_rows(players: int) -> list[tuple[str, str, str]]:
    return [(f"bench:m{i}", f"m{i}", f"Member {i}") for i in range(players)]


def _one_run(
    rng: random.Random, n: int, run_id: int, chat: ChatRef, when: float, players: int, quizzes: list[Quiz]
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
                    chat.key,
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
    return (run_id, chat.key, quiz_id, when), rows


async def _measure(
    db: str, catalog: Catalog, now: float, chats: dict[int, ChatRef], busiest: Quiz, repeats: int
) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, int]]:
    """Each size's READS, read in turn; `busiest`: the quiz of the one-quiz board and /quizstats."""
    store = await open_store(db)
    try:
        standings = compose(catalog, store, FakeClock(now)).standings
        reads = {
            size: _reads(standings, store, chat, await _middle_member(store, chat), busiest)
            for size, chat in chats.items()
        }
        out: dict[str, dict[str, dict[str, float]]] = {str(size): {} for size in chats}
        for name in READS:
            for size, times in zip(chats, await in_turn([reads[size][name] for size in chats], repeats)):
                out[str(size)][name] = {"p50": percentile(times, 50), "p99": percentile(times, 99)}
        answered = {
            str(size): len((await store.quiz_tally(busiest.id, chat.key)).places) for size, chat in chats.items()
        }
    finally:
        await store.close()
    return out, answered


def _reads(
    standings: Standings, store: QuestionTallies, chat: ChatRef, member: Player, busiest: Quiz
) -> dict[str, Callable[[], Awaitable[object]]]:
    """The reads timed in one chat, by the names of READS."""
    return {
        "all": lambda: standings.leaderboard(chat, "all", None, member),
        "week": lambda: standings.leaderboard(chat, "week", None, member),
        "month": lambda: standings.leaderboard(chat, "month", None, member),
        "quiz": lambda: standings.leaderboard(chat, "all", busiest.id, member),
        "stats": lambda: standings.player_stats(chat, member),
        "quizstats": lambda: _quizstats(store, chat, busiest),
    }


async def in_turn(calls: list[Callable[[], Awaitable[object]]], repeats: int) -> list[list[float]]:
    """Each call's `repeats` times in ms, the calls made in turn, one of each a round, each round
    starting one further along (no call always follows the same one)."""
    for call in calls:
        await call()  # the first read warms SQLite's page cache, as a running bot has it
    times: list[list[float]] = [[] for _ in calls]
    for round_ in range(repeats):
        for i in range(len(calls)):
            which = (round_ + i) % len(calls)
            began = time.perf_counter()
            await calls[which]()
            times[which].append((time.perf_counter() - began) * 1000)
    return times


async def _middle_member(store: Boards, chat: ChatRef) -> Player:
    """The member in the middle of the chat's all-time board, with the name the bench stored."""
    board = await store.leaderboard(chat.key)
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


async def _quizstats(store: QuestionTallies, chat: ChatRef, quiz: Quiz) -> None:
    """/quizstats as an admin gets it: the chat's figures of one quiz, rendered."""
    render_stats.chat_report("en", quiz, await quiz_report(store, quiz, chat.key))


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * pct // 100))
    return round(ordered[int(rank) - 1], 3)
