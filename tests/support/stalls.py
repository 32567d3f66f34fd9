"""The event loop's longest stall, as a player would feel it: a task that sleeps 1 ms at a
time and notes how late it wakes. Anything run on the loop (a parse, a long loop) shows here.

Two figures. `longest`: how late the task woke, by the wall clock. `longest_own`: the same
less the time the loop's thread sat ready on the system's run queue while other processes had
the CPUs (Linux counts it in /proc/thread-self/schedstat). What is left is the bot's own
stall: code run on the loop, or the loop waiting for another of its threads (the GIL). On a
shared machine of two cores the run queue alone adds up to 100 ms now and then, with no upload
at all; the bot's own stall is what tests bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

TICK = 0.001
SCHEDSTAT = Path("/proc/thread-self/schedstat")  # on-CPU ns, run-queue wait ns, time slices


class StallMeter:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late at worst, wall clock
        self.longest_own = 0.0  # the same less the time the system kept the thread waiting for a CPU
        self.ticks = 0

    async def tick(self) -> None:
        while True:
            wall, queued = time.perf_counter(), _queued()
            await asyncio.sleep(TICK)
            late = time.perf_counter() - wall - TICK
            self.longest = max(self.longest, late)
            self.longest_own = max(self.longest_own, late - (_queued() - queued))
            self.ticks += 1

    def __str__(self) -> str:
        return (
            f"longest stall {self.longest * 1000:.1f} ms by the wall clock, {self.longest_own * 1000:.1f} ms "
            f"the bot's own (not waiting for a CPU), over {self.ticks} ticks"
        )


def _queued() -> float:
    """Seconds this thread has waited on a run queue, ready to run (0 where it is not known)."""
    try:
        return int(SCHEDSTAT.read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


async def _ticked(meter: StallMeter) -> None:
    ticks = meter.ticks
    while meter.ticks == ticks:
        await asyncio.sleep(TICK / 2)


@contextlib.asynccontextmanager
async def stall_meter() -> AsyncIterator[StallMeter]:
    meter = StallMeter()
    task = asyncio.create_task(meter.tick(), name="stall meter")
    await _ticked(meter)  # ticking before the block: a block that never yields still shows
    try:
        yield meter
        await _ticked(meter)  # the tick the block's last stall delayed is counted too
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
