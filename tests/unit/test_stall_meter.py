"""The stall meter leaves out what the machine took, never the bot's own stall: code run on the
loop, and a thread of ours holding the GIL, both count whole."""

from __future__ import annotations

import asyncio
import time

from tests.support.stalls import stall_meter

BUSY_SECONDS = 0.08


def busy(seconds: float) -> float:
    """Python code on the CPU for `seconds`; the CPU time it took this thread."""
    began, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - began < seconds:
        pass
    return time.thread_time() - cpu


def held_gil() -> float:
    """One C call that keeps the GIL to itself (no bytecode in it, so no switch); its CPU time."""
    cpu = time.thread_time()
    sum(range(8_000_000))
    return time.thread_time() - cpu


async def test_code_run_on_the_loop_is_the_bots_own_stall():
    async with stall_meter() as meter:
        await asyncio.sleep(0.01)
        cpu = busy(BUSY_SECONDS)
        await asyncio.sleep(0.01)
    # whatever the machine took meanwhile, the stall's CPU time on the loop stays the bot's own
    assert meter.longest_own >= 0.8 * cpu, (str(meter), cpu)


async def test_a_thread_of_ours_holding_the_gil_is_the_bots_own_stall():
    async with stall_meter() as meter:
        cpu = await asyncio.to_thread(held_gil)
    assert cpu > 0.02, "the call was too short to measure a stall by"
    # the loop waited for the GIL while the other thread ran: not the machine's, however busy it is
    assert meter.longest_own >= 0.8 * cpu, (str(meter), cpu)
