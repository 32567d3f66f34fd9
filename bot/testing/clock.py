"""A clock for tests and the bench: time moves only when told, so nothing waits for real seconds."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


class FakeClock:
    """A clock that moves only when told; sleepers wake when their time has come."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> Awaitable[None]:
        """A sleeper from now: a coroutine would count from when its task first runs, and a test
        that moves time in between would leave it asleep (the timer loop's sleep, in a task)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if seconds <= 0:
            fut.set_result(None)  # as asyncio.sleep(0): it returns, it does not wait for a move
        else:
            self._sleepers.append((self._now + seconds, fut))
        return fut

    def next_wake(self) -> float | None:
        """When the earliest sleeper wakes (None: nobody sleeps)."""
        return min((t for t, f in self._sleepers if not f.done()), default=None)

    def wakes(self) -> list[float]:
        """When each sleeper wakes, earliest first."""
        return sorted(t for t, f in self._sleepers if not f.done())

    def advance(self, seconds: float) -> None:
        self._now += seconds
        due = [(t, f) for t, f in self._sleepers if t <= self._now]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > self._now]
        for _, fut in due:
            if not fut.done():
                fut.set_result(None)
