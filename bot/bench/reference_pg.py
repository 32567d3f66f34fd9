"""The reference on PostgreSQL: plain asyncpg storing the bench's own answer rows, no engine.

The rows the flat-out phase stored are copied, in the order they were pressed, into a fresh
schema with the bot's tables with `copy_records_to_table` (COPY, the fastest way in),
`batch` rows a transaction, question by question. The modes are those of bot/bench/reference.py.
"""

from __future__ import annotations

import time

import asyncpg

from bot.app.wiring import open_store
from bot.bench.databases import SCHEMA_PREFIX, BenchDatabases
from bot.bench.reference import BATCH, by_question
from storage.postgres.writer import ANSWER_COLUMNS


async def raw_copy_per_s(dbs: BenchDatabases, source_phase: str, mode: str = "insert", batch: int = BATCH) -> float:
    target = await dbs.fresh(f"raw_{mode}")
    store = await open_store(target)  # the bot's own migrations
    await store.close()
    conn = await asyncpg.connect(target)
    try:
        rounds = await _copy_everything_but_answers(conn, SCHEMA_PREFIX + source_phase, mode == "bare")
        began = time.perf_counter()
        for index, rows in rounds:
            for start in range(0, len(rows), batch):
                async with conn.transaction():
                    await conn.copy_records_to_table(
                        "answers", columns=ANSWER_COLUMNS, records=rows[start : start + batch]
                    )
            if mode == "summarise":  # the question closes everywhere: its answers go into the summaries
                await conn.execute("UPDATE runs SET phase = 'pausing', idx = $1", index)
        seconds = time.perf_counter() - began
    finally:
        await conn.close()
    return sum(len(rows) for _, rows in rounds) / seconds if seconds > 0 else 0.0


async def _copy_everything_but_answers(
    conn: asyncpg.Connection, source: str, bare: bool
) -> list[tuple[int, list[tuple]]]:
    async with conn.transaction():
        for table in ("chats", "players", "runs"):
            await conn.execute(f"INSERT INTO {table} SELECT * FROM {source}.{table}")
        # the runs as they were when their first answers came in: open, asking question 1
        await conn.execute("UPDATE runs SET status = 'open', phase = 'asking', idx = 0")
        if bare:
            await conn.execute("DROP TRIGGER answers_late_to_boards ON answers")
            await conn.execute("DROP TRIGGER runs_summarise_answers ON runs")
    rows = await conn.fetch(f"SELECT {', '.join(ANSWER_COLUMNS)} FROM {source}.answers")
    return by_question([tuple(row) for row in rows])
