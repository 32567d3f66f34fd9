"""The leaderboard bench's bulk load on PostgreSQL: COPY the runs and answers, then rebuild the
summaries as the boards' and the statistics' migrations backfill them (the rows the answer triggers would have made)."""

from __future__ import annotations

import asyncpg

from bot.bench.boards import member_rows
from storage.postgres.schema import BOARD_BACKFILL, RANKS_BACKFILL, RESPONSES_BACKFILL, STATS_BACKFILL
from storage.postgres.writer import ANSWER_COLUMNS
from storage.shared.tables import LATE_TRIGGERS, SUMMARIES

RUN_COLUMNS = (
    "id",
    "chat_key",
    "quiz_id",
    "language",
    "seed",
    "question_ids",
    "seconds",
    "pause",
    "started_by",
    "started_at",
    "status",
    "phase",
    "idx",
    "asked_at",
    "due",
    "silent",
    "ended_at",
)


async def load(url: str, players: int, runs: list[tuple[tuple, list[tuple]]]) -> None:
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.executemany(
                "INSERT INTO players(key, platform, user_id, name, updated_at) "
                "VALUES ($1, 'bench', $2, $3, 0) ON CONFLICT DO NOTHING",
                member_rows(players),
            )
            for trigger in LATE_TRIGGERS:
                await conn.execute(f"ALTER TABLE answers DISABLE TRIGGER {trigger}")
            await conn.copy_records_to_table(
                "runs",
                columns=RUN_COLUMNS,
                records=[
                    (
                        run_id,
                        chat_key,
                        quiz_id,
                        "en",
                        1,
                        [],
                        30,
                        5.0,
                        "bench:m0",
                        when,
                        "finished",
                        "pausing",
                        7,
                        when,
                        when,
                        0,
                        when + 300,
                    )
                    for (run_id, chat_key, quiz_id, when), _ in runs
                ],
            )
            await conn.copy_records_to_table(
                "answers", columns=ANSWER_COLUMNS, records=[row for _, rows in runs for row in rows]
            )
            emptied = "".join(f"DELETE FROM {table};" for table in SUMMARIES)
            await conn.execute(emptied + BOARD_BACKFILL + STATS_BACKFILL + RESPONSES_BACKFILL + RANKS_BACKFILL)
            for trigger in LATE_TRIGGERS:
                await conn.execute(f"ALTER TABLE answers ENABLE TRIGGER {trigger}")
        await conn.execute("VACUUM ANALYZE")  # statistics and a visibility map, as autovacuum keeps them
    finally:
        await conn.close()
