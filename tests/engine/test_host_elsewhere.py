"""A host's action taken by the worker that does not run the game (two workers on one
PostgreSQL database): the owner applies it only for the run's host, as the owner itself would."""

from __future__ import annotations

import pytest

from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.hosting import HostAction
from bot.domain.records import RunStatus
from bot.engine.core import EngineSettings, StartStatus
from bot.engine.wakeups import Wakeups
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres.store import PostgresStore
from tests.support.house import build

pytestmark = pytest.mark.postgres

HOST, OUTSIDER = player(1, "Ann"), player(2, "Mallory")


@pytest.mark.parametrize("hosted", [True, False], ids=["hosted", "timed"])
async def test_a_panel_button_pressed_by_another_on_the_other_worker_ends_nothing(postgres_url, hosted):
    """The button's data is signed for the run, not for who presses it (a forwarded panel, a
    replayed press): the run's owner checks its host for an END as for every other action."""
    catalog = Catalog.load(default_quiz_folders())
    clock = FakeClock()
    settings = EngineSettings(question_seconds=30, pause_seconds=5)
    first = await PostgresStore.open(postgres_url, owner="w1")
    second = await PostgresStore.open(postgres_url, owner="w2")
    try:
        running = build(catalog, first, clock, settings)
        other = build(catalog, second, clock, settings)
        running.engine.attach(RecordingAdapter())
        other.engine.attach(RecordingAdapter())
        started = await running.engine.start(group(), "pipeline", HOST, hosted=hosted)
        assert started.status is StartStatus.STARTED and started.run is not None
        run_id = started.run.id

        said = await other.engine.host_run(run_id, HostAction.END, OUTSIDER)
        owner = Wakeups.of(running.engine, first)
        assert owner is not None
        await owner.look({run_id})

        run = running.engine.run_by_id(run_id)
        assert run is not None and run.row.status == RunStatus.OPEN, "the game goes on"
        assert said.kind == "error"
    finally:
        await first.close()
        await second.close()
