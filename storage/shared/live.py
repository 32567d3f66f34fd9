"""Live events in this process's memory (bot/ports/live.py): a bounded backlog per chat that
every viewer reads from, and one wake-up per event, however many viewers wait.

A viewer costs a position in its chat's backlog and a waiter on one `asyncio.Event`, not a
queue of its own: 300 viewers of one screen share each event object. It is the whole bus with
one process (SQLite), and each worker's local fan-out with several (storage/postgres/live.py
feeds it from the table, in the ids the database gave).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Mapping
from typing import Any

from bot.ports.live import BACKLOG, LiveEvent, LiveKind

MAX_CHATS = 2000  # chats whose backlog is kept; the one quiet longest is forgotten first


class _Channel:
    __slots__ = ("arrived", "events")

    def __init__(self, backlog: int) -> None:
        self.events: deque[LiveEvent] = deque(maxlen=backlog)
        self.arrived = asyncio.Event()

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

    def __init__(self, backlog: int = BACKLOG, max_chats: int = MAX_CHATS) -> None:
        self._backlog = backlog
        self._max_chats = max_chats
        self._chats: OrderedDict[str, _Channel] = OrderedDict()
        self._ids = itertools.count(first_id())

    async def publish(self, chat_key: str, run_id: int, kind: LiveKind, data: Mapping[str, Any], at: float) -> None:
        self.deliver(LiveEvent(next(self._ids), chat_key, run_id, kind, data, at))

    def deliver(self, event: LiveEvent) -> None:
        """Add an event to its chat's backlog (ids must grow) and wake its viewers."""
        channel = self._channel(event.chat_key)
        if event.id <= channel.last_id:
            return  # seen already (a notification read twice)
        channel.events.append(event)
        arrived, channel.arrived = channel.arrived, asyncio.Event()
        arrived.set()

    def last_id(self, chat_key: str) -> int:
        channel = self._chats.get(chat_key)
        return channel.last_id if channel is not None else 0

    async def follow(self, chat_key: str, after: int | None) -> AsyncIterator[LiveEvent]:
        channel = self._channel(chat_key)
        # an id never given here (a process before a restart numbered them; a forged one): a snapshot
        last = channel.snapshot_start() if after is None or after > channel.last_id else after
        while True:
            arrived = channel.arrived  # taken before yielding: an event meanwhile has set it
            for event in channel.after(last):
                last = event.id
                yield event
            if channel.last_id <= last:
                await arrived.wait()
            channel = self._channel(chat_key)  # forgotten meanwhile: a new one, read from its start

    async def close(self) -> None:
        return None

    def _channel(self, chat_key: str) -> _Channel:
        channel = self._chats.get(chat_key)
        if channel is None:
            channel = self._chats[chat_key] = _Channel(self._backlog)
            if len(self._chats) > self._max_chats:
                self._chats.popitem(last=False)[1].arrived.set()  # its viewers read the new one
        else:
            self._chats.move_to_end(chat_key)
        return channel
