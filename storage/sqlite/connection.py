"""One aiosqlite connection, in autocommit mode, with a lock that keeps a transaction whole.

aiosqlite runs sqlite3 on a thread of its own and hands each call there and back (a hop).
Its public API runs one statement per call (`execute`, `execute_fetchall`, `commit`...),
never a function of ours: a transaction of several statements is several calls, and another
caller's statement could land between them. (The store once ran whole batches as one
function on aiosqlite's thread through its private `_execute`, then on a thread of its own;
with the public API only, this module does what that did.) Hence:

- The connection is in autocommit mode (`isolation_level=None`): a lone statement is its own
  transaction and costs one hop, commit included: most writes, and the answer writer's
  batch, one statement whose trigger writes it all (storage/sqlite/writer.py).
- `transaction()` queues BEGIN and its first statements at once, without awaiting each:
  aiosqlite runs calls in the order they were queued, so they cost one hop together, and the
  COMMIT a second one. It cannot be one: a COMMIT queued behind them would also commit what
  came before a failed statement, and the public API has no way to make it depend on them.
- `transaction()` holds a lock from its BEGIN to its COMMIT, and every other use of the
  connection waits while it is held: nothing else runs inside a transaction, and no read sees
  another caller's uncommitted rows. Outside transactions (nearly always) a statement is
  queued at once, behind whatever is queued already, as it was on a thread of the store's
  own: locking each statement too cost a loop turn whenever a read met the writer, and
  showed in the acknowledgements' tail. A rollback queued by a cancelled caller still runs
  before the next caller's statements.

A statement whose caller was cancelled once it was queued still runs (aiosqlite cannot take
it back); a transaction whose caller was cancelled is rolled back. aiosqlite's thread is not
a daemon (its public API has no say in that), so every connection must be closed, or the
process cannot exit: the store closes them in `finally` blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

Params = tuple[Any, ...] | dict[str, Any]
Statement = tuple[str, Params]
Outcome = aiosqlite.Cursor | BaseException  # a statement's cursor, or what it raised


@dataclass(frozen=True, slots=True)
class Written:
    rowid: int | None  # of the row an INSERT made
    rows: int  # rows the statement changed


class SqliteConnection:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._conn = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *pragmas: str) -> SqliteConnection:
        """Connect and run `PRAGMA <each>`; raises what sqlite3.connect raises, and closes the
        connection first when a pragma fails (its thread would keep the process alive)."""
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            for pragma in pragmas:
                await connection.execute_fetchall(f"PRAGMA {pragma}")
        except BaseException:
            await connection.close()
            raise
        return cls(connection)

    async def fetchall(self, sql: str, args: Params = ()) -> list[tuple[Any, ...]]:
        """Every row, fetched in the statement's hop: no read stays open between hops."""
        await self._no_transaction()
        return list(await self._conn.execute_fetchall(sql, args))  # type: ignore[arg-type]

    async def fetchone(self, sql: str, args: Params = ()) -> tuple[Any, ...] | None:
        rows = await self.fetchall(sql, args)
        return rows[0] if rows else None

    async def write(self, sql: str, args: Params = ()) -> Written:
        """One statement, committed by itself (autocommit) in one hop."""
        await self._no_transaction()
        cursor = await self._conn.execute(sql, args)
        return Written(cursor.lastrowid, cursor.rowcount)

    async def executescript(self, script: str) -> None:
        await self._no_transaction()
        await self._conn.executescript(script)

    @contextlib.asynccontextmanager
    async def transaction(self, *first: Statement) -> AsyncIterator[tuple[aiosqlite.Connection, list[Outcome]]]:
        """BEGIN and the `first` statements queued at once (one hop for them all), then the
        connection, for this caller alone, with each statement's cursor or error: a failed
        statement does not stop the ones after it. Committed at the end, rolled back on any
        error (a failed BEGIN included)."""
        async with self._lock:
            try:
                begin, *outcomes = await _pipeline(self._conn, [("BEGIN", ()), *first])
                if isinstance(begin, BaseException):
                    raise begin
                yield self._conn, outcomes
                await self._conn.commit()
            except BaseException:
                await self._conn.rollback()  # a no-op when SQLite already rolled back (a full disk)
                raise

    async def _no_transaction(self) -> None:
        """Return once no transaction holds the connection. The caller's statement is queued
        before anything else runs (no await in between): before the next BEGIN, never inside."""
        if self._lock.locked():
            async with self._lock:
                pass

    async def close(self) -> None:
        """Close once every call made before has run; aiosqlite's thread then ends."""
        async with self._lock:
            await self._conn.close()


async def _pipeline(conn: aiosqlite.Connection, statements: Sequence[Statement]) -> list[Outcome]:
    """Run the statements in order, queued all at once: one hop there and back for them all,
    where awaiting each in turn costs a hop each. The tasks start in the order they were made
    (the loop runs callbacks first in, first out), each queues its statement as it starts, and
    aiosqlite runs them in the order queued."""
    tasks = [asyncio.ensure_future(conn.execute(sql, args)) for sql, args in statements]
    return await asyncio.gather(*tasks, return_exceptions=True)
