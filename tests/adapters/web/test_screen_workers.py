"""The big screen with two workers on one PostgreSQL database: worker 1 runs the quiz, a viewer
follows the chat's screen on worker 2's pages and sees each event, through the table and
LISTEN/NOTIFY, as a projector behind a load balancer would."""

from __future__ import annotations

import pytest

from bot.commands.weblinks import signer_for
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres.store import PostgresStore
from tests.support.house import build
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving

pytestmark = pytest.mark.postgres


async def test_an_event_published_on_one_worker_reaches_a_viewer_on_the_other(postgres_url):
    catalog = Catalog.load(default_quiz_folders())
    quiz = catalog.get("pipeline")
    assert quiz is not None
    clock = FakeClock()
    settings = EngineSettings(question_seconds=30, pause_seconds=5)
    first = await PostgresStore.open(postgres_url, owner="w1")
    second = await PostgresStore.open(postgres_url, owner="w2")
    try:
        running = build(catalog, first, clock, settings)
        watching = build(catalog, second, clock, settings)
        adapter = RecordingAdapter()
        running.engine.attach(adapter)
        async with serving(watching.engine) as site:
            signer = (await signer_for(second)).at(site.base)
            page = signer.screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                ann = player(1, "Ann")
                assert (await running.engine.start(group(), quiz.id, ann)).status is StartStatus.STARTED
                clock.advance(5)
                await running.engine.run_due()
                card = adapter.questions[-1]
                (asked,) = await seen(stream, "question", 1)
                assert asked.data["prompt"] == card.prompt and asked.data["number"] == 1
                assert "right_letter" not in stream.raw
                right = adapter.right_letter(quiz, card)
                assert (await running.engine.answer(adapter.token(right, card), ann, group())).accepted
                clock.advance(30)
                await running.engine.run_due()
                (closed,) = await seen(stream, "closed", 1)
                assert closed.data["right_letter"] == right and closed.data["top"][0]["name"] == "Ann"
                assert closed.id > asked.id
    finally:
        await first.close()
        await second.close()
