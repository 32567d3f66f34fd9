"""Discord's interactions: each id is taken once, whichever worker a repeat reaches, for longer
than the endpoint accepts a signed request; then it is forgotten."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.discord.endpoint import FRESH_SECONDS
from storage.shared.interactions import KEEP_SECONDS

T0 = 1_750_000_000.0
SNOWFLAKE = 1_312_345_678_901_234_567  # an interaction's id, as Discord numbers them
ON_POSTGRES = pytest.mark.parametrize(
    "store_database", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


def test_ids_are_kept_longer_than_the_endpoint_takes_a_signed_request():
    """Seen first by a clock FRESH_SECONDS behind its timestamp, a request is taken until one
    FRESH_SECONDS ahead: its id must outlive both, with room for clocks a little apart."""
    assert KEEP_SECONDS >= 2 * FRESH_SECONDS + 60


async def test_an_interaction_is_taken_once_also_after_a_restart(store_factory, store):
    assert await store.claim_interaction(SNOWFLAKE, T0)
    assert not await store.claim_interaction(SNOWFLAKE, T0 + 1)  # the same signed request, posted again
    assert await store.claim_interaction(SNOWFLAKE + 1, T0 + 1)
    assert await store.claim_interaction((1 << 63) - 1, T0 + 1), "the largest id the endpoint takes"

    store = await store_factory.restart(store)

    assert not await store.claim_interaction(SNOWFLAKE, T0 + 60)
    assert not await store.claim_interaction((1 << 63) - 1, T0 + 60)


async def test_an_interaction_and_a_telegram_update_of_one_number_are_apart(store):
    assert await store.claim_update(SNOWFLAKE, T0)
    assert await store.claim_interaction(SNOWFLAKE, T0)
    assert not await store.claim_update(SNOWFLAKE, T0 + 1)


async def test_ids_are_kept_past_the_signature_window_then_forgotten(store_factory, store):
    assert await store.claim_interaction(1, T0)
    assert await store.claim_interaction(2, T0 + 600)

    store = await store_factory.restart(store)  # a store prunes at its first claim
    assert await store.claim_interaction(3, T0 + KEEP_SECONDS + 60)

    assert await store.claim_interaction(1, T0 + KEEP_SECONDS + 61), "an id past KEEP_SECONDS was kept"
    assert not await store.claim_interaction(2, T0 + KEEP_SECONDS + 62), "an id within KEEP_SECONDS was forgotten"


async def test_claims_made_at_once_take_each_id_once(store):
    """A busy worker claims the interactions that arrive together in one round: one taker each."""
    ids = [5, 5, 6, 7, 7, 7, 8]
    assert await asyncio.gather(*(store.claim_interaction(i, T0) for i in ids)) == [
        True,
        False,
        True,
        True,
        False,
        False,
        True,
    ]
    assert await asyncio.gather(*(store.claim_interaction(i, T0 + 1) for i in (8, 9, 6))) == [False, True, False]


@ON_POSTGRES
async def test_workers_on_one_database_take_each_interaction_once_between_them(store_factory):
    first, second = await store_factory.open(), await store_factory.open()
    assert await first.claim_interaction(SNOWFLAKE, T0)
    assert not await second.claim_interaction(SNOWFLAKE, T0 + 1)  # the repeat sent to the other worker

    # the same ids posted to both workers at once: each is taken by exactly one
    ids = range(SNOWFLAKE + 100, SNOWFLAKE + 150)
    claims = await asyncio.gather(*(store.claim_interaction(i, T0 + 2) for i in ids for store in (first, second)))
    assert sum(claims) == 50
    assert all(a != b for a, b in zip(claims[::2], claims[1::2]))
