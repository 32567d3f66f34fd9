"""Several workers on one PostgreSQL database: a worker that dies loses no quiz (another takes
its runs over when their leases run out, by the database's clock), a worker that stops cleanly
hands its runs over at once, and a worker that lost a run cannot overwrite it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

import asyncpg
import pytest

from bot.content.catalog import Catalog
from bot.domain.records import Phase
from bot.engine.core import Engine, EngineSettings
from bot.engine.workers import LeaseKeeper
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from storage.postgres.store import PostgresStore
from tests.support.house import build, house_of

pytestmark = pytest.mark.postgres

LEASE = 0.5  # seconds; a real worker holds 15
QUIZ = make_quiz()
CHATS = [group("g1"), group("g2")]


@dataclass
class Worker:
    engine: Engine
    adapter: RecordingAdapter
    keeper: LeaseKeeper
    store: PostgresStore


async def start_worker(url: str, clock, name: str) -> Worker:
    store = await PostgresStore.open(url, owner=name)
    store.lease_seconds = LEASE
    engine = build(
        Catalog.from_quizzes([QUIZ]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    keeper = LeaseKeeper.of(engine, store, house_of(engine).sender)
    assert keeper is not None, "a PostgreSQL store leases its runs"
    await keeper.start()
    return Worker(engine, adapter, keeper, store)


async def press_everyone(worker: Worker, players: range) -> int:
    """Each player presses the right answer in every chat's open question; acknowledged presses."""
    acked = 0
    for card in worker.adapter.questions[-len(CHATS) :]:
        for n in players:
            ack = await worker.engine.answer(
                worker.adapter.token(worker.adapter.right_letter(QUIZ, card), card), player(n)
            )
            acked += ack.accepted
    return acked


@pytest.fixture
async def workers(postgres_url, clock):
    """Two workers on one database, A started first."""
    pair = (await start_worker(postgres_url, clock, "worker-a"), await start_worker(postgres_url, clock, "worker-b"))
    yield pair
    for worker in pair:
        await worker.store.close()


async def test_a_dead_workers_quizzes_are_taken_over_and_finish_with_every_acknowledged_press(workers, clock):
    a, b = workers
    for chat in CHATS:
        await a.engine.start(chat, "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()  # question 1 in both chats, posted by A
    assert await press_everyone(a, range(1, 4)) == 6
    await a.keeper.tick()  # A's last renewal: on a busy machine the steps above outlast a lease

    # A dies here: it never renews again. B holds nothing until A's leases run out.
    await b.keeper.tick()
    assert b.engine.open_runs() == []
    await asyncio.sleep(LEASE * 3)  # by the database's clock
    await b.keeper.tick()
    assert len(b.engine.open_runs()) == 2 and b.keeper.taken_over == 2

    clock.advance(30)
    await b.engine.run_due()  # B closes question 1 over the answers A acknowledged
    assert [len(reveal.answers) for _, reveal in b.adapter.reveals] == [3, 3]
    for _ in range(len(QUIZ.questions) - 1):
        clock.advance(5)
        await b.engine.run_due()
        assert await press_everyone(b, range(1, 4)) == 6
        clock.advance(30)
        await b.engine.run_due()
    assert b.engine.open_runs() == [] and len(b.adapter.questions) == 2 * (len(QUIZ.questions) - 1)
    for chat in CHATS:  # every acknowledged press counted once
        board = await b.store.leaderboard(chat.key)
        assert [(s.player_key, s.answered) for s in board] == [(player(n).key, len(QUIZ.questions)) for n in (1, 2, 3)]

    await a.keeper.tick()  # A, back from the dead, learns the runs are not its own any more
    assert a.engine.open_runs() == []


async def test_a_worker_that_stops_cleanly_hands_its_quizzes_over_at_once(workers, clock):
    a, b = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    await b.keeper.tick()
    assert b.engine.open_runs() == [], "A holds its run"
    await a.store.close()  # a deploy: SIGTERM, the store lets A's runs go
    await b.keeper.tick()
    assert [r.row.chat_key for r in b.engine.open_runs()] == [CHATS[0].key]
    clock.advance(5)
    await b.engine.run_due()
    assert b.adapter.questions[-1].number == 1, "B asks the first question"


async def test_a_worker_that_lost_a_run_cannot_overwrite_its_state(workers, clock):
    a, b = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    stale = replace(a.engine.open_runs()[0].row)
    await asyncio.sleep(LEASE * 3)
    await b.keeper.tick()
    clock.advance(5)
    await b.engine.run_due()  # B asks question 1 and stores that
    await a.store.save_run(stale)  # A still believes it is pausing before question 1
    (row,) = await b.store.open_runs()
    assert (row.phase, row.index) == (Phase.ASKING, 0)


async def test_a_worker_restarted_under_its_name_takes_its_quizzes_back_at_once(workers, postgres_url, clock):
    a, _ = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    again = await start_worker(postgres_url, clock, "worker-a")  # A killed and started again: the lease holds
    try:
        assert [r.row.chat_key for r in again.engine.open_runs()] == [CHATS[0].key]
    finally:
        await again.store.close()


async def test_any_worker_takes_a_press_and_the_owner_counts_it_once_when_it_closes(workers, clock):
    a, b = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()  # A runs the quiz and posts question 1; the presses reach B
    card = a.adapter.questions[-1]
    right, wrong = a.adapter.right_letter(QUIZ, card), a.adapter.wrong_letter(QUIZ, card)
    pressed = await b.engine.answer(a.adapter.token(right, card), player(2), CHATS[0])
    assert pressed.accepted and pressed.text == f"Locked in: {right}"
    again = await b.engine.answer(a.adapter.token(wrong, card), player(2), CHATS[0])
    assert not again.accepted and again.text == f"You already answered {right}"
    on_owner = await a.engine.answer(a.adapter.token(wrong, card), player(2), CHATS[0])
    assert not on_owner.accepted, "the owner does not take a second answer the database holds"
    assert (await a.engine.answer(a.adapter.token(wrong, card), player(3), CHATS[0])).accepted
    assert b.engine.open_runs() == [], "B took the presses without taking the run"

    clock.advance(30)
    await a.engine.run_due()  # A closes question 1 over every stored answer
    ((_, reveal),) = a.adapter.reveals
    assert sorted((s.name, s.correct) for s in reveal.answers) == [("Player 2", True), ("Player 3", False)]
    late = await b.engine.answer(a.adapter.token(right, card), player(4), CHATS[0])
    assert not late.accepted, "a press after the close lands nowhere"
    board = await a.store.leaderboard(CHATS[0].key)
    assert [(s.player_key, s.answered, s.correct) for s in board] == [(player(2).key, 1, 1), (player(3).key, 1, 0)]


async def test_a_press_reaching_another_worker_before_the_owner_stored_the_shown_question_waits_for_it(
    workers, clock, postgres_url
):
    """The question's message is out, so players press; the owner's commit of its clock may land a
    moment after a press reaches another worker. That press is taken, not answered "closed"."""
    a, b = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()
    card = a.adapter.questions[-1]
    right = a.adapter.right_letter(QUIZ, card)
    db = await asyncpg.connect(postgres_url)
    try:
        await db.execute("UPDATE runs SET phase = 'posting' WHERE id = $1", card.run_id)  # before A's commit
        press = asyncio.create_task(b.engine.answer(a.adapter.token(right, card), player(2), CHATS[0]))
        await asyncio.sleep(0.25)
        assert not press.done(), "B waits for the owner's commit"
        await db.execute("UPDATE runs SET phase = 'asking' WHERE id = $1", card.run_id)  # A's commit lands
        pressed = await press
        assert pressed.accepted and pressed.text == f"Locked in: {right}"
        # a question that stays unposted: after a bounded wait, the press is refused as before
        await db.execute("UPDATE runs SET phase = 'posting' WHERE id = $1", card.run_id)
        late = await asyncio.wait_for(b.engine.answer(a.adapter.token(right, card), player(3), CHATS[0]), 5)
        assert not late.accepted
        await db.execute("UPDATE runs SET phase = 'asking' WHERE id = $1", card.run_id)
    finally:
        await db.close()


async def test_a_press_another_worker_takes_is_scored_as_the_owner_scores_it(workers, clock):
    """B reads only the presser's part of the run (its streak), never the run's answers."""
    a, b = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    clock.advance(5)
    await a.engine.run_due()
    for question in range(2):
        card = a.adapter.questions[-1]
        right = a.adapter.right_letter(QUIZ, card)
        clock.advance(2)
        assert (await a.engine.answer(a.adapter.token(right, card), player(2), CHATS[0])).accepted
        taker = a if question == 0 else b  # player 3's second right answer reaches B
        assert (await taker.engine.answer(a.adapter.token(right, card), player(3), CHATS[0])).accepted
        clock.advance(30)
        await a.engine.run_due()  # closes the question
        clock.advance(5)
        await a.engine.run_due()  # asks the next
    run_id = card.run_id
    owners, elsewhere = sorted(await a.store.question_answers(run_id, 1), key=lambda answer: answer.player_key)
    assert (elsewhere.streak, elsewhere.points) == (owners.streak, owners.points) == (2, owners.points)


async def test_a_quiz_that_ends_while_its_lease_is_renewed_still_gets_its_podium(workers, clock, monkeypatch):
    a, _ = workers
    await a.engine.start(CHATS[0], "demo", player(1))
    for _ in range(len(QUIZ.questions) - 1):
        clock.advance(5)
        await a.engine.run_due()
        await a.engine.answer(a.adapter.token("A"), player(1))
        clock.advance(30)
        await a.engine.run_due()
    clock.advance(5)
    await a.engine.run_due()  # the last question is open
    a.adapter.down = lambda: True  # the platform is away: the last reveal and the podium wait to be sent
    renew = a.store.renew_leases

    async def renewing_while_it_ends(run_ids: set[int]) -> set[int]:
        clock.advance(30)
        await a.engine.run_due()  # the quiz ends between the keeper's look at its runs and the renewal
        return await renew(run_ids)

    monkeypatch.setattr(a.store, "renew_leases", renewing_while_it_ends)
    await a.keeper.tick()  # the ended run is not renewed: it is over, not another worker's
    a.adapter.down = lambda: False
    clock.advance(60)
    await house_of(a.engine).sender.flush_due()
    assert [reply.kind for _, reply in a.adapter.sent] == ["podium"]
    assert len(a.adapter.reveals) == len(QUIZ.questions)
