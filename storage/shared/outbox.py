"""The outbox's SQL for both stores: the ops of storage/shared/group_commit.py, applied in order.

Each op is one small statement (on SQLite, one run of a trigger): a batch carries a few
messages (a question's close, a podium), not thousands, so a loop costs less than building
arrays. On PostgreSQL a message is held by the worker that made it (its run's owner), as long
as its run's lease and then as that worker renews it; a dead worker's are claimed by a live
one (storage/postgres/leases.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.domain.records import MessageKind, OutboxMessage

COLUMNS = "key, run_id, chat_key, kind, payload, created_at, tries, failed, not_before"


def _op(i: int) -> str:
    return f"json_extract(new.op, '$[{i}]')"


# SQLite applies the ops as rows inserted into a temporary view: its trigger runs once per op,
# in their order (storage/sqlite/writer.py inserts them from its batch's own trigger)
SQLITE_OPS = f"""
    CREATE TEMP VIEW outbox_ops(op) AS SELECT NULL;
    CREATE TEMP TRIGGER outbox_ops_apply INSTEAD OF INSERT ON outbox_ops BEGIN
        INSERT OR IGNORE INTO outbox(key, run_id, chat_key, kind, payload, created_at)
            SELECT {", ".join(_op(i) for i in range(1, 7))} WHERE {_op(0)} = 'add';
        UPDATE outbox SET tries = {_op(2)}, failed = {_op(3)}, not_before = {_op(4)}
            WHERE {_op(0)} = 'update' AND key = {_op(1)};
        DELETE FROM outbox WHERE {_op(0)} = 'remove' AND key = {_op(1)};
    END;
"""


def apply_sqlite(ops: str) -> str:
    """The statement that applies the ops of the JSON array `ops` (an SQL expression), in order."""
    return f"INSERT INTO outbox_ops(op) SELECT value FROM json_each({ops})"  # temp: unqualified in a trigger


_POSTGRES = {
    # as the run's state (storage/postgres/writer.py), only by its owner: a worker that lost the run
    # and does not know it yet adds nothing that nobody would send
    "add": "INSERT INTO outbox(key, run_id, chat_key, kind, payload, created_at, owner, lease_until) "
    "SELECT $1::text, $2::bigint, $3::text, $4::text, $5::text, $6::float8, $7::text, r.lease_until FROM runs r "
    "WHERE r.id = $2 AND (r.owner IS NULL OR r.owner = $7) ON CONFLICT (key) DO NOTHING",
    "update": "UPDATE outbox SET tries = $1, failed = $2, not_before = $3 WHERE key = $4",
    "remove": "DELETE FROM outbox WHERE key = $1",
}
SELECT = f"SELECT {COLUMNS} FROM outbox ORDER BY id"


def _args(op: tuple) -> tuple:
    """The statement's parameters: an update names its key last."""
    name, key, *rest = op
    return (*rest, key) if name == "update" else (key, *rest)


async def apply_postgres(execute: Callable[..., Awaitable[Any]], ops: list[tuple], owner: str) -> None:
    """`execute` is the transaction's connection's `execute`; `owner` the worker that holds
    the messages it adds."""
    for op in ops:
        await execute(_POSTGRES[op[0]], *_args(op), *((owner,) if op[0] == "add" else ()))


def message(row: tuple) -> OutboxMessage:
    key, run_id, chat_key, kind, payload, created_at, tries, failed, not_before = row
    return OutboxMessage(key, run_id, chat_key, MessageKind(kind), payload, created_at, tries, failed, not_before)
