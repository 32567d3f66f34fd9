"""An ordering question with two workers on one PostgreSQL database: a group's orders placed
through the worker that does not run the quiz. An order left incomplete never closes the
question early; the press that completes the last known player's order wakes the owner, who
closes it then, not at its deadline."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.core import Engine
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres import wakeups as pg_wakeups
from tests.engine.test_question_kinds import kinds_quiz, token_of
from tests.system import test_workers_kinds
from tests.system.test_workers_kinds import revealed, start_worker

pytestmark = pytest.mark.postgres

PLANETS = ["Mercury", "Venus", "Earth"]
ORDER = {"kind": "ordering", "prompt": "From the Sun outwards?", "options": PLANETS}
QUIZ = kinds_quiz({"id": "first", **ORDER}, {"id": "second", **ORDER})
ANN, BOB = player(1, "Ann"), player(2, "Bob")


@pytest.fixture
async def workers(postgres_url, clock, monkeypatch):
    monkeypatch.setattr(test_workers_kinds, "QUIZ", QUIZ)
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


async def place(worker: Engine, card, who, texts: list[str]) -> None:
    for text in texts:
        ack = await worker.answer(token_of(card, text), who, group())
        assert ack.accepted, ack.text


async def still_open(engine: Engine, adapter: RecordingAdapter, count: int) -> None:
    """Give the owner time to act on any wake-up; the question must still be open."""
    for _ in range(10):
        await engine.run_due()
        await asyncio.sleep(0.05)
    assert len(adapter.reveals) == count, "an incomplete order closed the question early"


async def test_an_order_completed_through_another_worker_closes_the_group_question(workers, clock, postgres_url):
    (a, a_adapter, _), (b, _, _) = workers
    woken: list[int | None] = []  # the owner's wake-ups, as the database delivers them
    listening = asyncio.create_task(pg_wakeups.listen(postgres_url, woken.append))
    await a.start(group(), "kinds", ANN)
    clock.advance(5)
    await a.run_due()
    first = a_adapter.questions[-1]
    await place(a, first, ANN, PLANETS)
    await place(b, first, BOB, PLANETS[:1])  # Bob is known: he answered the first question
    clock.advance(30)
    await a.run_due()
    clock.advance(5)
    await a.run_due()
    second = a_adapter.questions[-1]

    await place(a, second, ANN, PLANETS)
    woken.clear()
    await place(b, second, BOB, ["Earth", "Venus"])
    await still_open(a, a_adapter, 1)
    await place(b, second, BOB, ["Venus"])  # taken back: still incomplete
    await still_open(a, a_adapter, 1)
    assert second.run_id not in woken, "an incomplete order cannot close the question: no wake-up"
    await place(b, second, BOB, ["Venus", "Mercury"])  # Earth → Venus → Mercury: complete
    await revealed(a, a_adapter, 2)  # early: the clock has not reached the deadline
    _, reveal = a_adapter.reveals[-1]
    assert sorted((s.name, s.correct) for s in reveal.answers) == [("Ann", True), ("Bob", False)]
    assert second.run_id in woken
    listening.cancel()
    await asyncio.gather(listening, return_exceptions=True)
