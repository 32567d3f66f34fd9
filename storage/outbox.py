"""The outbox's SQL for both stores: the ops of storage/group_commit.py, applied in order.

Each op is one small statement: a batch carries a few messages (a question's close, a
podium), not thousands, so a loop costs less than building arrays.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.records import MessageKind, OutboxMessage

COLUMNS = "key, run_id, chat_key, kind, payload, created_at, tries, failed, not_before"
_SQLITE = {
    "add": "INSERT OR IGNORE INTO outbox(key, run_id, chat_key, kind, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    "update": "UPDATE outbox SET tries = ?, failed = ?, not_before = ? WHERE key = ?",
    "remove": "DELETE FROM outbox WHERE key = ?",
}
_POSTGRES = {
    "add": "INSERT INTO outbox(key, run_id, chat_key, kind, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6) "
           "ON CONFLICT (key) DO NOTHING",
    "update": "UPDATE outbox SET tries = $1, failed = $2, not_before = $3 WHERE key = $4",
    "remove": "DELETE FROM outbox WHERE key = $1",
}
SELECT = f"SELECT {COLUMNS} FROM outbox ORDER BY id"


def _args(op: tuple) -> tuple:
    """The statement's parameters: an update names its key last."""
    name, key, *rest = op
    return (*rest, key) if name == "update" else (key, *rest)


def apply_sqlite(conn: Any, ops: list[tuple]) -> None:
    """On the connection's thread, inside the batch's transaction."""
    for op in ops:
        conn.execute(_SQLITE[op[0]], _args(op))


async def apply_postgres(execute: Callable[..., Awaitable[Any]], ops: list[tuple]) -> None:
    """`execute` is the transaction's connection's `execute`."""
    for op in ops:
        await execute(_POSTGRES[op[0]], *_args(op))


def message(row: tuple) -> OutboxMessage:
    key, run_id, chat_key, kind, payload, created_at, tries, failed, not_before = row
    return OutboxMessage(key, run_id, chat_key, MessageKind(kind), payload, created_at, tries, failed, not_before)
