"""Discord's identify limit across processes: one holder of a bucket's identify lock at a time."""

from __future__ import annotations

import asyncio

import pytest


async def _holding(store, bucket: int, got: asyncio.Event, release: asyncio.Event) -> None:
    async with store.identify_lock(bucket):
        got.set()
        await release.wait()


async def _second_waits_for_first(first, second) -> None:
    first_got, first_release, second_got, second_release = (asyncio.Event() for _ in range(4))
    holder = asyncio.create_task(_holding(first, 0, first_got, first_release))
    await asyncio.wait_for(first_got.wait(), 10)
    waiter = asyncio.create_task(_holding(second, 0, second_got, second_release))
    other_got, other_release = asyncio.Event(), asyncio.Event()
    other = asyncio.create_task(_holding(second, 1, other_got, other_release))
    await asyncio.wait_for(other_got.wait(), 10)  # another bucket is not held up
    assert not second_got.is_set(), "two holders of one bucket's identify lock at once"

    first_release.set()
    await asyncio.wait_for(second_got.wait(), 10)  # the next one goes as soon as the first lets go
    second_release.set()
    other_release.set()
    await asyncio.gather(holder, waiter, other)


async def test_one_holder_of_a_bucket_at_a_time_and_buckets_do_not_wait_for_each_other(store):
    await _second_waits_for_first(store, store)


@pytest.mark.parametrize("store_database", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
async def test_two_workers_on_one_postgresql_take_turns(store_factory):
    await _second_waits_for_first(await store_factory.open(), await store_factory.open())


async def test_a_holder_that_failed_lets_go(store):
    with pytest.raises(RuntimeError):
        async with store.identify_lock(0):
            raise RuntimeError("the identify failed")
    async with asyncio.timeout(10), store.identify_lock(0):
        pass
