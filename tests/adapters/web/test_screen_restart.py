"""The big screen after a restart on SQLite: events live in the process's memory, so the new
process shows the question still open as it takes its run up again."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.commands.weblinks import signer_for
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine


@pytest.mark.parametrize(
    "last_id",
    [
        None,  # a new viewer
        # a browser reconnecting names the last id the stopped process gave: this process never
        # gave it (its ids start at its own start time), so the viewer gets the snapshot, not silence
        50,
    ],
)
async def test_a_new_process_shows_the_question_its_run_left_open(tmp_path: Path, last_id: int | None):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        assert (await engine.start(group(), "pipeline", player(1, "Ann"))).status is StartStatus.STARTED
        clock.advance(5)
        await engine.run_due()
        asked = adapter.questions[-1]
    finally:
        await store.close()

    store, _, engine, _ = await shipped_engine(tmp_path / "quizhost.db")
    try:
        await engine.resume()
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events", last_id=last_id) as stream:
                (shown,) = await seen(stream, "question", 1)
                assert shown.data["prompt"] == asked.prompt and shown.data["number"] == 1
    finally:
        await store.close()
