"""The SQLite side of group commit (storage/shared/group_commit.py): one batch, one transaction.

A batch goes to SQLite as one JSON parameter (`json_each`), not through `executemany`: the
sqlite3 module takes the GIL back after every row's step, and with the event loop busy on the
other thread each take can wait for the interpreter's switch interval (5 ms). Profiling showed
the loop idle a third of the time waiting for commits slowed that way; one statement per
batch takes the GIL back once. The batch runs as one function on the connection's own
thread (storage/sqlite/connection.py): one hop there and back per commit.
"""

from __future__ import annotations

import json
import sqlite3
import time

from storage.shared.group_commit import MAX_BATCH, GroupCommit
from storage.shared.outbox import apply_sqlite
from storage.sqlite.connection import SqliteThread

INSERT_ANSWER = (
    "INSERT OR IGNORE INTO answers(run_id, idx, question_id, player_key, chat_key, quiz_id, "
    "option, correct, elapsed, points, streak, answered_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
UPSERT_PLAYER = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
)
_COLUMNS = (
    "run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, elapsed, points, streak, answered_at"
)
INSERT_ANSWERS_JSON = (
    f"INSERT OR IGNORE INTO answers({_COLUMNS}) SELECT "
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(12))
    + " FROM json_each(?)"
)
_RUN_FIELDS = ("status", "phase", "idx", "asked_at", "due", "message_id", "silent")
UPDATE_RUNS_JSON = (
    "UPDATE runs SET "
    + ", ".join(f"{name} = json_extract(j.value, '$[{i}]')" for i, name in enumerate(_RUN_FIELDS))
    + ", ended_at = COALESCE(runs.ended_at, json_extract(j.value, '$[7]')) "
    "FROM json_each(?) AS j WHERE runs.id = json_extract(j.value, '$[8]')"
)
UPSERT_PLAYERS_JSON = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) SELECT "
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(4))
    + ", ? FROM json_each(?) WHERE true "  # WHERE: SQLite's rule for an upsert after a SELECT
    "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
)


class AnswerWriter(GroupCommit):
    """The single writer of answers on one connection."""

    def __init__(self, db: SqliteThread, max_batch: int = MAX_BATCH) -> None:
        super().__init__(max_batch)
        self._db = db

    async def commit(
        self, rows: list[tuple], players: list[tuple], runs: list[tuple], outbox: list[tuple]
    ) -> list[bool]:
        # the whole batch is one call into the connection's thread: one hop, one commit
        return await self._db.call(_write_batch, *_encode(rows, players, runs), outbox)


def _encode(
    rows: list[tuple], players: list[tuple], runs: list[tuple]
) -> tuple[str, str | None, str | None, list[tuple]]:
    """The batch as JSON parameters, made on the event loop's thread."""
    return (json.dumps(rows), json.dumps(players) if players else None, json.dumps(runs) if runs else None, rows)


def _write_batch(
    conn: sqlite3.Connection,
    rows_json: str,
    players_json: str | None,
    runs_json: str | None,
    rows: list[tuple],
    outbox: list[tuple],
) -> list[bool]:
    """Runs on the connection's thread: players, run states, outbox and answers in one transaction."""
    if conn.in_transaction:  # every call commits what it began; should one not, its work is not undone here
        conn.commit()
    try:
        _write_players_and_runs(conn, players_json, runs_json, outbox)
        # rowcount counts the answers that landed, not the rows the board trigger touched
        if not rows or conn.execute(INSERT_ANSWERS_JSON, (rows_json,)).rowcount == len(rows):
            conn.commit()
            return [True] * len(rows)
        # someone's answer was already there (rare: the engine checks in memory first):
        # undo, and insert row by row to tell which
        conn.rollback()
        _write_players_and_runs(conn, players_json, runs_json, outbox)
        landed = [conn.execute(INSERT_ANSWER, row).rowcount == 1 for row in rows]
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return landed


def _write_players_and_runs(
    conn: sqlite3.Connection, players_json: str | None, runs_json: str | None, outbox: list[tuple]
) -> None:
    conn.execute("BEGIN")
    if players_json is not None:
        conn.execute(UPSERT_PLAYERS_JSON, (time.time(), players_json))
    if runs_json is not None:
        conn.execute(UPDATE_RUNS_JSON, (runs_json,))
    apply_sqlite(conn, outbox)
