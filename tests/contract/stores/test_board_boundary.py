"""The boards count each stored answer once, whatever order the group commit writes a run's
state and the presses to its question in (storage/shared/group_commit.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from types import ModuleType

import asyncpg

from bot.domain.model import ChatRef
from bot.domain.records import Phase
from storage.postgres import schema as postgres_schema
from storage.shared.group_commit import MAX_RUNS
from storage.sqlite import schema as sqlite_schema
from tests.contract.stores.rows import CHAT, answer, stored_run

NOW = 1_764_000_000.0


async def _board(store, chat: ChatRef) -> dict[str, int]:
    return {s.player_key: s.points for s in await store.leaderboard(chat.key)}


async def test_presses_committed_before_the_question_shown_state_count_once(store):
    """Many chats busy at once: a batch takes presses and only the oldest few run states, so
    the presses to a just-posted question may commit while its run is still stored as posting."""
    chats = [ChatRef("test", f"g{n}") for n in range(MAX_RUNS + 1)]
    runs = [await stored_run(store, chat) for chat in chats]
    for row in runs:
        row.phase, row.index = Phase.POSTING, 0  # the first question waits in the outbox
        await store.save_run(row)
    last = runs[-1]
    for row in runs:
        row.phase = Phase.ASKING  # posted: shown in every chat
    press = answer(last.id, "test:ann", NOW, 900, chat=chats[-1])
    await asyncio.gather(*(store.save_run(row) for row in runs), store.submit_answer(press))
    assert await _board(store, chats[-1]) == {"test:ann": 900}, "while the question is open"
    last.phase = Phase.PAUSING  # it closes
    await store.save_run(last)
    assert await _board(store, chats[-1]) == {"test:ann": 900}, "once closed"


# what migrations after the recount add that running them again would refuse (the seen_updates
# claims' holder and lease, a chat's close notice, the review log and the FSRS cards, which are made
# from boxed ones, the assignments, an answer's response and whether it is scored, Discord's
# interactions taken, a hosted run's columns and who may host, plain text, a run's time factor); the others
# interactions taken, a hosted run's columns and who may host, the scoring rules of chats and
# runs); the others
# (revoked links, run stops) are written to run twice
LATER_UNDONE = [
    "ALTER TABLE seen_updates DROP COLUMN holder",
    "ALTER TABLE seen_updates DROP COLUMN until",
    "ALTER TABLE chats DROP COLUMN close_notice",
    "DROP TABLE review_log",
    "ALTER TABLE review_cards ADD COLUMN box INTEGER NOT NULL DEFAULT 1",
    "DROP TABLE assignment_plays",
    "DROP TABLE assignments",
    "DROP INDEX runs_by_board_start",  # SQLite drops no column an index reads (made again: IF NOT EXISTS)
    "DROP INDEX runs_open_for_board",
    "ALTER TABLE runs DROP COLUMN board_chat",
    "ALTER TABLE answers DROP COLUMN response",
    "ALTER TABLE answers DROP COLUMN scored",
    "DROP TABLE seen_interactions",
    "ALTER TABLE runs DROP COLUMN host_key",
    "ALTER TABLE runs DROP COLUMN paused_left",
    "ALTER TABLE runs DROP COLUMN hint_at",
    "ALTER TABLE runs DROP COLUMN skipped",
    "ALTER TABLE chats DROP COLUMN host_anyone",
    "ALTER TABLE chats DROP COLUMN plain_text",
    "ALTER TABLE runs DROP COLUMN time_factor",
    "ALTER TABLE chats DROP COLUMN scoring",
    "ALTER TABLE chats DROP COLUMN streaks",
    "ALTER TABLE chats DROP COLUMN board_end",
    "ALTER TABLE runs DROP COLUMN scoring",
    "ALTER TABLE runs DROP COLUMN streaks",
    "ALTER TABLE runs DROP COLUMN board_end",
    "ALTER TABLE chats DROP COLUMN min_age",  # fair play: a chat's minimum account age, and its runs' copy
    "ALTER TABLE runs DROP COLUMN min_age",
]
# SQLite drops no column a trigger reads: the board triggers of the kinds' migration and the
# statistics triggers that count responses go first, and those they replaced come back after
# (the recount drops and makes them again)
SQLITE_BEFORE_UNDONE = (
    "DROP TRIGGER runs_summarise_answers; DROP TRIGGER answers_late_to_boards; DROP TRIGGER runs_rank_players;"
    "DROP TRIGGER runs_tally_stats; DROP TRIGGER answers_late_to_stats;"
)
SQLITE_AFTER_UNDONE = sqlite_schema.BOARD_TRIGGERS_BEFORE_KINDS + sqlite_schema.STATS_TRIGGERS_BEFORE_RESPONSES


async def _as_before_the_recount(database: str) -> None:
    """The summaries one answer counted twice in, as the old triggers left them, and the
    database put back to just before the recount (it and the migrations after it run again;
    those after it are written to)."""
    double = ["UPDATE board_totals SET points = 2 * points", "UPDATE board_days SET points = 2 * points"]
    double += LATER_UNDONE  # run with the doubling: the database as the recount finds it
    if database.startswith("postgresql://"):
        conn = await asyncpg.connect(database)
        try:
            for sql in double:
                await conn.execute(sql)
            await conn.execute("DELETE FROM schema_version WHERE version > $1", _recount(postgres_schema))
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as db:
        db.executescript(SQLITE_BEFORE_UNDONE)
        for sql in double:
            db.execute(sql)
        db.executescript(SQLITE_AFTER_UNDONE)
        db.execute(f"PRAGMA user_version = {_recount(sqlite_schema)}")


def _recount(schema: ModuleType) -> int:
    """How many migrations ran before the recount (the one that backfills boards and statistics)."""
    return next(
        i for i, sql in enumerate(schema.MIGRATIONS) if schema.BOARD_BACKFILL in sql and schema.STATS_BACKFILL in sql
    )


async def test_the_upgrade_recounts_boards_that_counted_an_answer_twice(store_factory):
    store = await store_factory.open()
    row = await stored_run(store)
    row.phase, row.index = Phase.ASKING, 0
    await store.save_run(row)
    await store.insert_answer(answer(row.id, "test:ann", NOW, 900))
    row.phase = Phase.PAUSING
    await store.save_run(row)
    await store.close()  # let go of the database before it is changed
    store_factory.opened.remove(store)
    await _as_before_the_recount(store_factory.database)
    store = await store_factory.open()
    assert await _board(store, CHAT) == {"test:ann": 900}
    assert [(s.player_key, s.points) for s in await store.leaderboard(CHAT.key, 0.0)] == [("test:ann", 900)]
