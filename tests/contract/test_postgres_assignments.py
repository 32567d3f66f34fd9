"""Assignments on PostgreSQL: the engine's tests again, and what only PostgreSQL allows (SQLite
serves one process): two workers, one database, the deadline's podium posted once."""

from __future__ import annotations

import asyncio

import pytest

from bot.testing.clock import FakeClock
from bot.testing.fakes import group, player
from storage.postgres.store import PostgresStore
from tests.contract.test_postgres_same_behaviour import store  # noqa: F401  (the PostgreSQL store fixture)
from tests.engine.test_assignments import *  # noqa: F403
from tests.engine.test_assignments import ADMIN, START, make_engine, play, say
from tests.support.house import house_of

pytestmark = pytest.mark.postgres


async def test_two_workers_on_one_database_post_one_podium_and_one_edit_a_minute(postgres_url):
    clock = FakeClock(START)
    stores = [await PostgresStore.open(postgres_url) for _ in range(2)]
    try:
        engines = [make_engine(s, clock) for s in stores]
        both = [house_of(e).commands for e in engines]
        await say(both[0], group(), ADMIN, "assign demo until mon 18:00", admin=True)
        await play(engines[1], both[1], player(2, "Ann"), right=2)  # on the other worker
        clock.advance(60)
        await asyncio.gather(*(house_of(e).assignments.tick() for e in engines))
        edits = [len(house_of(e).adapters["test"].edits) for e in engines]
        assert sorted(edits) == [0, 1]
        clock.advance(12 * 3600)
        await asyncio.gather(*(house_of(e).assignments.tick() for e in engines))
        await asyncio.gather(*(house_of(e).assignments.tick() for e in engines))
        sent = [r for e in engines for _, r in house_of(e).adapters["test"].sent]
        podiums = [r for r in sent if r.title.startswith("🏁 Assignment closed")]
        assert len(podiums) == 1 and "Ann" in podiums[0].text
    finally:
        for s in stores:
            await s.close()
