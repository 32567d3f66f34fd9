"""The event loop's longest stall, as a player would feel it: a task that sleeps 1 ms at a
time and notes how late it wakes. Anything run on the loop (a parse, a long loop) shows here.

Two figures. `longest`: how late the task woke, by the wall clock. `longest_own`: the same
less what the machine took, not the bot. Linux counts, per thread, the time on a CPU and the
time ready on a run queue while other processes had the CPUs (/proc/<tid>/schedstat), and per
CPU the time its hypervisor took it away ("steal", /proc/stat). A late tick is the loop's run
queue wait, plus its own code on the CPU, plus time blocked: waiting for another of its
threads (the GIL), or its CPU stolen. The machine's share is the run queue wait, and of the
blocked time only as much as the bot's other threads sat on a run queue themselves (a thread
holding the GIL, kept off the CPUs) or a CPU was stolen. What is left is the bot's own stall:
code run on the loop, or a thread of ours holding the GIL while it runs. On a shared machine of
two cores the run queue alone adds up to 100 ms now and then, with no upload at all, and once
in CI a stall of 50 ms that was not the loop's run queue wait came where 7 to 10 ms is usual;
the bot's own stall is what tests bound (tests/unit/test_stall_meter.py: ours still counts whole).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

TICK = 0.001
TASKS = Path("/proc/self/task")  # the process's threads, each with its schedstat
STAT = Path("/proc/stat")
TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class _Sample:
    """What the machine had given the process by a moment, in seconds (zeros where not known)."""

    ran: float  # the loop's thread on a CPU
    queued: float  # the loop's thread ready on a run queue
    others_queued: dict[str, float]  # every other thread: ready on a run queue
    stolen: tuple[float, ...]  # each CPU: taken by the hypervisor

    @classmethod
    def now(cls, loop_thread: int) -> _Sample:
        ran, queued, others = 0.0, 0.0, {}
        with contextlib.suppress(OSError):
            for tid in os.listdir(TASKS):
                stat = _schedstat(tid)
                if int(tid) == loop_thread:
                    ran, queued = stat
                else:
                    others[tid] = stat[1]
        return cls(ran, queued, others, _stolen())

    def machine_share(self, later: _Sample, late: float) -> float:
        """Of `late` seconds between this sample and `later`, how many the machine took."""
        queued = later.queued - self.queued
        blocked = max(0.0, late - (later.ran - self.ran) - queued)
        others = max((q - self.others_queued.get(tid, q) for tid, q in later.others_queued.items()), default=0.0)
        stolen = max((b - a for a, b in zip(self.stolen, later.stolen, strict=False)), default=0.0)
        return queued + min(blocked, max(others, stolen))


def _schedstat(tid: str) -> tuple[float, float]:
    try:
        ran, queued, _ = (TASKS / tid / "schedstat").read_text().split()
    except (OSError, ValueError):
        return 0.0, 0.0
    return int(ran) / 1e9, int(queued) / 1e9


def _stolen() -> tuple[float, ...]:
    try:
        lines = STAT.read_text().splitlines()
    except OSError:
        return ()
    cpus = (line.split() for line in lines if line.startswith("cpu") and not line.startswith("cpu "))
    return tuple(int(fields[8]) / TICKS_PER_S for fields in cpus if len(fields) > 8)


class StallMeter:
    def __init__(self) -> None:
        self.longest = 0.0  # seconds late at worst, wall clock
        self.longest_own = 0.0  # the same less what the machine took (see the module's docstring)
        self.ticks = 0

    async def tick(self) -> None:
        thread = threading.get_native_id()
        while True:
            wall, before = time.perf_counter(), _Sample.now(thread)
            await asyncio.sleep(TICK)
            late = time.perf_counter() - wall - TICK
            self.longest = max(self.longest, late)
            if late > self.longest_own:  # only then is the machine's share worth reading
                self.longest_own = max(self.longest_own, late - before.machine_share(_Sample.now(thread), late))
            self.ticks += 1

    def __str__(self) -> str:
        return (
            f"longest stall {self.longest * 1000:.1f} ms by the wall clock, {self.longest_own * 1000:.1f} ms "
            f"the bot's own (not the machine's: see tests/support/stalls.py), over {self.ticks} ticks"
        )


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
