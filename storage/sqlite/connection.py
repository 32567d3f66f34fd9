"""One sqlite3 connection on its own thread, driven from the event loop.

sqlite3 blocks, so every statement runs on a thread that owns the connection; the event loop
hands it whole functions (`call`) and awaits their results. A function is one hop to the
thread and back, however many statements it runs: the answer writer commits a whole batch
in one call (storage/sqlite/writer.py) and a statement with its commit cannot be split by another
caller's work. aiosqlite offers the same only through its private `Connection._execute`;
owning the thread keeps that with nothing but the standard library.

Calls run one at a time in the order they were made. A call whose caller was cancelled
still runs (its statements may already be on disk); only its result is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
Params = tuple[Any, ...] | dict[str, Any]

_Work = tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class SqliteThread:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._queue: SimpleQueue[_Work | asyncio.Future[None]] = SimpleQueue()  # a future alone: close
        self._closed: asyncio.Future[None] | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    async def open(cls, path: str | Path, *pragmas: str) -> SqliteThread:
        """Connect on a new thread and run `PRAGMA <each>`; raises what sqlite3.connect raises."""
        connection = cls(path)
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        connection._thread = threading.Thread(
            target=connection._serve, args=(ready, pragmas), name=f"sqlite:{Path(path).name}", daemon=True
        )
        connection._thread.start()
        await ready
        return connection

    async def call(self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn(connection, *args, **kwargs)` on the connection's thread and return its result."""
        if self._closed is not None:
            raise sqlite3.ProgrammingError("the connection is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put((future, fn, args, kwargs))
        return await future

    async def fetchall(self, sql: str, args: Params = ()) -> list[tuple[Any, ...]]:
        return await self.call(_fetchall, sql, args)

    async def fetchone(self, sql: str, args: Params = ()) -> tuple[Any, ...] | None:
        return await self.call(_fetchone, sql, args)

    async def execute(self, sql: str, args: Params = ()) -> None:
        """One statement, outside any transaction (a PRAGMA, a checkpoint)."""
        await self.call(_execute, sql, args)

    async def executescript(self, script: str) -> None:
        await self.call(_executescript, script)

    async def close(self) -> None:
        """Close the connection once every call made before has run; the thread then ends."""
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
            self._queue.put(self._closed)
        await asyncio.shield(self._closed)

    def _serve(self, ready: asyncio.Future[None], pragmas: tuple[str, ...]) -> None:
        try:
            conn = _connect(self.path, pragmas)
        except BaseException as error:  # handed to the caller on the loop
            _hand_over(ready, None, error)
            return
        _hand_over(ready, None, None)
        while not isinstance(work := self._queue.get(), asyncio.Future):
            future, fn, args, kwargs = work
            try:
                result = fn(conn, *args, **kwargs)
            except BaseException as error:  # handed to the caller on the loop
                _hand_over(future, None, error)
            else:
                _hand_over(future, result, None)
        conn.close()
        _hand_over(work, None, None)


def _hand_over(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    with contextlib.suppress(RuntimeError):  # the caller's loop is closed: nobody is waiting any more
        future.get_loop().call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _connect(path: str, pragmas: tuple[str, ...]) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    try:
        for pragma in pragmas:
            conn.execute(f"PRAGMA {pragma}")
    except BaseException:
        conn.close()
        raise
    return conn


def _fetchall(conn: sqlite3.Connection, sql: str, args: Any) -> list[tuple[Any, ...]]:
    return conn.execute(sql, args).fetchall()


def _fetchone(conn: sqlite3.Connection, sql: str, args: Any) -> tuple[Any, ...] | None:
    row: tuple[Any, ...] | None = conn.execute(sql, args).fetchone()
    return row


def _execute(conn: sqlite3.Connection, sql: str, args: Any) -> None:
    conn.execute(sql, args)


def _executescript(conn: sqlite3.Connection, script: str) -> None:
    conn.executescript(script)
