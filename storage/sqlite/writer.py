"""The SQLite side of group commit (storage/shared/group_commit.py): one batch, one transaction.

A batch goes to SQLite as JSON parameters (`json_each`), not through `executemany`: the
sqlite3 module takes the GIL back after every row's step, and with the event loop busy on the
other thread each take can wait for the interpreter's switch interval (5 ms). Profiling showed
the loop idle a third of the time waiting for commits slowed that way; one statement per
batch takes the GIL back once.

Each statement is a hop to aiosqlite's thread and back, and each hop waits for the busy event
loop to come round (storage/sqlite/connection.py): a BEGIN, the statements and a COMMIT, even
queued at once, made the acknowledgements slower than one function on the thread did.
aiosqlite's public API runs statements, not functions, so the batch is one statement: an
INSERT into a temporary view whose INSTEAD OF trigger stores the player names, the run
states, the outbox ops (in their order: storage/shared/outbox.py), the answers and the review
cards the closes deal. In
autocommit mode a statement is its own transaction, its triggers' work included, and a
failure anywhere undoes all of it: one hop, one transaction, as before. A duplicate answer
fails it whole (nothing is stored), and the batch is written again in an explicit
transaction with INSERT OR IGNORE ... RETURNING, which says which rows landed.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from typing import Any

from storage.shared.group_commit import MAX_BATCH, GroupCommit, split_ops
from storage.shared.outbox import SQLITE_OPS, apply_sqlite
from storage.shared.review import CARD_COLUMNS, CARD_KEY, CARD_UPDATES, LOG_COLUMNS
from storage.shared.tables import ANSWER_COLUMNS, REPLACED_COLUMNS
from storage.sqlite.checkpoint import CHECKPOINT
from storage.sqlite.connection import SqliteConnection

log = logging.getLogger("quizhost.storage")

# the bench's reference loads a choice quiz's answers with this (response and scored as the defaults)
INSERT_ANSWER = (
    "INSERT OR IGNORE INTO answers(run_id, idx, question_id, player_key, chat_key, quiz_id, "
    "option, correct, elapsed, points, streak, answered_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
UPSERT_PLAYER = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
)
_COLUMNS = ", ".join(ANSWER_COLUMNS)
_RUN_FIELDS = ("status", "phase", "idx", "asked_at", "due", "message_id", "silent")
# a hosted run's moving parts, after the end time in the state (group_commit.run_state), the id last
_HOSTED_FIELDS = {"paused_left": 8, "hint_at": 9, "skipped": 10}


def _upsert_players(now: str, players: str) -> str:
    return (
        "INSERT INTO players(key, platform, user_id, name, updated_at) SELECT "
        + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(4))
        + f", {now} FROM json_each({players}) WHERE true "  # WHERE: SQLite's rule for an upsert after a SELECT
        "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
    )


def _update_runs(runs: str) -> str:
    return (
        "UPDATE runs SET "
        + ", ".join(f"{name} = json_extract(j.value, '$[{i}]')" for i, name in enumerate(_RUN_FIELDS))
        + "".join(f", {name} = json_extract(j.value, '$[{i}]')" for name, i in _HOSTED_FIELDS.items())
        + ", ended_at = COALESCE(runs.ended_at, json_extract(j.value, '$[7]')) "
        f"FROM json_each({runs}) AS j WHERE runs.id = json_extract(j.value, '$[11]')"
    )


def _insert_answers(answers: str, verb: str = "INSERT") -> str:
    values = ", ".join(f"json_extract(value, '$[{i}]')" for i in range(len(ANSWER_COLUMNS)))
    return f"{verb} INTO answers({_COLUMNS}) SELECT {values} FROM json_each({answers})"


def _shared_rows(misses: str, part: int, width: int) -> str:
    """SELECT, for every player key of every "misses" op (storage/shared/group_commit.py), the
    key and then the op's shared values at `part` (0: the card's, 1: the log row's).

    The shared values are read out of the op once, in a subquery, not once for every player:
    each json_extract reads the op's whole JSON (its players' keys too), and a close's 38
    missed cards took 0.8 ms that way against 0.15 ms this way. LIMIT -1 keeps SQLite from
    flattening the subquery into the join, which would read them per player again."""
    shared = ", ".join(f"json_extract(g.value, '$[{part}][{i}]') AS v{i}" for i in range(width - 1))
    values = ", ".join(f"s.v{i}" for i in range(width - 1))
    return (
        f"SELECT p.value, {values} FROM (SELECT {shared}, json_extract(g.value, '$[2]') AS players "
        f"FROM json_each({misses}) AS g LIMIT -1) AS s, json_each(s.players) AS p WHERE true"
    )  # WHERE: SQLite's rule for an upsert after a SELECT


def _store_missed_cards(misses: str) -> str:
    return (
        f"INSERT INTO review_cards({CARD_COLUMNS}) {_shared_rows(misses, 0, len(CARD_COLUMNS.split(',')))} "
        f"ON CONFLICT ({CARD_KEY}) DO UPDATE SET {CARD_UPDATES}"
    )


def _replace_answers(answers: str) -> str:
    """Toggles: each row replaces the player's stored answer to that question (json_each's
    order: the later of two wins)."""
    changed = ", ".join(f"{c} = excluded.{c}" for c in REPLACED_COLUMNS)
    return f"{_insert_answers(answers)} WHERE true ON CONFLICT(run_id, idx, player_key) DO UPDATE SET {changed}"


# the batch's one statement: INSERT INTO temp.answer_batch (made on the writer's connection at
# each start; a TEMP trigger may write the main database's tables). A duplicate answer fails it whole.
BATCH_OBJECTS = f"""
    {SQLITE_OPS}
    CREATE TEMP VIEW answer_batch(now, players, runs, outbox, answers, replaced, misses)
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL;
    CREATE TEMP TRIGGER answer_batch_write INSTEAD OF INSERT ON answer_batch BEGIN
        {_upsert_players("new.now", "new.players")};
        {_update_runs("new.runs")};
        {apply_sqlite("new.outbox")};
        {_insert_answers("new.answers")};
        {_replace_answers("new.replaced")};
        {_store_missed_cards("new.misses")};
        INSERT INTO review_log({LOG_COLUMNS}) {_shared_rows("new.misses", 1, len(LOG_COLUMNS.split(",")))};
    END;
"""
WRITE_BATCH = (
    "INSERT INTO temp.answer_batch(now, players, runs, outbox, answers, replaced, misses) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# the rows that landed, in the order given (json_each's): the first of two equal keys wins
INSERT_NEW_ANSWERS_JSON = _insert_answers("?", "INSERT OR IGNORE") + " RETURNING run_id, idx, player_key"


class AnswerWriter(GroupCommit):
    """The single writer of answers on one connection."""

    def __init__(self, db: SqliteConnection, max_batch: int = MAX_BATCH) -> None:
        super().__init__(max_batch)
        self._db = db

    async def prepare(self) -> None:
        """Make the batch's views and triggers on this connection (once the schema is migrated)."""
        await self._db.executescript(BATCH_OBJECTS)

    def checkpoint_between_batches(self) -> None:
        """Checkpoint on this connection once the batch in flight is done, so that the next batch
        starts the WAL over (storage/sqlite/checkpoint.py)."""
        self.between_batches = self._checkpoint

    async def _checkpoint(self) -> None:
        try:
            await self._db.fetchall(CHECKPOINT)
        except sqlite3.Error:
            log.exception("WAL checkpoint between batches failed")

    async def commit(
        self,
        rows: list[tuple],
        players: list[tuple],
        runs: list[tuple],
        outbox: list[tuple],
        replaced: list[tuple] | None = None,
    ) -> list[bool]:
        # the JSON is made on the event loop's thread
        ops = split_ops(outbox, shared=True)
        batch = (time.time(), _json(players), _json(runs), _json(ops.outbox))
        misses = _json(ops.misses)
        rows_json, replaced_json = json.dumps(rows), _json(replaced or [])
        try:
            await self._db.write(WRITE_BATCH, (*batch, rows_json, replaced_json, misses))
            return [True] * len(rows)
        except sqlite3.IntegrityError as error:
            if not _duplicate_answer(error):
                raise
        # nothing was stored: the batch again, in a transaction that tells which answers are new
        async with self._db.transaction((WRITE_BATCH, (*batch, None, replaced_json, misses))) as (conn, [written]):
            if isinstance(written, BaseException):
                raise written
            return _landed(rows, list(await conn.execute_fetchall(INSERT_NEW_ANSWERS_JSON, (rows_json,))))


def _json(values: list[tuple]) -> str | None:
    return json.dumps(values) if values else None  # json_each(NULL) has no rows


def _duplicate_answer(error: sqlite3.IntegrityError) -> bool:
    # someone's answer was already there (rare: the engine checks in memory first); the
    # answers' primary key is the only one a batch can break (the others are upserts or
    # INSERT OR IGNORE)
    return error.sqlite_errorname == "SQLITE_CONSTRAINT_PRIMARYKEY"


def _landed(rows: list[tuple], returned: list[Any]) -> list[bool]:
    """Per row, whether it landed: its key came back, and no earlier row of the batch had it."""
    new = {tuple(key) for key in returned}
    landed = []
    for row in rows:
        key = (row[0], row[1], row[3])  # run_id, idx, player_key
        landed.append(key in new)
        new.discard(key)
    return landed
