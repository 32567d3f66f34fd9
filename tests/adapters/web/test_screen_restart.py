"""The big screen after a restart on SQLite: events live in the process's memory, so the new
process shows the question still open as it takes its run up again."""

from __future__ import annotations

from pathlib import Path

from bot.commands.weblinks import signer_for
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine


async def test_a_new_process_shows_the_question_its_run_left_open(tmp_path: Path):
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
            async with following(f"{page}events") as stream:
                (shown,) = await seen(stream, "question", 1)
                assert shown.data["prompt"] == asked.prompt and shown.data["number"] == 1
    finally:
        await store.close()


async def test_a_screen_reconnecting_with_an_id_of_the_old_process_shows_the_question(tmp_path: Path):
    """The browser names the last id the stopped process gave; this one numbers from 1 again, so
    that id is one it never gave: the viewer gets the snapshot, not silence until ids catch up."""
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
            async with following(f"{page}events", last_id=50) as stream:
                (shown,) = await seen(stream, "question", 1)
                assert shown.data["prompt"] == asked.prompt and shown.data["number"] == 1
    finally:
        await store.close()
