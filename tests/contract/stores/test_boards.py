"""Leaderboards, a run's standings and a player's record, computed from the stored answers."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.domain.model import ChatRef, Player
from bot.domain.records import Phase, RunStatus
from bot.engine.standings import period_start
from tests.contract.stores.rows import CHAT, answer, run_row, stored_run

NOW = datetime(2026, 11, 26, 12, tzinfo=UTC).timestamp()  # a Thursday


async def _board(store, since=None, quiz=None, chat=CHAT) -> list[tuple[str, int]]:
    return [(s.name, s.points) for s in await store.leaderboard(chat.key, since, quiz)]


async def test_leaderboards_by_week_month_all_time_and_quiz(store):
    last_week = datetime(2026, 11, 20, tzinfo=UTC).timestamp()
    last_month = datetime(2026, 10, 15, tzinfo=UTC).timestamp()
    other_chat = ChatRef("test", "g2")
    for chat in (CHAT, other_chat):
        await store.ensure_chat(chat)
    for key, name in (("ann", "Ann"), ("bob", "Bob"), ("cy", "Cy")):
        await store.ensure_player(Player("test", key, name))
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, "test:ann", NOW, 900))
    await store.insert_answer(answer(run_id, "test:bob", last_week, 1000, index=1))
    await store.insert_answer(answer(run_id, "test:cy", last_month, 2000, index=0, quiz_id="other"))
    other_run = await store.create_run(run_row(other_chat))
    await store.insert_answer(answer(other_run, "test:ann", NOW, 5000, chat=other_chat))

    assert await _board(store, period_start("week", NOW)) == [("Ann", 900)]
    assert await _board(store, period_start("month", NOW)) == [("Bob", 1000), ("Ann", 900)]
    assert await _board(store) == [("Cy", 2000), ("Bob", 1000), ("Ann", 900)]
    assert await _board(store, None, "demo") == [("Bob", 1000), ("Ann", 900)]
    assert await _board(store, NOW - 60) == [("Ann", 900)], "from any instant, not only midnights"
    assert [s.rank for s in await store.leaderboard(CHAT.key)] == [1, 2, 3]


async def test_ties_go_to_more_right_answers_then_the_earlier_player(store):
    await store.ensure_chat(CHAT)
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, "test:late", 20.0, 1000))
    await store.insert_answer(answer(run_id, "test:early", 10.0, 1000))
    await store.insert_answer(answer(run_id, "test:two", 30.0, 500))
    await store.insert_answer(answer(run_id, "test:two", 31.0, 500, index=1))
    ranking = [s.player_key for s in await store.leaderboard(CHAT.key)]
    assert ranking == ["test:two", "test:early", "test:late"]
    assert [s.player_key for s in await store.run_standings(run_id)] == ranking


async def test_an_open_question_counts_at_once_and_once_after_it_closes_and_the_run_ends(store):
    row = await stored_run(store)
    row.phase, row.index = Phase.ASKING, 0
    await store.save_run(row)
    await store.insert_answer(answer(row.id, "test:u1", NOW, 1000))
    await store.insert_answer(answer(row.id, "test:u2", NOW + 1, 0, correct=False))
    live = await _board(store)
    assert live == [("test:u1", 1000), ("test:u2", 0)], "no name stored: the key stands in"
    row.phase = Phase.PAUSING  # the question closes
    await store.save_run(row)
    assert await _board(store) == live
    row.phase, row.index = Phase.ASKING, 1
    await store.save_run(row)
    await store.insert_answer(answer(row.id, "test:u2", NOW + 40, 800, index=1))
    row.status = RunStatus.FINISHED
    await store.save_run(row)
    week = period_start("week", NOW)
    assert await _board(store) == await _board(store, week) == [("test:u1", 1000), ("test:u2", 800)]


async def test_a_runs_standings_hold_only_that_run(store):
    first = await stored_run(store)
    await store.insert_answer(answer(first.id, "test:u1", 1.0, 900))
    first.status = RunStatus.FINISHED
    await store.save_run(first)
    second = await store.create_run(run_row())
    await store.insert_answer(answer(second, "test:u2", 2.0, 400))
    assert [(s.player_key, s.points, s.answered) for s in await store.run_standings(second)] == [("test:u2", 400, 1)]
    assert await store.run_standings(second + first.id + 1000) == []


async def test_player_stats(store):
    await store.ensure_chat(CHAT)
    ann, bob = Player("test", "ann", "Ann"), Player("test", "bob", "Bob")
    for who in (ann, bob):
        await store.ensure_player(who)
    fresh = await store.player_stats(CHAT.key, ann)
    assert (fresh.points, fresh.answered, fresh.quizzes, fresh.rank) == (0, 0, 0, None)
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, ann.key, 1.0, 1000))
    await store.insert_answer(answer(run_id, ann.key, 2.0, 0, correct=False, index=1))
    await store.insert_answer(answer(run_id, bob.key, 1.5, 1200))
    stats = await store.player_stats(CHAT.key, ann)
    assert (stats.name, stats.points, stats.answered, stats.correct, stats.best_streak, stats.quizzes, stats.rank) == (
        "Ann",
        1000,
        2,
        1,
        1,
        1,
        2,
    )


async def test_the_top_of_a_board_and_the_callers_own_place_match_the_whole_board(store):
    """/leaderboard reads the top and the caller's standing only; both equal the whole board's,
    ties and the open question's answers included, for every period and one quiz."""
    await store.ensure_chat(CHAT)
    await store.ensure_player(Player("test", "p3", "Three"))
    closed = await stored_run(store)
    for n in range(6):  # p0..p5; p2 and p3 tie on points, p3 has more right answers
        await store.insert_answer(answer(closed.id, f"test:p{n}", NOW + n, [500, 400, 300, 200, 100, 0][n]))
    await store.insert_answer(answer(closed.id, "test:p3", NOW + 9, 100, index=1))
    await store.insert_answer(answer(closed.id, "test:p2", NOW + 10, 0, index=1, correct=False))
    closed.status = RunStatus.FINISHED
    await store.save_run(closed)
    live = await stored_run(store)  # the open question's answers count at once
    live.phase, live.index = Phase.ASKING, 0
    await store.save_run(live)
    await store.insert_answer(answer(live.id, "test:p5", NOW + 20, 450))
    for since, quiz in ((None, None), (period_start("week", NOW), None), (NOW - 1, None), (None, "demo")):
        whole = await store.leaderboard(CHAT.key, since, quiz)
        assert len(whole) == 6
        for player in ("test:p0", "test:p3", "test:p4", "test:nobody", None):
            part = await store.leaderboard(CHAT.key, since, quiz, 2, player)
            mine = [s for s in whole[2:] if s.player_key == player]
            assert part == whole[:2] + mine, (since, quiz, player)
    assert [s.player_key for s in (await store.leaderboard(CHAT.key, None, None, 3))] == [
        "test:p0",
        "test:p5",
        "test:p1",
    ]
    assert (await store.leaderboard(CHAT.key, None, None, 2, "test:p3"))[-1].name == "Three"
