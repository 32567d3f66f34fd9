"""A hosted game with two workers on one PostgreSQL database: the host's actions reach the
worker that runs the game through the other one (stored, the owner woken), and a pause keeps
the question's time left when the game moves to the other worker."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.hosting import HostAction
from bot.testing.fakes import group, player
from tests.system.test_workers import CHATS, QUIZ, start_worker

pytestmark = pytest.mark.postgres

HOST = player(1, "Ann")


@pytest.fixture
async def workers(postgres_url, clock):
    pair = (await start_worker(postgres_url, clock, "worker-a"), await start_worker(postgres_url, clock, "worker-b"))
    yield pair
    for worker in pair:
        await worker.store.close()


async def until(condition, what: str) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


async def stored(worker, chat, condition, what: str) -> None:
    """Until the run as the database has it (what another worker reads) meets `condition`."""
    for _ in range(500):
        row = await worker.store.chat_run(chat.key)
        if row is not None and condition(row):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never stored: {what}")


async def test_the_hosts_actions_through_another_worker_reach_the_owner(workers, clock):
    a, b = workers
    chat = CHATS[0]
    listening = asyncio.create_task(a.keeper.wakeups.serve()) if a.keeper.wakeups else None
    try:
        await a.engine.start(chat, "demo", HOST, hosted=True, seconds=30)
        clock.advance(600)
        await a.engine.run_due()
        assert a.adapter.questions == [], "a hosted game waits for its host"
        assert "Next." in (await b.engine.host(chat, HostAction.NEXT, HOST, False)).text
        await until(lambda: bool(a.adapter.questions), "question 1 posted by the owner")
        run = a.engine.run_in(chat)
        assert run is not None and b.engine.run_in(chat) is None, "the owner runs it, not B"

        clock.advance(10)
        refused = await b.engine.host(chat, HostAction.NEXT, player(2), False)
        assert "Only the host" in refused.text
        await b.engine.host(chat, HostAction.PAUSE, HOST, False)
        await until(lambda: run.row.paused_left is not None, "the pause applied by the owner")
        assert run.row.paused_left == pytest.approx(20, abs=0.2)
        await stored(b, chat, lambda row: row.paused_left is not None, "the pause")
        card = a.adapter.questions[-1]
        pressed = await b.engine.answer(a.adapter.token(a.adapter.right_letter(QUIZ, card), card), player(3), chat)
        assert not pressed.accepted and "paused" in pressed.text, "a paused question takes no press on any worker"

        clock.advance(300)
        await b.engine.host(chat, HostAction.RESUME, HOST, False)
        await until(lambda: run.row.paused_left is None, "the resume applied by the owner")
        assert run.row.due - clock.now() == pytest.approx(20, abs=0.2)
        await b.engine.host(chat, HostAction.END, HOST, False)
        await until(lambda: a.engine.run_in(chat) is None, "the game ended by the owner")
    finally:
        if listening is not None:
            listening.cancel()


async def test_a_paused_game_keeps_its_time_left_on_the_worker_that_takes_it_over(workers, clock):
    a, b = workers
    chat = CHATS[1]
    await a.engine.start(chat, "demo", HOST, hosted=True, seconds=30)
    await a.engine.host(chat, HostAction.NEXT, HOST, False)
    await a.engine.run_due()
    clock.advance(7)
    await a.engine.host(chat, HostAction.PAUSE, HOST, False)
    await a.store.close()  # a deploy: SIGTERM, the store lets A's runs go
    await b.keeper.tick()  # B takes the game over
    run = b.engine.run_in(chat)
    assert run is not None and run.row.paused_left == pytest.approx(23, abs=0.2)
    clock.advance(3600)
    await b.engine.host(chat, HostAction.RESUME, HOST, False)
    assert run.row.due - clock.now() == pytest.approx(23, abs=0.2)


async def test_a_press_through_another_worker_that_races_the_pause_is_told_the_game_is_paused(workers, clock):
    a, b = workers
    chat = group("g3")
    await a.engine.start(chat, "demo", HOST, hosted=True, seconds=30)
    await a.engine.host(chat, HostAction.NEXT, HOST, False)
    await a.engine.run_due()
    card = a.adapter.questions[-1]
    inserting = b.store.insert_answer_if_asking

    async def after_the_pause(*args, **kwargs):  # the host pauses between the press's read and its insert
        await a.engine.host(chat, HostAction.PAUSE, HOST, False)
        return await inserting(*args, **kwargs)

    b.store.insert_answer_if_asking = after_the_pause  # type: ignore[method-assign]
    pressed = await b.engine.answer(a.adapter.token(a.adapter.right_letter(QUIZ, card), card), player(3), chat)
    assert not pressed.accepted and "paused" in pressed.text, "not 'closed': the game goes on once resumed"
