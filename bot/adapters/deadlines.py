"""Callbacks due a fixed time after each was set, on one loop timer for them all.

Each press set two loop timers of its own: its answer's deferral, due 2 s later (Discord's
3-second rule: discord/replies.py, discord/interactions.py), and its acknowledgement's timeout
(keepalive.py). Nearly every one was cancelled within milliseconds, and a loop timer costs to
set, to cancel and to keep in the loop's heap: a loop pass with two timers set and cancelled
took 7.3 to 9.5 µs, with two of these deadlines 4.0 to 4.8, with neither 2.6 to 3.2. With one
delay for all of them, deadlines come due in the order they were set; so they wait in an
ordered dict, and one loop timer, set for the earliest, serves them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

log = logging.getLogger("quizhost")

# how late a deadline may run, so that one timer serves the deadlines set close together
SLACK_SECONDS = 0.05


class Deadlines:
    """`set(callback)` calls it `delay` s later (up to SLACK_SECONDS more) unless cancelled."""

    def __init__(self, delay: float, slack: float = SLACK_SECONDS) -> None:
        self.delay = delay
        self._slack = slack
        self._due: OrderedDict[int, tuple[float, Callable[[], object]]] = OrderedDict()
        self._last_key = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def set(self, callback: Callable[[], object]) -> int:
        """The key that cancels it."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (the tests run many): the old one's deadlines died with it
            self._loop, self._timer = loop, None
            self._due.clear()
        self._last_key += 1
        due = loop.time() + self.delay
        self._due[self._last_key] = (due, callback)
        if self._timer is None:
            self._timer = loop.call_at(due + self._slack, self._fire)
        return self._last_key

    def cancel(self, key: int) -> None:
        self._due.pop(key, None)

    def __len__(self) -> int:
        return len(self._due)

    def _fire(self) -> None:
        self._timer = None
        loop = self._loop
        assert loop is not None  # a timer was set, so was the loop
        now = loop.time()
        while self._due:
            key, (due, callback) = next(iter(self._due.items()))
            if due > now:
                self._timer = loop.call_at(due + self._slack, self._fire)
                return
            del self._due[key]
            try:
                callback()
            except Exception:  # one callback's failure is its own: the others still come due
                log.exception("a deadline's callback failed")
