"""The big screen costs nothing until someone opens it: a run nobody watches publishes nothing
and keeps no backlog; the first viewer of a chat gets its open question at once; a viewer who
drops out and comes back within the grace resumes after the last event it saw. On SQLite (one
process: the bus in memory, its grace on the engine's clock) and between two PostgreSQL workers
(nothing written to live_events until a viewer on the other worker opens the screen)."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from bot.commands.weblinks import signer_for
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres.store import PostgresStore
from tests.support.house import build
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine

ANN = player(1, "Ann")


async def test_a_screen_opened_mid_game_shows_the_question_then_resumes_after_a_drop(tmp_path: Path):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        assert (await engine.start(group(), "pipeline", ANN)).status is StartStatus.STARTED
        clock.advance(5)
        await engine.run_due()
        assert (await engine.answer(adapter.token("A"), ANN, group())).accepted
        clock.advance(30)
        await engine.run_due()  # the first question closed, nobody watching
        clock.advance(5)
        await engine.run_due()
        second = adapter.questions[-1]
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events", last_id=0) as stream:
                (asked,) = await seen(stream, "question", 1)
                assert asked.data["prompt"] == second.prompt and asked.data["number"] == 2
                assert [e.kind for e in stream.events] == ["question"], "nothing was kept from before"

            assert (await engine.answer(adapter.token("B", second), ANN, group())).accepted
            clock.advance(30)  # within the grace: the screen's chat is still followed
            await engine.run_due()
            async with following(f"{page}events", last_id=asked.id) as stream:
                (closed,) = await seen(stream, "closed", 1)
                assert closed.data["number"] == 2 and closed.id > asked.id
                assert all(e.id > asked.id for e in stream.events)
                assert "question" not in [e.kind for e in stream.events], "resumed, not shown again"
    finally:
        await store.close()


async def test_a_screen_opened_between_two_questions_shows_the_standings(tmp_path: Path):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        assert (await engine.start(group(), "pipeline", ANN)).status is StartStatus.STARTED
        clock.advance(5)
        await engine.run_due()
        assert (await engine.answer(adapter.token(adapter.right_letter(pipeline())), ANN, group())).accepted
        clock.advance(30)
        await engine.run_due()  # closed; the next question comes after the pause
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                (board,) = await seen(stream, "round", 1)
                assert [(row["name"], row["rank"]) for row in board.data["standings"]] == [("Ann", 1)]
                assert board.data["standings"][0]["points"] > 0
                clock.advance(5)
                await engine.run_due()
                (asked,) = await seen(stream, "question", 1)
                assert asked.data["number"] == 2 and asked.id > board.id
    finally:
        await store.close()


def pipeline() -> Quiz:
    quiz = Catalog.load(default_quiz_folders()).get("pipeline")
    assert quiz is not None
    return quiz


@pytest.mark.postgres
async def test_a_run_on_one_worker_writes_nothing_until_a_screen_opens_on_the_other(postgres_url):
    catalog = Catalog.load(default_quiz_folders())
    clock = FakeClock()
    settings = EngineSettings(question_seconds=30, pause_seconds=5)
    first = await PostgresStore.open(postgres_url, owner="w1")
    second = await PostgresStore.open(postgres_url, owner="w2")
    db = await asyncpg.connect(postgres_url)
    try:
        running = build(catalog, first, clock, settings)
        watching = build(catalog, second, clock, settings)
        adapter = RecordingAdapter()
        running.engine.attach(adapter)
        assert (await running.engine.start(group(), "pipeline", ANN)).status is StartStatus.STARTED
        clock.advance(5)
        await running.engine.run_due()
        assert (await running.engine.answer(adapter.token("A"), ANN, group())).accepted
        clock.advance(30)
        await running.engine.run_due()
        clock.advance(5)
        await running.engine.run_due()
        second_card = adapter.questions[-1]
        assert await db.fetchval("SELECT count(*) FROM live_events") == 0, "nobody watched: nothing written"

        async with serving(watching.engine) as site:
            page = (await signer_for(second)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                (asked,) = await seen(stream, "question", 1)
                assert asked.data["prompt"] == second_card.prompt and asked.data["number"] == 2
                assert (await running.engine.answer(adapter.token("B", second_card), ANN, group())).accepted
                clock.advance(30)
                await running.engine.run_due()
                (closed,) = await seen(stream, "closed", 1)
                assert closed.data["number"] == 2 and closed.id > asked.id
    finally:
        await db.close()
        await first.close()
        await second.close()
