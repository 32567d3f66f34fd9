"""The big screen's events between workers on one PostgreSQL database (bot/ports/live.py).

A run's owner inserts each event into `live_events` (the database numbers it) and notifies
channel `quizhost_live` with the chat's key in the same transaction. Every worker with viewers
of that chat reads what is new from the table and hands it to its in-memory fan-out
(storage/shared/live.py), in the ids' order, so a viewer on any worker sees every event. A
notification carries no event (it may be lost while a listener reconnects): after a reconnect
every watched chat is read again. Publishes of one worker are serialized, so its events commit
in the order of their ids; old events are pruned.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from typing import Any

import asyncpg

from bot.ports.live import BACKLOG, LiveEvent, LiveKind
from storage.postgres.wakeups import listen_on
from storage.shared.live import LiveChannels

log = logging.getLogger("quizhost.storage")

CHANNEL = "quizhost_live"
APPLICATION = "quizhost-live"  # the listener's name in pg_stat_activity
KEEP_SECONDS = 3600.0  # events older than this are pruned (a viewer reconnecting later gets a snapshot)
PRUNE_EVERY = 500  # publishes between two prunes

PUBLISH = f"""
    WITH e AS (
        INSERT INTO live_events (chat_key, run_id, kind, data, at) VALUES ($1, $2, $3, $4, $5) RETURNING id
    )
    SELECT pg_notify('{CHANNEL}', $1) FROM e
"""
SINCE = "SELECT id, chat_key, run_id, kind, data, at FROM live_events WHERE chat_key = $1 AND id > $2 ORDER BY id"
LATEST = f"""
    SELECT * FROM (
        SELECT id, chat_key, run_id, kind, data, at FROM live_events
        WHERE chat_key = $1 ORDER BY id DESC LIMIT {BACKLOG}
    ) t ORDER BY id
"""
PRUNE = "DELETE FROM live_events WHERE at < $1"


class PostgresLive:
    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._local = LiveChannels()
        self._publishing = asyncio.Lock()
        self._published = 0
        self._watched: Counter[str] = Counter()  # chat key -> this worker's viewers
        self._due: set[str] = set()  # watched chats with news to read
        self._news = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def publish(self, chat_key: str, run_id: int, kind: LiveKind, data: Mapping[str, Any], at: float) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        try:
            async with self._publishing:  # one worker's events commit in the order of their ids
                await self._pool.execute(PUBLISH, chat_key, run_id, kind.value, payload, at)
                self._published += 1
                if self._published % PRUNE_EVERY == 1:
                    await self._pool.execute(PRUNE, at - KEEP_SECONDS)
        except Exception as error:
            log.warning("live events: chat %s: one was not published (%s)", chat_key, error)

    async def follow(self, chat_key: str, after: int | None) -> AsyncIterator[LiveEvent]:
        self._start()
        self._watched[chat_key] += 1
        try:
            if self._watched[chat_key] == 1:  # nobody here read the chat's news: what is new since
                last = self._local.last_id(chat_key)
                await (self._read(chat_key, SINCE, chat_key, last) if last else self._read(chat_key, LATEST, chat_key))
            async for event in self._local.follow(chat_key, after):
                yield event
        finally:
            self._watched[chat_key] -= 1
            if not self._watched[chat_key]:
                del self._watched[chat_key]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    def _start(self) -> None:
        """Listen once a viewer is here (a worker nobody watches through reads nothing)."""
        if not self._tasks:
            self._tasks = [
                asyncio.get_running_loop().create_task(listen_on(self._url, CHANNEL, APPLICATION, self._heard)),
                asyncio.get_running_loop().create_task(self._reading()),
            ]

    def _heard(self, chat_key: str | None) -> None:
        """A notification (None: connected again, anything may have been missed)."""
        due = set(self._watched) if chat_key is None else {chat_key} & self._watched.keys()
        if due:
            self._due |= due
            self._news.set()

    async def _reading(self) -> None:
        """One reader per worker: each chat's news read in order, whatever the notifications' pace."""
        while True:
            await self._news.wait()
            self._news.clear()
            due, self._due = self._due, set()
            for chat_key in due:
                try:
                    await self._read(chat_key, SINCE, chat_key, self._local.last_id(chat_key))
                except Exception as error:
                    log.warning("live events: chat %s not read (%s)", chat_key, error)

    async def _read(self, chat_key: str, sql: str, *args: object) -> None:
        for row in await self._pool.fetch(sql, *args):
            kind = LiveKind(row["kind"])
            event = LiveEvent(row["id"], row["chat_key"], row["run_id"], kind, json.loads(row["data"]), row["at"])
            self._local.deliver(event)
