"""The machine's reference: plain aiosqlite inserting the bench's own answer rows, no engine."""
from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import aiosqlite

from storage.sqlite import SqliteStore
from storage.writer import INSERT_ANSWER

BATCH = 1000


async def raw_insert_per_s(source: Path, target: Path, bare: bool = False, batch: int = BATCH) -> float:
    """Rows per second inserting `source`'s answers into a fresh database, `batch` per transaction.

    The target has the bot's schema (same indexes, same leaderboard trigger) and the same
    pragmas, so the reference does the same storage work as the bot minus the engine.
    `bare` drops the trigger that checks each answer against its run: a plain table with
    its indexes, the cheapest possible insert.
    """
    store = await SqliteStore.open(target)  # the bot's own migrations
    await store.close()
    rows = _copy_everything_but_answers(source, target, bare)
    db = await aiosqlite.connect(str(target))
    try:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            await db.execute(f"PRAGMA {pragma}")
        began = time.perf_counter()
        for start in range(0, len(rows), batch):
            await db.executemany(INSERT_ANSWER, rows[start:start + batch])
            await db.commit()
        seconds = time.perf_counter() - began
    finally:
        await db.close()
    return len(rows) / seconds if seconds > 0 else 0.0


def _copy_everything_but_answers(source: Path, target: Path, bare: bool) -> list[tuple]:
    """Copy the chats, players and runs the answers refer to; return the answers to insert."""
    db = sqlite3.connect(target)
    try:
        db.execute("ATTACH DATABASE ? AS src", (str(source),))
        for table in ("chats", "players", "runs"):
            db.execute(f"INSERT INTO main.{table} SELECT * FROM src.{table}")
        # the runs as they were while their answers came in: open, so every answer is live
        # (the bot summarises a question's answers when it closes, which is not inserting them)
        db.execute("UPDATE main.runs SET status = 'open', phase = 'asking', idx = 0")
        if bare:
            db.execute("DROP TRIGGER answers_late_to_boards")
        rows = db.execute("SELECT run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, "
                          "elapsed, points, streak, answered_at FROM src.answers").fetchall()
        db.commit()
    finally:
        db.close()
    # the order the bench pressed them in: question by question, chats and players mixed
    # (key order would flatter the reference: appending to a B-tree is cheaper than inserting)
    rng = random.Random(3)
    rounds: dict[int, list[tuple]] = {}
    for row in rows:
        rounds.setdefault(row[1], []).append(row)
    ordered: list[tuple] = []
    for index in sorted(rounds):
        rng.shuffle(rounds[index])
        ordered += rounds[index]
    return ordered
