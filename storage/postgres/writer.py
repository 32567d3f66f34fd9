"""The PostgreSQL side of group commit (storage/shared/group_commit.py): one batch, one transaction.

Each kind of row goes in as one statement over arrays (`unnest`), one array per column: one
round trip per kind whatever the batch's size, and asyncpg encodes the arrays in binary. The
answers' insert returns the keys that landed, so duplicates are told apart without a second
try. A lost connection fails the batch it carried (those presses are told to press again;
nothing acknowledged is lost) and the pool connects afresh for the next one.
"""

from __future__ import annotations

import time

import asyncpg

from storage.shared.group_commit import MAX_BATCH, GroupCommit, split_ops
from storage.shared.outbox import apply_postgres
from storage.shared.review import CARD_COLUMNS, CARD_KEY, CARD_UPDATES, LOG_COLUMNS
from storage.shared.tables import ANSWER_COLUMNS, REPLACED_COLUMNS

__all__ = ["ANSWER_COLUMNS", "ANSWER_TYPES", "PgAnswerWriter"]

ANSWER_TYPES = (
    "bigint",
    "int",
    "text",
    "text",
    "text",
    "text",
    "int",
    "int",
    "float8",
    "int",
    "int",
    "float8",
    "text",
    "int",
)


def _arrays(types: tuple[str, ...]) -> str:
    return ", ".join(f"${n}::{kind}[]" for n, kind in enumerate(types, 1))


INSERT_ANSWERS = (
    f"INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) SELECT * FROM unnest({_arrays(ANSWER_TYPES)}) "
    "ON CONFLICT DO NOTHING RETURNING run_id, idx, player_key"
)
# toggles (select-all-that-apply): each row replaces the player's stored answer to that question
REPLACE_ANSWERS = (
    f"INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) SELECT * FROM unnest({_arrays(ANSWER_TYPES)}) "
    "ON CONFLICT (run_id, idx, player_key) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in REPLACED_COLUMNS)
)
# group_commit.run_state's columns, in order
RUN_STATE_TYPES = (
    "text",
    "text",
    "int",
    "float8",
    "float8",
    "text",
    "int",
    "float8",
    "float8",
    "float8",
    "text",
    "bigint",
)
UPDATE_RUNS = (
    "UPDATE runs SET status = j.status, phase = j.phase, idx = j.idx, asked_at = j.asked_at, due = j.due, "
    "message_id = j.message_id, silent = j.silent, ended_at = COALESCE(runs.ended_at, j.ended_at), "
    "paused_left = j.paused_left, hint_at = j.hint_at, skipped = j.skipped "
    f"FROM unnest({_arrays(RUN_STATE_TYPES)}) "
    "AS j(status, phase, idx, asked_at, due, message_id, silent, ended_at, paused_left, hint_at, skipped, id) "
    "WHERE runs.id = j.id "
    # only the run's owner writes its state (storage/postgres/leases.py): a worker that lost the run
    # and does not know it yet cannot undo what the new owner stored
    "AND (runs.owner IS NULL OR runs.owner = $13)"
)
# a close's review cards and their log rows (storage/shared/review.py's columns, in order)
CARD_TYPES = ("text", "text", "text", "float8", "text", "int", "int", "float8", "float8", "float8")
LOG_TYPES = ("text", "text", "text", "text", "float8", "int", "float8", "float8")
STORE_CARDS = (
    f"INSERT INTO review_cards({CARD_COLUMNS}) SELECT * FROM unnest({_arrays(CARD_TYPES)}) "
    f"ON CONFLICT ({CARD_KEY}) DO UPDATE SET {CARD_UPDATES}"
)
STORE_LOG = f"INSERT INTO review_log({LOG_COLUMNS}) SELECT * FROM unnest({_arrays(LOG_TYPES)})"
UPSERT_PLAYER = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (key) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at"
)
UPSERT_PLAYERS = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) "
    "SELECT j.*, $5::float8 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS j "
    "ON CONFLICT (key) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at"
)


def columns(rows: list[tuple], width: int) -> list[list]:
    """Rows to one list per column, as the array parameters want them."""
    return [list(column) for column in zip(*rows)] if rows else [[] for _ in range(width)]


class PgAnswerWriter(GroupCommit):
    """The single writer of answers, on connections from the store's pool."""

    def __init__(self, pool: asyncpg.Pool, owner: str, max_batch: int = MAX_BATCH) -> None:
        super().__init__(max_batch)
        self._pool = pool
        self._owner = owner

    async def commit(
        self,
        rows: list[tuple],
        players: list[tuple],
        runs: list[tuple],
        outbox: list[tuple],
        replaced: list[tuple] | None = None,
    ) -> list[bool]:
        fresh, first = _first_of_each_key(rows)
        async with self._pool.acquire() as conn, conn.transaction():
            if players:
                await conn.execute(UPSERT_PLAYERS, *columns(players, 4), time.time())
            if runs:
                await conn.execute(UPDATE_RUNS, *columns(runs, len(RUN_STATE_TYPES)), self._owner)
            ops = split_ops(outbox)
            await apply_postgres(conn.execute, ops.outbox, self._owner)
            if ops.cards:
                await conn.execute(STORE_CARDS, *columns(ops.cards, len(CARD_TYPES)))
            if ops.log:
                await conn.execute(STORE_LOG, *columns(ops.log, len(LOG_TYPES)))
            landed = set()
            if fresh:
                stored = await conn.fetch(INSERT_ANSWERS, *columns(fresh, len(ANSWER_COLUMNS)))
                landed = {(r["run_id"], r["idx"], r["player_key"]) for r in stored}
            if replaced:  # one row per key: ON CONFLICT DO UPDATE may touch a row once a statement
                latest = list({_key(row): row for row in replaced}.values())
                await conn.execute(REPLACE_ANSWERS, *columns(latest, len(ANSWER_COLUMNS)))
        return [first[i] and _key(row) in landed for i, row in enumerate(rows)]


def _key(row: tuple) -> tuple:
    return row[0], row[1], row[3]


def _first_of_each_key(rows: list[tuple]) -> tuple[list[tuple], list[bool]]:
    """One row per (run, question, player): a later press of the same player in the same
    batch is a duplicate before it reaches the database (ON CONFLICT needs distinct keys)."""
    seen: set[tuple] = set()
    first = []
    for row in rows:
        key = _key(row)
        first.append(key not in seen)
        seen.add(key)
    return [row for row, is_first in zip(rows, first) if is_first], first
