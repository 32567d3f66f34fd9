"""Deadlines: callbacks due a fixed time after each was set, on one loop timer for them all."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.adapters.deadlines import Deadlines

DELAY = 0.05


async def _until(condition, seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.005)


async def test_each_callback_comes_due_after_the_delay_in_the_order_set_and_a_cancelled_one_never():
    deadlines, fired = Deadlines(DELAY), []
    loop = asyncio.get_running_loop()
    set_at = {}
    for name in ("first", "second", "cancelled", "third"):
        set_at[name] = loop.time()
        key = deadlines.set(lambda name=name: fired.append((name, loop.time())))
        if name == "cancelled":
            deadlines.cancel(key)
        await asyncio.sleep(0.01)
    await _until(lambda: len(fired) == 3)
    assert [name for name, _ in fired] == ["first", "second", "third"]
    assert all(at - set_at[name] >= DELAY for name, at in fired)  # never early
    await asyncio.sleep(DELAY * 3)
    assert len(fired) == 3 and len(deadlines) == 0


async def test_deadlines_set_while_others_wait_come_due_too():
    deadlines, fired = Deadlines(DELAY), []
    deadlines.set(lambda: fired.append(1))
    await _until(lambda: fired == [1])
    deadlines.set(lambda: fired.append(2))  # after the timer fired and found nothing more
    await _until(lambda: fired == [1, 2])


async def test_a_failing_callback_is_logged_and_the_others_still_come_due(caplog):
    deadlines, fired = Deadlines(DELAY), []
    deadlines.set(lambda: 1 / 0)
    deadlines.set(lambda: fired.append("after"))
    with caplog.at_level(logging.ERROR, logger="quizhost"):
        await _until(lambda: fired == ["after"])
    assert "a deadline's callback failed" in caplog.text


def test_a_new_event_loop_starts_afresh():
    deadlines, fired = Deadlines(DELAY), []

    async def set_and_leave() -> None:
        deadlines.set(lambda: fired.append("old loop"))

    async def set_and_wait() -> None:
        deadlines.set(lambda: fired.append("new loop"))
        await _until(lambda: fired)

    asyncio.run(set_and_leave())  # its loop ends before the deadline
    asyncio.run(set_and_wait())
    assert fired == ["new loop"]


@pytest.mark.parametrize("count", [1, 500])
async def test_cancelled_deadlines_leave_nothing_behind(count):
    deadlines, fired = Deadlines(DELAY), []
    keys = [deadlines.set(lambda: fired.append(1)) for _ in range(count)]
    for key in keys:
        deadlines.cancel(key)
    assert len(deadlines) == 0
    await asyncio.sleep(DELAY * 3)
    assert fired == []
