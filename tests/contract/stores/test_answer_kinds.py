"""Answers of every kind of question: what a player answered besides an option is stored and read
back, a select-all-that-apply question's picks are replaced on each toggle (a restart finds the
last), and a poll's votes count in no board's "answered" nor accuracy."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.domain.model import NO_ANSWER, Player
from bot.domain.records import Phase
from tests.contract.stores.rows import CHAT, answer, stored_run


async def test_typed_and_numeric_answers_read_back_with_what_was_typed(store):
    run_id = (await stored_run(store)).id
    typed = replace(answer(run_id, "test:u1", 1.0), option=NO_ANSWER, response="Zürich  ")
    number = replace(answer(run_id, "test:u2", 2.0, correct=False), option=NO_ANSWER, response="3,14")
    assert await store.insert_answer(typed) and await store.insert_answer(number)
    assert await store.run_answers(run_id) == [typed, number]


async def test_each_toggle_replaces_the_stored_picks_and_the_last_survives_a_restart(store_factory, store):
    run_id = (await stored_run(store)).id
    ann = Player("test", "u1", "Ann")
    picks = ["0", "0,2", "2", "1,2"]
    toggles = [
        replace(answer(run_id, ann.key, 1.0 + n, correct=False), option=NO_ANSWER, response=p)
        for n, p in enumerate(picks)
    ]
    assert await asyncio.gather(*(store.submit_picks(t, ann) for t in toggles)) == [True] * 4
    assert [a.response for a in await store.run_answers(run_id)] == ["1,2"]
    final = replace(toggles[-1], correct=True, points=640, elapsed=4.5, response="0,2")
    assert await store.submit_picks(final, ann)
    await store.close()
    store_factory.opened.remove(store)
    again = await store_factory.open()
    assert await again.run_answers(run_id) == [final]
    assert [(s.points, s.correct, s.answered) for s in await again.run_standings(run_id)] == [(640, 1, 1)]


async def test_a_first_answer_still_wins_over_a_later_plain_press_after_picks(store):
    """A toggle replaces; a plain answer never does (first answer counts)."""
    run_id = (await stored_run(store)).id
    picks = replace(answer(run_id, "test:u1", 1.0, correct=False), option=NO_ANSWER, response="1")
    assert await store.submit_picks(picks)
    assert await store.submit_answer(answer(run_id, "test:u1", 2.0)) is False
    assert [a.response for a in await store.run_answers(run_id)] == ["1"]


async def test_poll_votes_count_in_no_answered_nor_accuracy(store):
    row = await stored_run(store, questions=2)
    row.phase, row.index = Phase.ASKING, 0
    await store.save_run(row)
    vote = replace(answer(row.id, "test:u1", 10.0, correct=False, option=1), scored=False)
    assert await store.insert_answer(vote)
    live = await store.leaderboard(CHAT.key)
    assert [(s.player_key, s.answered, s.correct) for s in live] == [("test:u1", 0, 0)], "while the poll is open"
    row.phase, row.index = Phase.ASKING, 1  # the poll closes, the next question is asked
    await store.save_run(row)
    assert await store.insert_answer(answer(row.id, "test:u1", 20.0, points=800, index=1))
    row.phase = Phase.PAUSING
    await store.save_run(row)
    for board in (await store.leaderboard(CHAT.key), await store.leaderboard(CHAT.key, 0.0)):
        assert [(s.points, s.correct, s.answered) for s in board] == [(800, 1, 1)]
    assert [(s.correct, s.answered) for s in await store.run_standings(row.id)] == [(1, 1)]
    stats = await store.player_stats(CHAT.key, Player("test", "u1", "Ann"))
    assert (stats.answered, stats.correct, stats.accuracy) == (1, 1, 1.0)
