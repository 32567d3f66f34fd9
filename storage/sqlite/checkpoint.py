"""WAL checkpoints on their own connection (and so aiosqlite's thread of their own), off the
answer writer's path.

SQLite's automatic checkpoint runs inside the commit that fills the WAL (1,000 pages by
default): that commit copies the WAL into the database and syncs it, and every press waiting
on it waits too. Under load that happened every few dozen commits and made the slowest
acknowledgements slow. Here the store turns the automatic checkpoint off and this task runs
a PASSIVE checkpoint (it never blocks the writer or readers) every `every` seconds when
something was written since the last one. Often and small is better than rare and large:
a checkpoint still slows the commits it overlaps (its syncs write out the WAL written since the
last one, and the writer's writes wait on the disk meanwhile). At 5,000 presses a second 0.1 s
kept that under the 10 ms acknowledgement target where 0.25 s and 1 s did not; at 9,200
(`quizhost bench`'s 30% of flat out), 0.025 s gave an ack p99 of 7.0 to 8.3 ms where 0.05 s
gave 7.5 to 9.2 and 0.1 s 8.0 to 10.5, the same p50 (docs/PERFORMANCE.md).

A checkpoint beside a writer that never pauses never lets the WAL start over. SQLite writes
the WAL from its beginning again only when a transaction begins after a checkpoint copied
every frame, and the frames the writer adds while a checkpoint runs are left for the next
one. From about 1,000 presses a second that is every transaction, so the WAL grew without
end: 170 MB in 9 s at 1,000 presses a second, 1.2 GB at 9,000 (`quizhost bench`'s offered
rate). So when the WAL has grown past `restart_frames`, the answer writer is asked for a
checkpoint of its own, on its connection between two batches (storage/sqlite/writer.py):
nothing is written while it runs, so it copies the last frames and the next batch starts the
WAL over. The presses queued behind that gap wait for its two syncs: 5 to 30 ms, longer as the
WAL and the database grow. So the bound is large: 1 GiB, which a bot answering 9,000 presses a
second fills every 7 s and one answering 1,000 every minute. With 256 MiB (every 1.7 s at 9,000)
the ack p99 over 30 s was 13 to 18 ms; with 1 GiB, 7.9 to 9.6.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from storage.sqlite.connection import SqliteConnection

log = logging.getLogger("quizhost.storage")

EVERY_SECONDS = 0.025
CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)"  # never waits for the writer or readers
RESTART_FRAMES = 262_144  # a WAL of 1 GiB (4 KiB pages) is started over (see above)


class Checkpointer:
    def __init__(
        self,
        path: str | Path,
        writes: Callable[[], int],
        restart: Callable[[], None],
        every: float = EVERY_SECONDS,
        restart_frames: int = RESTART_FRAMES,
    ) -> None:
        self._path = str(path)
        self._writes = writes  # a count that moves when something is written: idle bots sleep
        self._restart = restart  # asks the writer for a checkpoint between two of its batches
        self._checked = -1
        self._every = every
        self.restart_frames = restart_frames
        self._db: SqliteConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self.runs = 0

    async def start(self) -> None:
        self._db = await SqliteConnection.open(self._path, "busy_timeout=5000")
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def checkpoint(self) -> None:
        if self._db is not None:
            [(_, frames, _)] = await self._db.fetchall(CHECKPOINT)
            self.runs += 1
            if frames >= self.restart_frames:  # frames in the WAL since it last started over
                self._restart()

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
