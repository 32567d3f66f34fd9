"""Answers: the first per player and question wins, each is acknowledged after its commit,
a failed commit stores nothing, and a submitted answer lands even when nobody waits for it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from bot.domain.model import Player
from tests.contract.stores.rows import answer, stored_run


async def test_one_answer_per_player_per_question_under_concurrent_presses(store):
    run_id = (await stored_run(store)).id
    results = await asyncio.gather(*(store.insert_answer(answer(run_id, "test:u1", 1.0 + i)) for i in range(20)))
    assert results.count(True) == 1
    assert [a.answered_at for a in await store.run_answers(run_id)] == [1.0]


async def test_duplicates_in_one_batch_are_told_apart(store):
    run_id = (await stored_run(store)).id
    rows = [answer(run_id, f"test:u{n % 3}", 1.0 + n) for n in range(6)]  # u0 u1 u2 u0 u1 u2
    landed = await asyncio.gather(*(store.submit_answer(r) for r in rows))
    assert landed == [True, True, True, False, False, False]
    assert sorted(a.answered_at for a in await store.run_answers(run_id)) == [1.0, 2.0, 3.0]


async def test_the_same_player_may_answer_every_question_and_answers_read_back_in_order(store):
    run_id = (await stored_run(store)).id
    second = answer(run_id, "test:u1", 9.0, correct=False, index=1, option=2)
    first_late, first_early = answer(run_id, "test:u2", 3.0), answer(run_id, "test:u1", 2.0, points=950, streak=1)
    for row in (second, first_late, first_early):
        assert await store.insert_answer(row)
    assert await store.run_answers(run_id) == [first_early, first_late, second]


async def test_an_answer_carries_its_players_current_name(store):
    run_id = (await stored_run(store)).id
    assert await store.submit_answer(answer(run_id, "test:u1", 1.0), Player("test", "u1", "Ann"))
    assert await store.submit_answer(answer(run_id, "test:u1", 2.0, index=1), Player("test", "u1", "Ann B."))
    assert await store.player_names({"test:u1"}) == {"test:u1": "Ann B."}
    assert [s.name for s in await store.run_standings(run_id)] == ["Ann B."]


async def test_a_name_whose_commit_failed_is_written_with_the_next_answer(store_factory, store):
    """The store skips writing a name it knows is stored: one in a failed batch is not known."""
    run_id = (await stored_run(store)).id
    await store_factory.refuse_answers(True)
    pressed = store.submit_answer(answer(run_id, "test:u1", 1.0), Player("test", "u1", "Ann"))
    (failed,) = await asyncio.gather(pressed, return_exceptions=True)
    assert isinstance(failed, Exception)
    await store_factory.refuse_answers(False)
    assert await store.submit_answer(answer(run_id, "test:u1", 2.0), Player("test", "u1", "Ann"))
    assert await store.player_names({"test:u1"}) == {"test:u1": "Ann"}


async def test_a_failed_commit_stores_nothing_and_the_same_press_can_land_later(store_factory, store):
    run_id = (await stored_run(store)).id
    await store_factory.refuse_answers(True)
    pending = [store.submit_answer(answer(run_id, f"test:u{n}", 1.0 + n)) for n in range(3)]
    for outcome in await asyncio.gather(*pending, return_exceptions=True):
        assert isinstance(outcome, Exception)
    assert await store.run_answers(run_id) == []
    await store_factory.refuse_answers(False)
    assert await store.submit_answer(answer(run_id, "test:u1", 2.0)) is True
    assert [a.player_key for a in await store.run_answers(run_id)] == ["test:u1"]


async def test_settled_means_stored_even_for_presses_whose_caller_gave_up(store):
    run_id = (await stored_run(store)).id
    before = store.answers_submitted
    pending = [store.submit_answer(answer(run_id, f"test:u{n}", 1.0 + n)) for n in range(10)]
    ticket = store.answers_submitted
    assert ticket == before + 10
    waiting = [asyncio.ensure_future(_wait(p)) for p in pending]
    await asyncio.sleep(0)  # the presses are waiting on their commit...
    for task in waiting[::2]:
        task.cancel()  # ...and half of their callers go away (a timed-out webhook, a closed connection)
    await store.answers_settled(ticket)
    assert len(await store.run_answers(run_id)) == 10
    with pytest.raises(asyncio.CancelledError):
        await waiting[0]


async def _wait(press: Awaitable[bool]) -> bool:
    return await press


async def test_a_runs_partly_right_answers_are_those_scored_with_points_without_full_credit(store):
    run_id = (await stored_run(store)).id
    right = answer(run_id, "test:u1", 1.0)
    partly = answer(run_id, "test:u2", 2.0, correct=False)
    partly.points = 400  # a select-all answer with some of the right picks
    wrong = answer(run_id, "test:u3", 3.0, correct=False)
    later = answer(run_id, "test:u2", 4.0, correct=False, index=1)
    later.points = 300
    vote = answer(run_id, "test:u4", 5.0, correct=False)
    vote.scored = False
    for row in (later, vote, wrong, partly, right):
        assert await store.insert_answer(row)
    assert await store.run_partly_right(run_id) == [partly, later]
