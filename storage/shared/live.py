"""Live events in this process's memory (bot/ports/live.py): a bounded backlog per watched chat
that every viewer reads from, and one wake-up per event, however many viewers wait.

A viewer costs a position in its chat's backlog and a waiter on one `asyncio.Event`, not a
queue of its own: 300 viewers of one screen share each event object. A chat nobody watches has
no backlog at all (its events are not kept, nor made: `watched`); one whose last viewer left is
kept for the grace, so a reconnect resumes where it stopped. It is the whole bus with one
process (SQLite), and each worker's local fan-out with several (storage/postgres/live.py feeds
it from the table, in the ids the database gave).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from bot.ports.live import BACKLOG, GRACE_SECONDS, LiveEvent, LiveKind, Shown

log = logging.getLogger("quizhost.storage")

MAX_CHATS = 2000  # chats whose backlog is kept after their viewers left; the one left longest goes first


class _Channel:
    __slots__ = ("arrived", "events", "left_at", "viewers")

    def __init__(self, backlog: int, now: float) -> None:
        self.events: deque[LiveEvent] = deque(maxlen=backlog)
        self.arrived = asyncio.Event()
        self.viewers = 0
        self.left_at = now  # when its last viewer left (or it was made): the grace runs from here

    @property
    def last_id(self) -> int:
        return self.events[-1].id if self.events else 0

    def after(self, last: int) -> list[LiveEvent]:
        if not self.events or self.events[-1].id <= last:
            return []
        return [e for e in self.events if e.id > last]

    def snapshot_start(self) -> int:
        """The id before the latest question's event: its events rebuild the screen as it is now."""
        for event in reversed(self.events):
            if event.kind is LiveKind.QUESTION:
                return event.id - 1
        return self.events[0].id - 1 if self.events else 0


def first_id() -> int:
    """This process's first event id: the microseconds of the wall clock now, so that the ids
    of a process started after another are above the other's (a count from 1 would restart
    under them, and a browser that reconnects with the Last-Event-ID of the process before a
    restart would be sent nothing until the count caught up). A process would need to publish
    more than one event a microsecond, all along, to overtake the one started after it."""
    return time.time_ns() // 1000


class LiveChannels:
    """The in-memory bus: publish numbers each event; `deliver` takes one numbered elsewhere."""

    def __init__(
        self,
        backlog: int = BACKLOG,
        max_chats: int = MAX_CHATS,
        now: Callable[[], float] = time.monotonic,
        grace: float = GRACE_SECONDS,
    ) -> None:
        self._backlog = backlog
        self._max_chats = max_chats
        self._now = now
        self._grace = grace
        self._chats: OrderedDict[str, _Channel] = OrderedDict()
        self._ids = itertools.count(first_id())
        self._shown: list[Shown] = []

    async def publish(self, chat_key: str, run_id: int, kind: LiveKind, data: Mapping[str, Any], at: float) -> None:
        if self.watched(chat_key):
            self.deliver(LiveEvent(next(self._ids), chat_key, run_id, kind, data, at))

    def deliver(self, event: LiveEvent) -> None:
        """Add an event to its chat's backlog (ids must grow) and wake its viewers."""
        channel = self._channel(event.chat_key)
        if event.id <= channel.last_id:
            return  # seen already (a notification read twice)
        channel.events.append(event)
        arrived, channel.arrived = channel.arrived, asyncio.Event()
        arrived.set()

    def watched(self, chat_key: str) -> bool:
        channel = self._chats.get(chat_key)
        if channel is None:
            return False
        if channel.viewers or self._now() - channel.left_at <= self._grace:
            return True
        del self._chats[chat_key]  # nobody came back: its backlog goes
        return False

    def sweep(self) -> None:
        """Forget the backlogs of chats whose grace ended (a chat no run publishes to any more)."""
        for chat_key in list(self._chats):
            self.watched(chat_key)

    def watching(self, shown: Shown) -> None:
        self._shown.append(shown)

    def viewed(self, chat_key: str) -> bool:
        """Whether a viewer follows the chat in this process now (the grace aside)."""
        channel = self._chats.get(chat_key)
        return channel is not None and channel.viewers > 0

    def last_id(self, chat_key: str) -> int:
        channel = self._chats.get(chat_key)
        return channel.last_id if channel is not None else 0

    async def follow(self, chat_key: str, after: int | None) -> AsyncIterator[LiveEvent]:
        self.sweep()
        fresh = not self.watched(chat_key)
        channel = self._channel(chat_key)
        channel.viewers += 1
        try:
            if fresh:  # its open run's state, published again: the snapshot below starts from it
                await self.shown(chat_key)
            # an id never given here (a process before a restart numbered them; a forged one): a snapshot
            last = channel.snapshot_start() if after is None or after > channel.last_id else after
            while True:
                arrived = channel.arrived  # taken before yielding: an event meanwhile has set it
                for event in channel.after(last):
                    last = event.id
                    yield event
                if channel.last_id <= last:
                    await arrived.wait()
        finally:
            channel.viewers -= 1
            channel.left_at = self._now()

    async def shown(self, chat_key: str) -> None:
        """Tell the engine the chat is watched now (it publishes its open run's state)."""
        for shown in self._shown:
            try:
                await shown(chat_key)
            except Exception:
                log.exception("live events: chat %s: its state was not published again", chat_key)

    async def close(self) -> None:
        return None

    def _channel(self, chat_key: str) -> _Channel:
        channel = self._chats.get(chat_key)
        if channel is None:
            channel = self._chats[chat_key] = _Channel(self._backlog, self._now())
            if len(self._chats) > self._max_chats:
                self._forget_one()
        else:
            self._chats.move_to_end(chat_key)
        return channel

    def _forget_one(self) -> None:
        """The backlog of the chat quiet longest that nobody follows now (one followed stays)."""
        quiet = next((key for key, channel in self._chats.items() if not channel.viewers), None)
        if quiet is not None:
            del self._chats[quiet]
