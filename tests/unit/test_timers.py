"""The timer loop on a fake clock: steps that come due together start one a loop turn."""

from __future__ import annotations

import asyncio

from bot.engine.timers import Timers
from bot.testing.clock import FakeClock


async def _turns_until(condition, limit: int = 10_000) -> None:
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


async def test_a_press_goes_between_steps_that_came_due_together():
    """Fifty runs come due together (a restart after their deadlines passed). A press that arrives
    while their closes start is taken before the last of them, not after all fifty."""
    clock = FakeClock()
    happened: list[str] = []
    due = {run_id: clock.now() + 30 for run_id in range(50)}

    async def step(run_id: int) -> None:
        happened.append(f"close {run_id}")
        due[run_id] = clock.now() + 5  # the next question's time

    async def press() -> None:
        happened.append("press")

    timers = Timers(clock, step, due.get)
    for run_id, at in due.items():
        timers.schedule(run_id, at)
    serving = asyncio.create_task(timers.serve())
    try:
        await _turns_until(lambda: clock.next_wake() is not None)  # the loop sleeps until the deadline
        clock.advance(30)
        await _turns_until(lambda: happened)  # the first close has started
        pressing = asyncio.create_task(press())
        await timers.steps_ended()
        await pressing
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
    assert sorted(happened) == sorted(["press", *(f"close {n}" for n in range(50))])
    assert happened.index("press") < 5, happened[:10]


async def test_a_step_comes_when_time_moves_as_the_loop_lies_down_again():
    """A question is shown: its run, due at the give-up time until then, is rescheduled to its
    deadline and the loop wakes to sleep until it. Time moves on at that very moment (a test's
    clock, or a busy machine's turn): the close still comes, not one whole time limit late."""
    clock = FakeClock()
    stepped: list[int] = []
    due = {1: clock.now() + 600}

    async def step(run_id: int) -> None:
        stepped.append(run_id)
        due.pop(run_id)

    timers = Timers(clock, step, due.get)
    timers.schedule(1, due[1])
    serving = asyncio.create_task(timers.serve())
    try:
        await _turns_until(lambda: clock.next_wake() == due[1])
        due[1] = clock.now() + 30
        timers.schedule(1, due[1])
        await _turns_until(lambda: clock.next_wake() != clock.now() + 600)  # the loop took it in
        clock.advance(30)
        await _turns_until(lambda: stepped)
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
    assert stepped == [1]


async def test_a_sleep_counts_from_when_it_is_asked_and_zero_does_not_wait():
    clock = FakeClock()
    sleeping = asyncio.ensure_future(clock.sleep(30))  # its task has not run yet
    clock.advance(30)
    await asyncio.wait_for(sleeping, 1)
    await asyncio.wait_for(clock.sleep(0), 1)  # as asyncio.sleep(0): no move of time needed
