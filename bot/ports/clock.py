"""Time as a dependency: the engine asks a clock, so tests can move time by hand."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def sleep(self, seconds: float) -> Awaitable[None]:
        """Wake `seconds` after the call, not after the awaitable first runs: a sleep handed to
        a task (the timer loop's) is not put off by the turns before that task starts."""
        ...


class SystemClock:
    """Wall-clock time: deadlines are stored as unix times so they survive a restart."""

    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> Awaitable[None]:
        return asyncio.sleep(max(0.0, seconds))  # starts late by a loop turn at most: real time moves alike
