"""Assignments: stored whole, held and ended by exactly one caller, and ranked from the plays'
runs (a run played in private for the group names the group, its answers count there)."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.assignment import AssignmentRow, AssignmentStatus
from bot.domain.model import ChatRef, Player
from bot.domain.records import Phase, RunStatus
from tests.contract.stores.rows import CHAT, answer, run_row

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
