"""Assignments: stored whole, held and ended by exactly one caller, and ranked from the plays'
runs (a run played in private for the group names the group, its answers count there)."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.assignment import AssignmentRow, AssignmentStatus, AssignmentSummary, Attempted
from bot.domain.model import ChatRef, Player
from bot.domain.records import Phase, RunRow, RunStatus, RunSummary
from tests.contract.stores.rows import CHAT, answer, run_row, stored_run

DEADLINE = 90_000.0


def assignment_row() -> AssignmentRow:
    return AssignmentRow(CHAT, "demo", ("q1", "q2"), 20, DEADLINE, "en", "test:admin", 1000.0)


async def test_an_assignment_is_stored_whole_and_listed_while_open(store):
    await store.ensure_chat(CHAT)
    aid = await store.add_assignment(assignment_row())
    stored = await store.assignment(aid)
    assert stored == replace(assignment_row(), chat=ChatRef(CHAT.platform, CHAT.chat_id), id=aid)
    assert [a.id for a in await store.open_assignments(CHAT.key)] == [aid]
    assert [a.id for a in await store.open_assignments()] == [aid]
    assert await store.open_assignments("test:elsewhere") == []
    assert await store.assignment(aid + 1000) is None


async def test_one_caller_holds_it_and_one_ends_it(store):
    await store.ensure_chat(CHAT)
    aid = await store.add_assignment(assignment_row())
    assert [await store.hold_assignment(aid, 2000.0, 2060.0) for _ in range(2)] == [True, False]
    assert await store.hold_assignment(aid, 2061.0, 2121.0)  # a hold that ran out (its worker died)
    row = replace(assignment_row(), id=aid, message_id="m7", shown="[1, 1]", shown_at=2061.0)
    await store.release_assignment(row)
    stored = await store.assignment(aid)
    assert stored is not None and (stored.message_id, stored.shown, stored.shown_at) == ("m7", "[1, 1]", 2061.0)
    assert await store.hold_assignment(aid, 2062.0, 2122.0)  # released: free again at once
    assert [await store.end_assignment(aid, AssignmentStatus.CLOSED) for _ in range(2)] == [True, False]
    assert not await store.end_assignment(aid, AssignmentStatus.CANCELLED)
    assert not await store.hold_assignment(aid, 9e9, 9e9)  # closed: nothing more to do
    assert await store.open_assignments() == []
    ended = await store.assignment(aid)
    assert ended is not None and ended.status is AssignmentStatus.CLOSED


async def test_plays_rank_by_their_runs_and_count_on_the_groups_board(store):
    await store.ensure_chat(CHAT)
    aid = await store.add_assignment(assignment_row())
    runs = {}
    for user, points in (("u1", 700), ("u2", 900)):
        player = Player("test", user, user.upper())
        await store.ensure_player(player)
        private = ChatRef("test", f"p{user}", is_private=True)
        await store.ensure_chat(private)
        assert await store.join_assignment(aid, player.key, 1500.0)
        assert not await store.join_assignment(aid, player.key, 1501.0)  # once
        row = replace(run_row(private), board_chat=CHAT.key)
        row.id = await store.create_run(row)
        runs[user] = row
        await store.set_play_run(aid, player.key, row.id)
        assert await store.insert_answer(replace(answer(row.id, player.key, 1600.0, points), chat_key=CHAT.key))
    assert [(r.id, r.board_chat, r.board_key) for r in await store.open_runs()] == [
        (runs[u].id, CHAT.key, CHAT.key) for u in ("u1", "u2")
    ]
    places = await store.assignment_places(aid)
    assert [(p.name, p.points, p.correct, p.answered, p.finished) for p in places] == [
        ("U2", 900, 1, 1, False),
        ("U1", 700, 1, 1, False),
    ]
    done = runs["u1"]
    done.status, done.phase, done.index = RunStatus.FINISHED, Phase.PAUSING, 1
    await store.save_run(done)
    assert [p.finished for p in await store.assignment_places(aid)] == [False, True]
    top = await store.leaderboard(CHAT.key)
    assert ("U1", 700) in [(s.name, s.points) for s in top]  # the closed question counts on the group's board
    await store.set_play_run(aid, "test:u2", None)  # a start that failed: forgotten, may start again
    assert [p.name for p in await store.assignment_places(aid)] == ["U1"]
    assert await store.join_assignment(aid, "test:u2", 1700.0)


async def _play(store, aid: int, user: str, at: float, points: list[int]) -> RunRow:
    """`user` starts assignment `aid` at `at` in private and answers its questions for `points`."""
    player = Player("test", user, user.upper())
    await store.ensure_player(player)
    private = ChatRef("test", f"p{user}", is_private=True)
    await store.ensure_chat(private)
    assert await store.join_assignment(aid, player.key, at)
    row = replace(run_row(private), board_chat=CHAT.key, started_at=at, started_by=player.key)
    row.id = await store.create_run(row)
    await store.set_play_run(aid, player.key, row.id)
    for i, p in enumerate(points):
        await store.insert_answer(replace(answer(row.id, player.key, at + 10 * i, p, index=i), chat_key=CHAT.key))
    return row


async def _end(store, run: RunRow, status: RunStatus, index: int = 1) -> None:
    run.status, run.phase, run.index = status, Phase.PAUSING, index
    await store.save_run(run)


async def test_attempts_say_how_far_each_member_got(store):
    await store.ensure_chat(CHAT)
    aid = await store.add_assignment(assignment_row())
    done = await _play(store, aid, "u1", 1500.0, [700, 300])
    stopped = await _play(store, aid, "u2", 1600.0, [900])
    await _play(store, aid, "u3", 1700.0, [])
    await store.join_assignment(aid, "test:u4", 1800.0)  # pressed Start; the run is not made yet
    await _end(store, done, RunStatus.FINISHED)
    await _end(store, stopped, RunStatus.STOPPED, 0)
    attempts = await store.assignment_attempts(aid)
    assert [(a.name, a.run_id, a.started_at, a.status, a.index, a.last_answer, a.points) for a in attempts] == [
        ("U1", done.id, 1500.0, RunStatus.FINISHED, 1, 1510.0, 1000),
        ("U2", stopped.id, 1600.0, RunStatus.STOPPED, 0, 1600.0, 900),
        ("U3", attempts[2].run_id, 1700.0, RunStatus.OPEN, -1, None, 0),  # no question posted yet
    ]
    assert [a.state for a in attempts] == [Attempted.FINISHED, Attempted.STOPPED, Attempted.PLAYING]
    assert await store.assignment_attempts(aid + 1000) == []


async def test_the_history_lists_an_assignment_once_in_place_of_its_runs(store):
    await store.ensure_chat(CHAT)
    own = await stored_run(store)  # started at 0.0
    aid = await store.add_assignment(assignment_row())  # assigned at 1000.0
    for n, user in enumerate(("u1", "u2", "u3")):
        await _play(store, aid, user, 1500.0 + n, [100])
    later = replace(run_row(), started_at=5000.0)
    await _end(store, own, RunStatus.FINISHED)
    later.id = await store.create_run(later)
    other = ChatRef("test", "g2")
    await store.ensure_chat(other)
    await store.add_assignment(replace(assignment_row(), chat=other))  # another group's
    lines = await store.chat_history(CHAT.key)
    assert lines == [
        RunSummary(later.id, "demo", 5000.0, RunStatus.OPEN),
        AssignmentSummary(aid, "demo", 1000.0, DEADLINE, AssignmentStatus.OPEN, 3),
        RunSummary(own.id, "demo", 0.0, RunStatus.FINISHED),
    ]
    assert await store.history_size(CHAT.key) == 3
    assert await store.chat_history(CHAT.key, limit=1, offset=1) == lines[1:2]
    assert await store.chat_history(CHAT.key, limit=5, offset=3) == []
    assert await store.chat_history("test:p" + "u1") == [], "the private chat's runs are the group's"


async def test_the_members_seen_are_those_who_answered_for_the_group_or_started_in_it(store):
    await store.ensure_chat(CHAT)
    aid = await store.add_assignment(assignment_row())
    await _play(store, aid, "u1", 1500.0, [100])  # answers in private, for the group
    for user, name in (("u5", "Starter"), ("u6", "Six"), ("u7", "Other")):
        await store.ensure_player(Player("test", user, name))
    started = replace(run_row(), started_by="test:u5")  # starts a quiz in the group, answers nothing
    started.id = await store.create_run(started)
    await store.insert_answer(answer(started.id, "test:u6", 50.0))
    await store.insert_answer(answer(started.id, "test:ghost", 51.0))  # no name ever stored: not a member
    elsewhere = ChatRef("test", "g2")
    run = await stored_run(store, elsewhere)
    await store.insert_answer(answer(run.id, "test:u7", 50.0, chat=elsewhere))  # another group's
    assert await store.members_seen(CHAT.key) == {"test:u1": "U1", "test:u5": "Starter", "test:u6": "Six"}
    assert await store.members_seen("test:nowhere") == {}


async def test_every_member_is_found_however_many_answers_each_has(store):
    """The members are read by stepping from one player's key to the next in the index: keys
    that share a start ("u1", "u10") and players with many answers are each found once."""
    await store.ensure_chat(CHAT)
    run = await stored_run(store)
    keys = ["u1", "u10", "u2", "u9"]
    for user in keys:
        await store.ensure_player(Player("test", user, user.upper()))
    for index in range(5):
        for n, user in enumerate(keys):
            await store.insert_answer(answer(run.id, f"test:{user}", 50.0 + n, index=index))
    assert await store.members_seen(CHAT.key) == {f"test:{u}": u.upper() for u in keys}
