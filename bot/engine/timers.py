"""When each run's next step is due, and the loop that takes the steps on time.

A heap of (due time, run id): the loop wakes at the earliest due time or when a run is
rescheduled earlier (a press closing a question early), pops what has come, and runs each
step as its own task so a slow platform in one chat never holds up another chat.

Steps due together start one a loop turn. A step's first stretch runs in the turn after its
task is made (a close builds its reveal and the review cards of those who missed), and runs
can come due together: after a restart every deadline that passed while the bot was down,
chats started by the same schedule. A hundred closes of 40 missed answers each, started at
once, held the loop for 20 ms in one turn, every press and commit waiting behind them; one a
turn, the longest turn was 1.3 ms (docs/PERFORMANCE.md). A question is closed no later for
it: a press after its due time is refused whenever the close runs.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.ports.clock import Clock

log = logging.getLogger("quizhost.timers")


class Timers:
    def __init__(
        self, clock: Clock, step: Callable[[int], Awaitable[None]], due_of: Callable[[int], float | None]
    ) -> None:
        self._clock = clock
        self._step = step  # takes one run one step on; reschedules it when done
        self._due_of = due_of  # a run's current due time, None when it has ended
        self._heap: list[tuple[float, int]] = []  # stale entries are skipped when popped
        self._stepping: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        self._wake = asyncio.Event()

    def schedule(self, run_id: int, due: float) -> None:
        """Note a run's (new) due time: O(log n), whatever the number of open runs."""
        heapq.heappush(self._heap, (due, run_id))
        if self._heap[0][1] == run_id:  # the earliest now: the loop may be sleeping past it
            self._wake.set()

    def done_stepping(self, run_id: int) -> None:
        self._stepping.discard(run_id)

    async def steps_ended(self) -> None:
        """Wait for the steps the loop has started (a close sending its podium) to end. Of steps
        due together, one waits to start only while the one before it is in `_tasks`."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    async def serve(self) -> None:
        try:
            while True:
                self._wake.clear()
                await self._start_one_a_turn(self._pop_due(self._clock.now()))
                await self._sleep_until_next(self._clock.now())
        finally:
            for task in list(self._tasks):
                task.cancel()

    async def _start_one_a_turn(self, due: list[int]) -> None:
        for n, run_id in enumerate(due):
            if n:
                await asyncio.sleep(0)  # the step before runs in this turn, then this one is made
            self._spawn(run_id)

    def _pop_due(self, now: float) -> list[int]:
        ready = []
        while self._heap and self._heap[0][0] <= now:
            _, run_id = heapq.heappop(self._heap)
            due = self._due_of(run_id)
            if due is not None and due <= now and run_id not in self._stepping:
                self._stepping.add(run_id)  # also drops a run pushed twice
                ready.append(run_id)
        return ready

    async def _sleep_until_next(self, now: float) -> None:
        await sleep_or_wake(self._clock, self._wake, self._heap[0][0] - now if self._heap else None)

    def _spawn(self, run_id: int) -> None:
        task = asyncio.ensure_future(self._step(run_id))
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(done, run_id))

    def _finished(self, task: asyncio.Task, run_id: int) -> None:
        self._tasks.discard(task)
        self._stepping.discard(run_id)
        if not task.cancelled() and task.exception():
            log.error("run %d: a step failed", run_id, exc_info=task.exception())


async def sleep_or_wake(clock: Clock, wake: asyncio.Event, seconds: float | None) -> None:
    """Sleep `seconds` on the clock (None: no limit), or less if `wake` is set meanwhile."""
    waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(wake.wait())]
    if seconds is not None:
        waits.append(asyncio.ensure_future(clock.sleep(seconds)))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
