"""A worker's presence on the database: a connection of its own holding advisory locks, which
PostgreSQL lets go when the worker's process dies (its socket closes) or stops.

Two locks: one keyed by the connection's backend pid, which says the worker lives (its claims
of updates name that pid: storage/shared/updates.py takes a dead holder's claim again at once);
and, for `quizhost run`, one keyed by its name (QUIZHOST_WORKER), so that two live workers never
share a name and so never run each other's quizzes. A worker restarted under its name gets
the lock back as soon as the old process is gone. TCP keepalives on this connection let
PostgreSQL notice a machine that vanished (no FIN sent) in about 25 s rather than hours.
"""

from __future__ import annotations

import hashlib
import logging

import asyncpg

LIVE_LOCK = 0x71756C76  # advisory lock class: (this, backend pid) is held while its worker lives
NAME_LOCK = 0x7175776E  # advisory lock class: (this, hash of the name) is held by the worker of that name
log = logging.getLogger("quizhost.storage")

KEEPALIVES = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}

# SQL true while the worker whose presence backend is `{holder}` lives (on any database of the server)
ALIVE = (
    "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = "
    f"{LIVE_LOCK} AND l.objid::bigint = {{holder}} AND l.objsubid = 2 AND l.granted)"
)


def name_key(name: str) -> int:
    """The name's advisory lock key: 31 bits of its SHA-256 (two names sharing one is 1 in 2^31)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") & 0x7FFFFFFF


class Presence:
    """The presence connection, made at first use and made again if the database dropped it."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: asyncpg.Connection | None = None
        self._pid = 0
        self._name: str | None = None  # the name held, to take again on a new connection

    async def holder(self) -> int:
        """This worker's backend pid as claims name it; connects (again) when needed."""
        if self._conn is None or self._conn.is_closed():
            conn = await asyncpg.connect(self._url, server_settings=KEEPALIVES)
            try:
                self._pid = await conn.fetchval("SELECT pg_backend_pid()")
                await conn.execute("SELECT pg_advisory_lock($1, $2)", LIVE_LOCK, self._pid)
            except BaseException:
                await conn.close()
                raise
            self._conn = conn
            if self._name is not None and not await self._try_name(name := self._name):
                log.error("the database dropped this worker's connection, and another worker took its name %r", name)
        return self._pid

    async def hold_name(self, name: str) -> bool:
        """Hold `name` as long as this worker lives: False when a live worker holds it."""
        await self.holder()
        if self._name == name:
            return True
        return await self._try_name(name)

    async def _try_name(self, name: str) -> bool:
        assert self._conn is not None
        held = bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", NAME_LOCK, name_key(name)))
        self._name = name if held else None
        return held

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()  # the locks go with the session
            self._conn = None
