"""Telegram's updates: a repeated update_id is handled once, whichever worker gets it, also when
the worker that took it first died before handling it; and only one worker long-polls."""

from __future__ import annotations

import asyncio

import pytest

from storage.shared.updates import CLAIM_SECONDS, KEEP_SECONDS

T0 = 1_750_000_000.0
ON_POSTGRES = pytest.mark.parametrize(
    "store_database", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


async def test_an_update_is_new_once_also_after_a_restart(store_factory, store):
    assert await store.claim_update(7, T0)
    assert not await store.claim_update(7, T0 + 1)  # Telegram posted it again
    assert await store.claim_update(8, T0 + 1)
    await store.finish_update(7)  # handled: the platform has its answer
    await store.finish_update(8)

    store = await store_factory.restart(store)

    assert not await store.claim_update(7, T0 + 60)
    assert not await store.claim_update(8, T0 + 60)
    assert await store.claim_update(9, T0 + 60)


async def test_an_update_finished_in_the_background_is_finished_before_the_next_claim(store_factory, store):
    assert await store.claim_update(7, T0)
    store.finish_update_soon(7)  # the webhook's way: its answer does not wait for this
    assert not await store.claim_update(7, T0 + CLAIM_SECONDS + 1)  # finished: not taken again after its lease
    store = await store_factory.restart(store)
    assert not await store.claim_update(7, T0 + 60)


async def test_ids_older_than_a_day_are_forgotten_and_younger_ones_kept(store_factory, store):
    assert await store.claim_update(1, T0)
    assert await store.claim_update(2, T0 + 3_600)
    await store.finish_update(1)
    await store.finish_update(2)

    store = await store_factory.restart(store)  # a store prunes at its first claim
    assert await store.claim_update(3, T0 + KEEP_SECONDS + 60)

    assert await store.claim_update(1, T0 + KEEP_SECONDS + 61), "a day-old id was kept"
    assert not await store.claim_update(2, T0 + KEEP_SECONDS + 62), "an id under a day old was forgotten"


async def test_claims_made_at_once_take_each_id_once(store):
    """A busy worker claims the updates that arrive together in one round: still one taker each."""
    ids = [5, 5, 6, 7, 7, 7, 8]
    assert await asyncio.gather(*(store.claim_update(i, T0) for i in ids)) == [
        True,
        False,
        True,
        True,
        False,
        False,
        True,
    ]
    assert await asyncio.gather(*(store.claim_update(i, T0 + 1) for i in (8, 9, 6))) == [False, True, False]


@ON_POSTGRES
async def test_workers_on_one_database_take_each_update_once_between_them(store_factory):
    first, second = await store_factory.open(), await store_factory.open()
    assert await first.claim_update(41, T0)
    assert not await second.claim_update(41, T0 + 1)  # the load balancer sent the repeat elsewhere

    # the same ids posted to both workers at once: each is taken by exactly one
    claims = await asyncio.gather(
        *(store.claim_update(update_id, T0 + 2) for update_id in range(100, 150) for store in (first, second))
    )
    assert sum(claims) == 50
    assert all(a != b for a, b in zip(claims[::2], claims[1::2]))


async def test_an_update_claimed_by_a_process_that_died_is_taken_again_when_it_comes_again(store_factory, store):
    assert await store.claim_update(7, T0)
    assert await store.claim_update(8, T0)
    await store.finish_update(8)
    assert not await store.claim_update(7, T0 + 1)  # this process holds it: it answers it

    store = await store_factory.restart(store)  # as a worker killed before answering 7

    assert await store.claim_update(7, T0 + 2), "an update whose claimant died was never handled"
    assert not await store.claim_update(8, T0 + 2), "a handled update was taken again"
    assert not await store.claim_update(7, T0 + 3)
    assert not await store.claimed_elsewhere(7, T0 + 3)


async def test_an_unfinished_claim_is_taken_again_when_its_lease_ran_out(store):
    assert await store.claim_update(7, T0)
    assert not await store.claim_update(7, T0 + CLAIM_SECONDS - 1)
    assert await store.claim_update(7, T0 + CLAIM_SECONDS + 1), "a claim stuck for good"
    await store.finish_update(7)
    assert not await store.claim_update(7, T0 + 10 * CLAIM_SECONDS), "a handled update was taken again"


async def test_finishes_and_claims_made_together_go_in_one_round(store):
    assert await asyncio.gather(store.claim_update(1, T0), store.claim_update(2, T0)) == [True, True]
    _, new = await asyncio.gather(store.finish_update(1), store.claim_update(3, T0 + 1))
    assert new
    # the update finished as it comes again: handled, not taken again
    _, again = await asyncio.gather(store.finish_update(2), store.claim_update(2, T0 + CLAIM_SECONDS + 1))
    assert not again
    later = T0 + 10 * CLAIM_SECONDS
    assert await asyncio.gather(*(store.claim_update(i, later) for i in (1, 2, 3))) == [False, False, True]


@ON_POSTGRES
async def test_a_worker_takes_an_update_again_once_the_worker_holding_it_is_gone(store_factory):
    first, second = await store_factory.open(), await store_factory.open()
    assert await first.claim_update(41, T0)
    assert not await second.claim_update(41, T0 + 1)
    assert await second.claimed_elsewhere(41, T0 + 1)  # a live worker holds it: wait, do not drop

    await first.close()  # killed: its session, and the lock saying it lives, are gone with it
    store_factory.opened.remove(first)

    assert not await second.claimed_elsewhere(41, T0 + 2)
    assert await second.claim_update(41, T0 + 2)
    await second.finish_update(41)
    third = await store_factory.open()
    assert not await third.claim_update(41, T0 + 3)
    assert not await third.claimed_elsewhere(41, T0 + 3)  # handled: drop the repeat


async def test_the_only_process_on_a_database_may_poll(store):
    assert await store.hold_polling()
    assert await store.hold_polling()  # asking again changes nothing


@ON_POSTGRES
async def test_a_second_worker_may_not_poll_until_the_first_is_gone(store_factory):
    first, second = await store_factory.open(), await store_factory.open()
    assert await first.hold_polling()
    assert not await second.hold_polling()
    assert not await second.hold_polling()

    await first.close()
    store_factory.opened.remove(first)

    assert await second.hold_polling()
