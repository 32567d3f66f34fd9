"""Reviews, question statistics and schedules again on PostgreSQL: the same tests, another store;
and what only PostgreSQL allows (SQLite serves one process): two stores, two engines, one database."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.model import ChatRef
from bot.domain.schedule import Cadence, Rule, ScheduleRow
from bot.testing.clock import FakeClock
from storage.postgres.store import PostgresStore
from tests.contract.test_learning_store import (  # noqa: F401
    test_a_schedule_time_is_claimed_once,
)
from tests.contract.test_postgres_same_behaviour import store  # noqa: F401  (the PostgreSQL store fixture)
from tests.engine.test_review import *  # noqa: F403
from tests.engine.test_review_more import *  # noqa: F403
from tests.engine.test_schedules import *  # noqa: F403
from tests.engine.test_schedules import HOUR, admin, make_engine, utc
from tests.support.house import house_of

pytestmark = pytest.mark.postgres


@pytest.fixture
def reopen(postgres_url):
    return lambda: PostgresStore.open(postgres_url)


async def test_two_stores_on_one_database_claim_a_schedule_time_once(store, reopen):
    chat = ChatRef("tg", "-100", title="Group")
    sid = await store.add_schedule(
        ScheduleRow(chat, "pipeline", Rule(Cadence.DAILY, 9, 0), next_due=1000.0, seed=5, created_by="tg:1")
    )
    other = await reopen()
    try:
        assert [s.id for s in await other.due_schedules(1000.0)] == [sid]
        claims = [s.claim_schedule(sid, 1000.0, 87400.0, frozenset()) for s in (other, store)]
        assert sorted(await asyncio.gather(*claims)) == [False, True]
    finally:
        await other.close()


async def test_two_engines_on_one_database_fire_a_schedule_once(reopen):
    clock = FakeClock(utc(2026, 6, 1, 6))
    stores = [await reopen() for _ in range(2)]
    try:
        engines = [make_engine(s, clock) for s in stores]
        both = [house_of(e).commands for e in engines]
        await admin(both[0], "schedule daily 07:00 demo")
        clock.advance(HOUR)
        fired = await asyncio.gather(*(house_of(e).scheduler.tick() for e in engines))
        assert sorted(fired) == [0, 1]
        posts = [len(house_of(e).adapters["test"].sent) for e in engines]
        assert sorted(posts) == [0, 1]
    finally:
        for s in stores:
            await s.close()
