"""The machine's reference: plain aiosqlite inserting the bench's own answer rows, no engine."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import aiosqlite

from storage.sqlite.store import SqliteStore
from storage.sqlite.writer import INSERT_ANSWER

BATCH = 1000


async def raw_insert_per_s(source: Path, target: Path, mode: str = "insert", batch: int = BATCH) -> float:
    """Rows per second storing `source`'s answers in a fresh database, `batch` per transaction,
    with the bot's schema and pragmas, question by question.

    insert: the rows into the bot's schema (its indexes, its trigger's check of each answer);
    summarise: that, plus one transaction per question moving every run past it, which
      summarises the question's answers for the boards as the bot's closes do;
    bare: the plain answers table with its indexes, no triggers: the cheapest insert there is.
    """
    bare = mode == "bare"
    store = await SqliteStore.open(target)  # the bot's own migrations
    await store.close()
    rounds = _copy_everything_but_answers(source, target, bare)
    db = await aiosqlite.connect(str(target))
    try:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            await db.execute(f"PRAGMA {pragma}")
        began = time.perf_counter()
        for index, rows in rounds:
            for start in range(0, len(rows), batch):
                await db.executemany(INSERT_ANSWER, rows[start : start + batch])
                await db.commit()
            if mode == "summarise":  # the question closes everywhere: its answers go into the summaries
                await db.execute("UPDATE runs SET phase = 'pausing', idx = ?", (index,))
                await db.commit()
        seconds = time.perf_counter() - began
    finally:
        await db.close()
    return sum(len(rows) for _, rows in rounds) / seconds if seconds > 0 else 0.0


def _copy_everything_but_answers(source: Path, target: Path, bare: bool) -> list[tuple[int, list[tuple]]]:
    """Copy the chats, players and runs the answers refer to; return the answers by question."""
    db = sqlite3.connect(target)
    try:
        db.execute("ATTACH DATABASE ? AS src", (str(source),))
        for table in ("chats", "players", "runs"):
            db.execute(f"INSERT INTO main.{table} SELECT * FROM src.{table}")
        # the runs as they were when their first answers came in: open, asking question 1
        db.execute("UPDATE main.runs SET status = 'open', phase = 'asking', idx = 0")
        if bare:
            db.execute("DROP TRIGGER answers_late_to_boards")
            db.execute("DROP TRIGGER runs_summarise_answers")
        rows = db.execute(
            "SELECT run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, "
            "elapsed, points, streak, answered_at FROM src.answers"
        ).fetchall()
        db.commit()
    finally:
        db.close()
    return by_question(rows)


def by_question(rows: list[tuple]) -> list[tuple[int, list[tuple]]]:
    """Answer rows in the order the bench pressed them: question by question, chats and players
    mixed (key order would flatter the reference: appending to a B-tree is cheaper than inserting)."""
    rng = random.Random(3)
    rounds: dict[int, list[tuple]] = {}
    for row in rows:
        rounds.setdefault(row[1], []).append(row)
    for index in rounds:
        rng.shuffle(rounds[index])
    return sorted(rounds.items())
