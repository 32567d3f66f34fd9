"""The big screen's events between workers on one PostgreSQL database (bot/ports/live.py).

A run's owner inserts each event into `live_events` (the database numbers it) and notifies
channel `quizhost_live` with the chat's key in the same transaction. Every worker with viewers
of that chat reads what is new from the table and hands it to its in-memory fan-out
(storage/shared/live.py), in the ids' order, so a viewer on any worker sees every event. A
notification carries no event (it may be lost while a listener reconnects): after a reconnect
every watched chat is read again. Publishes of one worker are serialized, so its events commit
in the order of their ids; old events are pruned.

Only chats watched somewhere are published. A worker with viewers of a chat says so on the same
channel (a payload of WATCH and the chat's key) at its first viewer and every HEARTBEAT_SECONDS
while it has any; every worker keeps the chats it heard of until EXPIRE_SECONDS pass without a
word (the grace after the last viewer left), and a worker whose listener (re)connects asks the
others to say it again (ROLL_CALL). A notification rather than a table: nothing to clean up
after a worker killed, and an owner learns of a new viewer at once, to publish its run's state
again. Publishes go through one queue per worker (the run's step does not wait on the database,
nor on other runs' events), which keeps their order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Coroutine, Mapping
from typing import Any

import asyncpg

from bot.ports.live import BACKLOG, GRACE_SECONDS, LiveEvent, LiveKind, Shown
from storage.postgres.wakeups import listen_on
from storage.shared.live import LiveChannels

log = logging.getLogger("quizhost.storage")

CHANNEL = "quizhost_live"
APPLICATION = "quizhost-live"  # the listener's name in pg_stat_activity
KEEP_SECONDS = 3600.0  # events older than this are pruned (a viewer reconnecting later gets a snapshot)
PRUNE_EVERY = 500  # publishes between two prunes
WATCH = "+"  # a notification's payload: this chat is watched (a chat's key begins with its platform)
ROLL_CALL = "?"  # a notification's payload: every worker with viewers, say which chats again
HEARTBEAT_SECONDS = 20.0
EXPIRE_SECONDS = GRACE_SECONDS  # a chat nobody said they watch for this long is not watched
CONNECTED_SECONDS = 5.0  # a first viewer waits this long at most for the listener before reading
FLUSH_SECONDS = 5.0  # events still queued at close are written within this, or dropped
MAX_QUEUED = 10_000  # events waiting to be written (the database slow or away); more are dropped

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
SAY = f"SELECT pg_notify('{CHANNEL}', p) FROM unnest($1::text[]) AS p"

Queued = tuple[str, int, LiveKind, str, float]


class PostgresLive:
    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._local = LiveChannels()
        self._published = 0
        self._queue: asyncio.Queue[Queued] = asyncio.Queue(MAX_QUEUED)
        self._viewers: Counter[str] = Counter()  # chat key -> this worker's viewers
        self._elsewhere: dict[str, float] = {}  # chat key -> when its watching, as heard, expires
        self._shown: list[Shown] = []
        self._due: set[str] = set()  # watched chats with news to read
        self._news = asyncio.Event()
        self._connected = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._publisher: asyncio.Task[None] | None = None
        self._showing: set[asyncio.Task[None]] = set()
        self._closed = False

    async def publish(self, chat_key: str, run_id: int, kind: LiveKind, data: Mapping[str, Any], at: float) -> None:
        if self._closed or not self.watched(chat_key):
            return
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        try:
            self._queue.put_nowait((chat_key, run_id, kind, payload, at))
        except asyncio.QueueFull:
            log.warning("live events: chat %s: one dropped, %d waiting to be written", chat_key, MAX_QUEUED)
            return
        if self._publisher is None:
            self._publisher = asyncio.get_running_loop().create_task(self._publishing())

    def watched(self, chat_key: str) -> bool:
        self._start()
        if chat_key in self._viewers:
            return True
        expires = self._elsewhere.get(chat_key)
        if expires is None:
            return False
        if expires >= time.monotonic():
            return True
        del self._elsewhere[chat_key]
        return False

    def watching(self, shown: Shown) -> None:
        self._shown.append(shown)
        with contextlib.suppress(RuntimeError):  # no loop yet: the first publish or viewer starts it
            asyncio.get_running_loop()
            self._start()

    async def follow(self, chat_key: str, after: int | None) -> AsyncIterator[LiveEvent]:
        self._start()
        fresh = not self.watched(chat_key)
        self._viewers[chat_key] += 1
        try:
            if self._viewers[chat_key] == 1:  # nobody here read the chat's news: what is new since
                with contextlib.suppress(TimeoutError):  # events from now on are heard
                    await asyncio.wait_for(self._connected.wait(), CONNECTED_SECONDS)
                await self._say([WATCH + chat_key])
                if fresh:
                    await self._show(chat_key)
                last = self._local.last_id(chat_key)
                await (self._read(chat_key, SINCE, chat_key, last) if last else self._read(chat_key, LATEST, chat_key))
            async for event in self._local.follow(chat_key, after):
                yield event
        finally:
            self._viewers[chat_key] -= 1
            if not self._viewers[chat_key]:
                del self._viewers[chat_key]
                self._elsewhere[chat_key] = time.monotonic() + EXPIRE_SECONDS  # the grace, here too

    async def close(self) -> None:
        self._closed = True
        if self._publisher is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), FLUSH_SECONDS)
            self._tasks.append(self._publisher)
            self._publisher = None
        self._tasks.extend(self._showing)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    def _start(self) -> None:
        """Listen from the first viewer or run here on: news of watched chats, and who watches."""
        if not self._tasks and not self._closed:
            loop = asyncio.get_running_loop()
            self._tasks = [
                loop.create_task(listen_on(self._url, CHANNEL, APPLICATION, self._heard)),
                loop.create_task(self._reading()),
                loop.create_task(self._heartbeat()),
            ]

    async def _publishing(self) -> None:
        """One writer per worker: its events commit in the order of their ids, each chat's in the
        order they were published."""
        while True:
            chat_key, run_id, kind, payload, at = await self._queue.get()
            try:
                await self._pool.execute(PUBLISH, chat_key, run_id, kind.value, payload, at)
                self._published += 1
                if self._published % PRUNE_EVERY == 1:
                    await self._pool.execute(PRUNE, at - KEEP_SECONDS)
            except Exception as error:
                log.warning("live events: chat %s: one was not published (%s)", chat_key, error)
            finally:
                self._queue.task_done()

    def _heard(self, payload: str | None) -> None:
        """A notification: a chat's news, a chat watched, a roll call (None: connected again,
        anything may have been missed)."""
        if payload is None:
            self._connected.set()
            self._soon(self._say([ROLL_CALL]))
            due = set(self._viewers)
        elif payload == ROLL_CALL:
            if self._viewers:
                self._soon(self._say([WATCH + key for key in self._viewers]))
            return
        elif payload.startswith(WATCH):
            self._watched_elsewhere(payload.removeprefix(WATCH))
            return
        else:
            due = {payload} & self._viewers.keys()
        if due:
            self._due |= due
            self._news.set()

    def _watched_elsewhere(self, chat_key: str) -> None:
        fresh = not self.watched(chat_key)
        self._elsewhere[chat_key] = time.monotonic() + EXPIRE_SECONDS
        if fresh:
            self._soon(self._show(chat_key))

    async def _show(self, chat_key: str) -> None:
        """The chat became watched: the engine here publishes its open run's state (if it owns it)."""
        for shown in self._shown:
            try:
                await shown(chat_key)
            except Exception:
                log.exception("live events: chat %s: its state was not published again", chat_key)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._showing.add(task)
        task.add_done_callback(self._showing.discard)

    async def _say(self, payloads: list[str]) -> None:
        try:
            await self._pool.execute(SAY, payloads)
        except Exception as error:
            log.warning("live events: watching not said (%s)", error)

    async def _heartbeat(self) -> None:
        """Every few seconds while this worker has viewers: which chats they watch (and what is
        no longer watched, forgotten)."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if self._viewers:
                await self._say([WATCH + key for key in self._viewers])
            for chat_key in list(self._elsewhere):  # forget the chats nobody watches any more
                self.watched(chat_key)
            self._local.sweep()

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
