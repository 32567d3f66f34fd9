"""WAL checkpoints on their own connection (and so aiosqlite's thread of their own), off the
answer writer's path.

SQLite's automatic checkpoint runs inside the commit that fills the WAL (1,000 pages by
default): that commit copies the WAL into the database and syncs it, and every press waiting
on it waits too. Under load that happened every few dozen commits and made the slowest
acknowledgements slow. Here the store turns the automatic checkpoint off and this task runs
a PASSIVE checkpoint (it never blocks the writer or readers) every `every` seconds when
something was written since the last one. Often and small is better than rare and large:
a checkpoint still slows the commits it overlaps (its writes and syncs share the disk), and
at 5,000 presses a second 0.1 s kept that under the 10 ms acknowledgement target where
0.25 s and 1 s did not (measured with `quizhost bench`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from storage.sqlite.connection import SqliteConnection

log = logging.getLogger("quizhost.storage")

EVERY_SECONDS = 0.1


class Checkpointer:
    def __init__(self, path: str | Path, writes: Callable[[], int], every: float = EVERY_SECONDS) -> None:
        self._path = str(path)
        self._writes = writes  # a count that moves when something is written: idle bots sleep
        self._checked = -1
        self._every = every
        self._db: SqliteConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self.runs = 0

    async def start(self) -> None:
        self._db = await SqliteConnection.open(self._path, "busy_timeout=5000")
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def checkpoint(self) -> None:
        if self._db is not None:
            await self._db.fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            self.runs += 1

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            if self._writes() == self._checked:
                continue
            self._checked = self._writes()
            try:
                await self.checkpoint()
            except Exception:
                log.exception("WAL checkpoint failed")
