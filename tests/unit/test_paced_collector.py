"""The garbage collector on the loop's clock while the bot serves (bot/app/collector.py): garbage
is still reclaimed when CPython's count would never start a collection, and a tick's collection
leaves alone what outlived the previous tick, which is what keeps each pause short."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import weakref
from collections.abc import Iterator

from bot.app.collector import PacedCollector
from bot.app.interpreter import serving_interpreter


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle(freed: list[str], name: str) -> Node:
    """Two objects that refer to each other: only a collection frees them; `freed` gets `name` then."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    weakref.finalize(first, freed.append, name)
    return first


@contextlib.contextmanager
def no_automatic_collection() -> Iterator[None]:
    """Only the paced collections run: CPython's count-driven ones are off for the test."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


async def until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


@contextlib.contextmanager
def paced_alone(full_seconds: float) -> Iterator[None]:
    """A collector ticking every 10 ms, with no automatic collection beside it."""
    with no_automatic_collection():
        paced = PacedCollector(asyncio.get_running_loop(), tick_seconds=0.01, full_seconds=full_seconds)
        paced.start()
        try:
            yield
        finally:
            paced.stop()


async def test_a_dropped_cycle_is_reclaimed_on_the_clock_without_any_count_starting_a_collection():
    freed: list[str] = []
    with paced_alone(full_seconds=60):
        cycle(freed, "young")  # dropped at once
        assert await until(lambda: freed == ["young"], 2.0), "a cycle made and dropped was never reclaimed"


async def test_what_outlived_a_tick_waits_for_the_full_collection():
    freed: list[str] = []
    with paced_alone(full_seconds=2.0):
        kept = cycle(freed, "kept a while")
        await asyncio.sleep(0.05)  # ticks' collections ran meanwhile: it moved to the old generation
        del kept
        await asyncio.sleep(0.15)  # more ticks, the full collection not yet due
        assert freed == [], "a tick's collection walked an object that had outlived a tick"
        assert await until(lambda: freed == ["kept a while"], 5.0), "the full collection never came"


async def test_no_paced_collection_runs_once_the_bot_stops_serving():
    collections: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    with no_automatic_collection():
        gc.callbacks.append(count)
        try:
            with serving_interpreter(tuning=True):
                assert await until(lambda: collections.count(1) >= 2, 2.0), "no tick's collection while serving"
            collections.clear()
            await asyncio.sleep(0.35)  # over three ticks
            assert collections == []
        finally:
            gc.callbacks.remove(count)


async def test_a_long_collection_puts_off_the_next_tick_so_the_collector_keeps_to_its_share():
    """Each collection made to look 20 ms long: at 2% of the loop the next tick comes a second
    later (the longest wait), not 100 ms later; one that looks instant keeps the tick."""

    def looking(seconds: float):
        readings = iter(range(1_000_000))
        return lambda: next(readings) * seconds  # every reading `seconds` after the one before

    async def ticks_in(seconds: float, each_looks: float) -> int:
        collections: list[int] = []

        def count(phase: str, info: dict) -> None:
            if phase == "start" and info["generation"] == 1:
                collections.append(1)

        with no_automatic_collection():
            paced = PacedCollector(
                asyncio.get_running_loop(),
                tick_seconds=0.02,
                share=0.02,
                longest_seconds=1.0,
                clock=looking(each_looks),
            )
            gc.callbacks.append(count)
            paced.start()
            try:
                await asyncio.sleep(seconds)
            finally:
                paced.stop()
                gc.callbacks.remove(count)
        return len(collections)

    assert await ticks_in(0.5, each_looks=0.02) == 1, "a long collection did not put off the next tick"
    assert await ticks_in(0.5, each_looks=0.0) >= 10, "a quick collection put off the next tick"
