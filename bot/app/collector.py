"""The garbage collector on a clock while the bot serves (`serving_interpreter` in
bot/app/interpreter.py, with QUIZHOST_INTERPRETER_TUNING on).

CPython starts a young collection when the objects made since the last one, less the objects
freed since, pass a threshold. A busy bot frees about as many objects as it makes (a closing
question's answers were made seconds ago), so the count climbs slowly and the young generation
fills with everything made since: at 9,000 presses a second each young collection walked 30,000
to 50,000 live objects and paused the loop for 6 to 11 ms, twice a second, and found no garbage:
a press makes no reference cycles. What outlived those went to the middle generation, whose
collection then walked 30 s of a run's answers at once: 70 ms (docs/PERFORMANCE.md).

Here the young and middle generations are collected together every `tick_seconds`, whatever
the count: they hold only what the last tick made, a pause of about a millisecond, and each
object is walked once before it moves to the old generation. The old generation, everything the
bot keeps longer than a tick (what `serving_interpreter` froze at the start excluded), is collected
every `full_seconds`: a pause as long as that heap is big, once in ten minutes. CPython's own
thresholds stay as they are set, a backstop for bursts.

A tick's collection also walks what is alive in flight, and a saturated bot holds a lot of it:
on Discord's gateway with 1,000 presses waiting, each its parsed interaction and message, a
tick took 10 to 15 ms, and with CPython's young collections the collector took 15 to 18% of the
loop and freed nothing (`quizhost bench --platform discord`, docs/PERFORMANCE.md). So a tick
that took long puts off the next one: the collector takes at most `share` of the loop's time,
and a tick comes at least every `longest_seconds`.

Each object alive at a tick is walked once, whatever the tick's length, so a shorter tick costs
no more in all and pauses the loop for less: at 14,000 presses a second on SQLite a tick every
0.1 s took 3 to 12 ms at most, one every 0.025 s 1 to 3.5 ms, for the same 100 to 160 ms of
collecting in 8 s; the presses' arrival lag p99 fell in all ten of ten alternating pairs
(docs/PERFORMANCE.md).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

TICK_SECONDS = 0.025  # a press that arrives during a tick waits for it: short ticks, often
FULL_SECONDS = 600.0
# of the loop's time, at most, collecting on ticks; at 2% a busy SQLite bot's ticks grew long enough
# to lift its ack p99 (17 ms against 14 at 8,000 presses/s), at 5% they did not
SHARE = 0.05
LONGEST_SECONDS = 1.0  # between two ticks, however long the last one took


class PacedCollector:
    """Collections on the loop's clock; timer callbacks, no task: nothing to await."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        tick_seconds: float = TICK_SECONDS,
        full_seconds: float = FULL_SECONDS,
        share: float = SHARE,
        longest_seconds: float = LONGEST_SECONDS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._loop = loop
        self._tick = tick_seconds
        self._full = full_seconds
        self._share = share
        self._longest = max(longest_seconds, tick_seconds)
        self._clock = clock  # times each collection
        self._full_due = 0.0
        self._next: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._full_due = self._loop.time() + self._full
        self._next = self._loop.call_later(self._tick, self._collect)

    def stop(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _collect(self) -> None:
        now = self._loop.time()
        began = self._clock()
        if now >= self._full_due:
            gc.collect()
            self._full_due = now + self._full
        else:
            gc.collect(1)  # the young and middle generations: what the last tick made
        took = self._clock() - began
        self._next = self._loop.call_later(min(max(self._tick, took / self._share), self._longest), self._collect)
