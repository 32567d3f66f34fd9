"""Wake-ups between workers on one PostgreSQL database: presses and /stop that worker B takes
for a quiz worker A runs reach A through LISTEN/NOTIFY, and a /stop reaches it even when the
wake-up is lost (A's listening connection cut) through A's lease renewal."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest

from bot.commands.core import Caller
from bot.testing.fakes import player, private
from storage.postgres.wakeups import APPLICATION
from tests.support.house import house_of
from tests.system.test_workers import CHATS, QUIZ, Worker, workers  # noqa: F401 (workers: A and B on one database)

pytestmark = pytest.mark.postgres

CHAT = CHATS[0]
PLAYERS = range(1, 7)
WAIT = 10.0  # real seconds a test waits for another task before it fails (it takes milliseconds)


async def until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def serving(worker: Worker, renew_every: float = 3600.0) -> AsyncIterator[None]:
    """The worker's timer loop, sender, lease renewal (every `renew_every` s) and wake-ups."""
    worker.keeper.every = renew_every
    tasks = [asyncio.create_task(worker.engine.serve()), asyncio.create_task(worker.keeper.serve())]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def listeners(url: str) -> list[int]:
    """The server processes of the workers' wake-up connections that have said LISTEN."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'", APPLICATION
        )
        return [row["pid"] for row in rows]
    finally:
        await conn.close()


async def listening(url: str, other_than: tuple[int, ...] = ()) -> list[int]:
    deadline = time.monotonic() + WAIT
    while not (found := await listeners(url)) or tuple(found) == other_than:
        assert time.monotonic() < deadline, "no worker listens for wake-ups"
        await asyncio.sleep(0.01)
    return found


def podiums(worker: Worker) -> list[str]:
    return [reply.title for _, reply in worker.adapter.sent if reply.kind == "podium"]


async def stop_on(worker: Worker, n: int, admin: bool = False) -> str:
    reply = await house_of(worker.engine).commands.handle("stop", "", Caller(CHAT, player(n), is_admin=admin))
    return reply.text


async def second_question_on(a: Worker, clock) -> None:
    """A runs a quiz: six players answer question 1 (a group's first question waits for its
    deadline: nobody is known yet), then question 2 is shown."""
    await a.engine.start(CHAT, "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()
    right = a.adapter.token(a.adapter.right_letter(QUIZ))
    for n in PLAYERS:
        assert (await a.engine.answer(right, player(n), CHAT)).accepted
    clock.advance(30)
    await a.engine.run_due()
    clock.advance(5)
    await a.engine.run_due()
    assert [card.number for card in a.adapter.questions] == [1, 2]


async def test_when_every_player_answered_through_another_worker_the_owner_closes_early(workers, clock, postgres_url):
    a, b = workers
    await second_question_on(a, clock)
    card = a.adapter.questions[-1]
    right = a.adapter.right_letter(QUIZ, card)
    async with serving(a):
        await listening(postgres_url)
        for n in PLAYERS[:-1]:
            assert (await b.engine.answer(a.adapter.token(right, card), player(n), CHAT)).accepted
        await asyncio.sleep(0.1)  # time enough for a wrong early close to show
        assert len(a.adapter.reveals) == 1, "one player has not answered: question 2 stays open"
        pressed = time.perf_counter()
        assert (await b.engine.answer(a.adapter.token(right, card), player(PLAYERS[-1]), CHAT)).accepted
        await until(lambda: len(a.adapter.reveals) == 2, "A to close question 2")
        print(f"\npress on B -> A's early close: {(time.perf_counter() - pressed) * 1000:.1f} ms")
    assert clock.now() < card.deadline, "closed before its deadline, the game clock never moved"
    _, reveal = a.adapter.reveals[-1]
    assert sorted((s.name, s.correct) for s in reveal.answers) == [(f"Player {n}", True) for n in PLAYERS]
    assert b.adapter.reveals == [] and b.adapter.sent == [], "only the owner posts in the chat"
    board = await a.store.leaderboard(CHAT.key)
    assert sorted((s.player_key, s.answered, s.correct) for s in board) == [(player(n).key, 2, 2) for n in PLAYERS]


async def test_stop_on_another_worker_stops_the_quiz_and_its_podium_is_posted_once(workers, clock):
    a, b = workers
    await second_question_on(a, clock)
    async with serving(a):
        assert await stop_on(b, 2) == "Only the person who started this quiz or a chat admin can stop it."
        assert await stop_on(b, 1) == "Quiz stopped by Player 1. Answers so far count."
        await until(lambda: podiums(a), "A's podium")
        assert await stop_on(b, 1) == "No quiz is running here. Start one with /quiz."
        await a.keeper.tick()  # the stop request is still in the table: it must not stop anything twice
    assert podiums(a) == ["⏹ Quiz stopped: Demo quiz"]
    assert len(a.adapter.reveals) == 2, "question 2, open when stopped, is revealed"
    assert a.engine.open_runs() == [] and await a.store.open_runs() == []
    assert b.adapter.sent == [], "only the owner posts in the chat"


async def test_a_stop_whose_wake_up_was_lost_arrives_with_the_lease_renewal(workers, clock):
    a, b = workers
    await second_question_on(a, clock)  # A does not listen at all here
    assert await stop_on(b, 3, admin=True) == "Quiz stopped by Player 3. Answers so far count."
    assert podiums(a) == []
    await a.keeper.tick()
    assert podiums(a) == ["⏹ Quiz stopped: Demo quiz"]


async def test_a_cut_listening_connection_still_gets_the_stop_and_connects_again(workers, clock, postgres_url):
    a, b = workers
    await second_question_on(a, clock)
    async with serving(a, renew_every=0.2):
        found = await listening(postgres_url)
        conn = await asyncpg.connect(postgres_url)
        try:
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", found[0])
        finally:
            await conn.close()
        assert await stop_on(b, 1) == "Quiz stopped by Player 1. Answers so far count."
        await until(lambda: podiums(a), "A's podium")
        again = await listening(postgres_url, other_than=tuple(found))
    assert podiums(a) == ["⏹ Quiz stopped: Demo quiz"]
    assert again != found


async def test_a_private_chat_closes_at_the_first_press_through_another_worker(workers, clock):
    a, b = workers
    await a.engine.start(private(), "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()
    async with serving(a):
        assert (await b.engine.answer(a.adapter.token("B"), player(1), private())).accepted
        await until(lambda: len(a.adapter.reveals) == 1, "A to close the question")
    assert clock.now() < a.adapter.questions[0].deadline
