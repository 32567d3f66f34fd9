"""The outbox with several workers on one PostgreSQL database: each owed message is held by one
worker, so two live workers never both send it, and a dead worker's messages are sent by a
live one once its leases run out (or at once when it stopped cleanly)."""

from __future__ import annotations

import asyncio

import pytest

from bot.testing.fakes import player
from tests.support.house import house_of
from tests.system.test_workers import CHATS, LEASE, QUIZ, Worker, start_worker

pytestmark = pytest.mark.postgres

CHAT = CHATS[0]


def seen(worker: Worker) -> list[str]:
    """What the worker posted in the chats: questions, reveals and podiums, in order."""
    return (
        [f"question {card.number}" for card in worker.adapter.questions]
        + [f"reveal {reveal.card.number}" for _, reveal in worker.adapter.reveals]
        + [reply.title for _, reply in worker.adapter.sent]
    )


async def quiz_ending_while_its_platform_is_down(postgres_url: str, clock) -> Worker:
    """Worker A runs a one-question quiz to its end while the platform refuses every call:
    the reveal and the podium are owed, stored in the outbox, held by A."""
    a = await start_worker(postgres_url, clock, "worker-a")
    await a.engine.start_quiz(CHAT, QUIZ, player(1), questions=(QUIZ.questions[0].id,))
    clock.advance(5)
    await a.engine.run_due()
    assert (await a.engine.answer(a.adapter.token(a.adapter.right_letter(QUIZ)), player(1), CHAT)).accepted
    a.adapter.down = lambda: True
    clock.advance(30)
    await a.engine.run_due()
    assert a.engine.open_runs() == [] and a.adapter.refused
    assert len(await a.store.outbox()) == 2
    return a


async def send_what_is_owed(clock, *workers: Worker) -> None:
    clock.advance(60)  # past any back-off of the tries that failed
    for worker in workers:
        await house_of(worker.engine).sender.flush_due()


async def test_a_dead_workers_owed_messages_are_sent_once_by_one_of_the_live_ones(postgres_url, clock):
    a = await quiz_ending_while_its_platform_is_down(postgres_url, clock)  # ...and A dies here
    b = await start_worker(postgres_url, clock, "worker-b")
    c = await start_worker(postgres_url, clock, "worker-c")
    try:
        await asyncio.gather(b.keeper.tick(), c.keeper.tick())
        await send_what_is_owed(clock, b, c)
        assert seen(b) == seen(c) == [], "A's hold has not run out: A may still send them"
        await asyncio.sleep(LEASE * 3)  # by the database's clock
        await asyncio.gather(b.keeper.tick(), c.keeper.tick())
        await send_what_is_owed(clock, b, c)
        assert sorted(seen(b) + seen(c)) == ["reveal 1", "🏁 Quiz over: Demo quiz"]
        await asyncio.gather(b.keeper.tick(), c.keeper.tick())
        await send_what_is_owed(clock, b, c)
        assert len(seen(b) + seen(c)) == 2, "sent once"
        assert await b.store.outbox() == []
    finally:
        for worker in (a, b, c):
            await worker.store.close()


async def test_a_live_worker_keeps_its_owed_messages_and_sends_them_itself(postgres_url, clock):
    a = await quiz_ending_while_its_platform_is_down(postgres_url, clock)
    b = await start_worker(postgres_url, clock, "worker-b")
    try:
        for _ in range(3):
            await asyncio.sleep(LEASE)
            await a.keeper.tick()  # A renews its hold
            await b.keeper.tick()
        await send_what_is_owed(clock, b)
        assert seen(b) == []
        a.adapter.down = lambda: False
        await send_what_is_owed(clock, a)
        assert seen(a) == ["question 1", "reveal 1", "🏁 Quiz over: Demo quiz"]
    finally:
        for worker in (a, b):
            await worker.store.close()


async def test_a_cleanly_stopped_workers_owed_messages_go_to_another_at_once(postgres_url, clock):
    a = await quiz_ending_while_its_platform_is_down(postgres_url, clock)
    b = await start_worker(postgres_url, clock, "worker-b")
    try:
        await a.store.close()  # a deploy: A lets its runs and messages go
        await b.keeper.tick()
        await send_what_is_owed(clock, b)
        assert seen(b) == ["reveal 1", "🏁 Quiz over: Demo quiz"]
    finally:
        await b.store.close()


async def test_a_worker_restarted_under_its_name_sends_its_own_owed_messages_at_once(postgres_url, clock):
    a = await quiz_ending_while_its_platform_is_down(postgres_url, clock)  # killed: its hold stays
    again = await start_worker(postgres_url, clock, "worker-a")
    try:
        await send_what_is_owed(clock, again)
        assert seen(again) == ["reveal 1", "🏁 Quiz over: Demo quiz"]
    finally:
        for worker in (a, again):
            await worker.store.close()
