"""The garbage collector on the loop's clock while the bot serves (bot/app/collector.py): garbage
is still reclaimed when CPython's count would never start a collection, and a young collection
leaves alone what outlived the previous one, which is what keeps each pause short."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import weakref
from collections.abc import Iterator

from bot.app.collector import PacedCollector
from bot.app.wiring import serving_process


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


async def test_a_dropped_cycle_is_reclaimed_on_the_clock_without_any_count_starting_a_collection():
    freed: list[str] = []
    with no_automatic_collection():
        paced = PacedCollector(asyncio.get_running_loop(), young_seconds=0.01, middle_seconds=60)
        paced.start()
        try:
            cycle(freed, "young")  # dropped at once
            assert await until(lambda: freed == ["young"], 2.0), "a cycle made and dropped was never reclaimed"
        finally:
            paced.stop()


async def test_what_outlived_a_young_collection_waits_for_the_middle_one():
    freed: list[str] = []
    with no_automatic_collection():
        paced = PacedCollector(asyncio.get_running_loop(), young_seconds=0.01, middle_seconds=1.0)
        paced.start()
        try:
            kept = cycle(freed, "kept a while")
            await asyncio.sleep(0.05)  # young collections ran meanwhile: it moved to the middle generation
            del kept
            await asyncio.sleep(0.15)  # more young collections, the middle one not yet due
            assert freed == [], "a young collection walked an object that had outlived one"
            assert await until(lambda: freed == ["kept a while"], 3.0), "the middle collection never came"
        finally:
            paced.stop()


async def test_no_paced_collection_runs_once_the_bot_stops_serving():
    collections: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    with no_automatic_collection():
        gc.callbacks.append(count)
        try:
            with serving_process():
                assert await until(lambda: collections.count(0) >= 2, 2.0), "no young collection while serving"
            collections.clear()
            await asyncio.sleep(0.35)  # over three of the paced periods
            assert collections == []
        finally:
            gc.callbacks.remove(count)
