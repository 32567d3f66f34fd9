"""Kinds of question with two workers on one PostgreSQL database: a select-all-that-apply
question's picks toggled through the worker that does not run the quiz, a "Done" pressed there,
and a typed answer taken there, all counted by the owner at the close."""

from __future__ import annotations

import asyncio

import pytest

from bot.content.catalog import Catalog
from bot.engine.core import Engine, EngineSettings
from bot.engine.workers import LeaseKeeper
from bot.testing.fakes import RecordingAdapter, group, player, private
from storage.postgres.store import PostgresStore
from tests.engine.test_question_kinds import QUESTIONS, kinds_quiz, letter_of, token_of
from tests.support.house import build, house_of

pytestmark = pytest.mark.postgres

QUIZ = kinds_quiz(QUESTIONS[0], QUESTIONS[2], QUESTIONS[5])  # multi (partial), typed, choice


async def start_worker(
    url: str, clock, name: str, listening: list[asyncio.Task]
) -> tuple[Engine, RecordingAdapter, PostgresStore]:
    store = await PostgresStore.open(url, owner=name)
    engine = build(
        Catalog.from_quizzes([QUIZ]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    keeper = LeaseKeeper.of(engine, store, house_of(engine).sender)
    assert keeper is not None and keeper.wakeups is not None
    await keeper.start()
    listening.append(asyncio.create_task(keeper.wakeups.serve()))  # wake-ups from the other worker
    return engine, adapter, store


async def revealed(engine: Engine, adapter: RecordingAdapter, count: int) -> None:
    """Wait until the owner has closed `count` questions: a press through the other worker wakes
    it through the database (LISTEN/NOTIFY), in real time."""
    for _ in range(100):
        await engine.run_due()
        if len(adapter.reveals) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(adapter.reveals)} questions closed, not {count}")


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


async def test_picks_and_typed_answers_taken_by_another_worker_count_at_the_close(workers, clock):
    (a, a_adapter, a_store), (b, _, _) = workers
    chat, ann, bob = group(), player(1, "Ann"), player(2, "Bob")
    await a.start(chat, "kinds", ann)
    clock.advance(5)
    await a.run_due()
    card = a_adapter.questions[-1]
    assert (await a.answer(token_of(card, "2"), ann, chat)).accepted
    for text, worker in (("2", b), ("4", a), ("5", b), ("4", a)):  # Bob's presses reach either worker
        ack = await worker.answer(token_of(card, text), bob, chat)
        assert ack.accepted
    assert ack.text == f"Your picks: {', '.join(sorted(letter_of(card, t) for t in ('2', '5')))}"
    clock.advance(30)
    await a.run_due()
    _, reveal = a_adapter.reveals[-1]
    assert sorted((s.name, s.correct, s.points) for s in reveal.answers) == [("Ann", False, 500), ("Bob", True, 1000)]

    clock.advance(5)
    await a.run_due()
    typed = a_adapter.questions[-1]
    took = await b.answer_text(chat, bob, "Zurich", reply_to=f"m{len(a_adapter.questions)}")
    assert took is not None and took.accepted and took.text == "Locked in: Zurich"
    again = await b.answer_text(chat, bob, "Basel")
    assert not again.accepted and again.text == "You already answered: Zurich"
    assert await b.answer_text(chat, bob, "just chatting", reply_to="elsewhere") is None
    assert (await a.answer_text(chat, ann, "Bern", run_id=typed.run_id, number=2)).accepted
    await revealed(a, a_adapter, 2)  # both known players answered: it closes early, once A is woken
    _, reveal = a_adapter.reveals[-1]
    assert sorted((s.name, s.letter, s.correct) for s in reveal.answers) == [
        ("Ann", "Bern", False),
        ("Bob", "Zurich", True),
    ]
    board = await a_store.leaderboard(chat.key)
    assert [(s.name, s.correct, s.answered) for s in board] == [("Bob", 2, 2), ("Ann", 0, 2)]


async def test_done_through_another_worker_closes_a_private_question(workers, clock):
    (a, a_adapter, _), (b, _, _) = workers
    chat, ann = private(), player(1, "Ann")
    await a.start(chat, "kinds", ann)
    clock.advance(5)
    await a.run_due()
    card = a_adapter.questions[-1]
    for text in ("2", "5"):
        assert (await b.answer(token_of(card, text), ann, chat)).accepted
    assert card.done_token is not None
    done = await b.answer(card.done_token, ann, chat)
    assert done.accepted and done.text.startswith("Your answer: ")
    await revealed(a, a_adapter, 1)
    _, reveal = a_adapter.reveals[-1]
    assert [(s.correct, s.points) for s in reveal.answers] == [(True, 1000)]
