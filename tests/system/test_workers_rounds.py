"""A quiz of rounds with two workers on one PostgreSQL database: a press taken by the worker
that does not run the quiz earns the round's multiplied points too, and the owner tells the
chat each round's name and the standings between them."""

from __future__ import annotations

import asyncio

import pytest
import yaml

from bot.content.catalog import Catalog
from bot.content.quiz_check import check_quiz_data
from bot.domain.model import Quiz
from bot.engine.core import EngineSettings
from bot.engine.workers import LeaseKeeper
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres.store import PostgresStore
from tests.engine.test_question_kinds import token_of
from tests.support.house import build, house_of
from tests.system.test_workers_kinds import revealed

pytestmark = pytest.mark.postgres

NIGHT = """\
id: night
title: Night
description: Two rounds, the second worth double.
rounds:
  - name: Warm-up
    questions:
      - {id: sun, prompt: "Nearest star?", options: [The Sun, Sirius], answer: 0}
  - name: Double
    multiplier: 2
    questions:
      - {id: legs, prompt: "Legs of a spider?", options: [Six, Eight], answer: 1}
"""


def night() -> Quiz:
    model, issues = check_quiz_data(yaml.safe_load(NIGHT))
    assert model is not None, issues
    return model.to_quiz()


async def start_worker(url: str, clock, name: str, listening: list[asyncio.Task]):
    store = await PostgresStore.open(url, owner=name)
    engine = build(Catalog.from_quizzes([night()]), store, clock, EngineSettings(question_seconds=30)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    keeper = LeaseKeeper.of(engine, store, house_of(engine).sender)
    assert keeper is not None and keeper.wakeups is not None
    await keeper.start()
    listening.append(asyncio.create_task(keeper.wakeups.serve()))
    return engine, adapter, store


@pytest.fixture
async def workers(postgres_url, clock):
    listening: list[asyncio.Task] = []
    pair = (
        await start_worker(postgres_url, clock, "worker-a", listening),
        await start_worker(postgres_url, clock, "worker-b", listening),
    )
    yield pair
    for task in listening:
        task.cancel()
    await asyncio.gather(*listening, return_exceptions=True)
    for _, _, store in pair:
        await store.close()


async def test_a_press_through_the_other_worker_earns_the_rounds_multiplied_points(workers, clock):
    (a, a_adapter, a_store), (b, _, _) = workers
    chat, ann, bob = group(), player(1, "Ann"), player(2, "Bob")
    await a.start(chat, "night", ann)
    clock.advance(5)
    await a.run_due()
    assert (await b.answer(token_of(a_adapter.questions[-1], "The Sun"), bob, chat)).accepted
    assert (await a.answer(token_of(a_adapter.questions[-1], "Sirius"), ann, chat)).accepted
    clock.advance(30)  # the first question waits for its deadline: nobody is known yet
    await revealed(a, a_adapter, 1)
    clock.advance(5)
    await a.run_due()
    assert (await b.answer(token_of(a_adapter.questions[-1], "Eight"), bob, chat)).accepted  # at once
    assert (await a.answer(token_of(a_adapter.questions[-1], "Six"), ann, chat)).accepted
    await revealed(a, a_adapter, 2)
    _, reveal = a_adapter.reveals[-1]
    # Bob's second right answer in a row: (1000 + 100 of the streak bonus) × 2
    assert [(s.name, s.points) for s in reveal.answers if s.correct] == [("Bob", 2200)]
    said = [(reply.title, reply.text.splitlines()[0]) for _, reply in a_adapter.sent]
    assert said == [
        ("", "Round 1 of 2: Warm-up"),
        ("📊 Standings after Warm-up", "🥇 Bob: 1000 pts · 1/1 right · 100%"),
        ("", "Round 2 of 2: Double · points ×2"),
        ("🏁 Quiz over: Night", "🥇 Bob: 3200 pts · 2/2 right · 100%"),
    ]
    board = await a_store.leaderboard(chat.key)
    assert [(s.name, s.points) for s in board] == [("Bob", 1000 + 2200), ("Ann", 0)]
