"""Boards read from the summary kept in rank order (storage/shared/ranks.py) equal the stored
answers: every period, one quiz or all, the top, the caller's place and the board's size (the
web page's pages), with answers of ended runs, a late answer to an ended run, the chat's open run
and an assignment played for it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.domain.model import ChatRef, Player
from bot.domain.records import AnswerRow, Phase, RunStatus
from bot.engine.standings import period_start
from tests.contract.stores.rows import CHAT, answer, run_row, stored_run

NOW = datetime(2026, 11, 26, 12, tzinfo=UTC).timestamp()  # a Thursday
DAY = 86400.0
PLAYERS = [f"test:p{n}" for n in range(6)]


def _expected(stored: list[AnswerRow], since: float | None, quiz: str | None) -> list[tuple[str, int, int, int]]:
    """(key, points, right, rank) of every player, worked out from the answers themselves."""
    sums: dict[str, list] = {}
    for a in stored:
        if (since is None or a.answered_at >= since) and quiz in (None, a.quiz_id):
            pts, ok, first = sums.get(a.player_key, (0, 0, a.answered_at))
            sums[a.player_key] = [pts + a.points, ok + a.correct, min(first, a.answered_at)]
    order = sorted(sums, key=lambda k: (-sums[k][0], -sums[k][1], sums[k][2], k))
    return [(k, sums[k][0], sums[k][1], rank) for rank, k in enumerate(order, 1)]


async def _check_every_board(store, stored: list[AnswerRow]) -> None:
    week, month = period_start("week", NOW), period_start("month", NOW)
    assert week is not None and month is not None
    for since in (None, week, month, week - 7 * DAY, NOW - 3600):
        for quiz in (None, "demo", "other"):
            whole = _expected(stored, since, quiz)
            assert await store.board_size(CHAT.key, since, quiz) == len(whole), (since, quiz)
            for top in (0, 1, 2, 10):
                for player in (*PLAYERS, "test:nobody", None):
                    got = await store.leaderboard(CHAT.key, since, quiz, top, player)
                    want = whole[:top] + [row for row in whole[top:] if row[0] == player]
                    assert [(s.player_key, s.points, s.correct, s.rank) for s in got] == want, (since, quiz, top)
    for key in PLAYERS:
        mine = next(row for row in _expected(stored, None, None) if row[0] == key)
        assert (await store.player_stats(CHAT.key, Player("test", key.split(":")[1], key))).rank == mine[3]


async def test_ranked_boards_equal_the_stored_answers_as_runs_open_and_end(store):
    stored: list[AnswerRow] = []

    async def add(row: AnswerRow) -> None:
        assert await store.insert_answer(row)
        stored.append(row)

    when = {"this week": NOW - 2 * DAY, "last week": NOW - 8 * DAY, "last month": NOW - 40 * DAY}
    for n, (label, at) in enumerate(when.items()):
        ended = replace(await stored_run(store), quiz_id="demo" if n != 1 else "other")
        for p, key in enumerate(PLAYERS):  # ties on points between p2 and p3 settled by right answers
            points = [700, 500, 300, 300, 100, 0][(p + n) % 6]
            await add(answer(ended.id, key, at + p, points, correct=points > 0, quiz_id=ended.quiz_id))
        ended.status, ended.phase, ended.index = RunStatus.FINISHED, Phase.PAUSING, 1
        await store.save_run(ended)
        if label == "this week":  # a direct write into the ended run: summed at once
            await add(answer(ended.id, "test:p5", at + 60, 800, index=1, quiz_id=ended.quiz_id))
    await _check_every_board(store, stored)

    live = await stored_run(store)  # the chat's open run: a closed question, then the asked one
    live.phase, live.index = Phase.ASKING, 0
    await store.save_run(live)
    await add(answer(live.id, "test:p4", NOW - 30, 650))
    live.phase, live.index = Phase.ASKING, 1
    await store.save_run(live)
    await add(answer(live.id, "test:p4", NOW - 10, 400, index=1))
    await add(answer(live.id, "test:p1", NOW - 5, 0, index=1, correct=False))
    private = ChatRef("test", "u9", is_private=True)
    await store.ensure_chat(private)
    played = replace(run_row(private), board_chat=CHAT.key)  # an assignment, counted on the group's boards
    played.id = await store.create_run(played)
    played.phase, played.index = Phase.ASKING, 0
    await store.save_run(played)
    await add(answer(played.id, "test:p0", NOW - 20, 90, chat=CHAT))
    await _check_every_board(store, stored)

    for run in (live, played):  # they end: their answers move into the summary, counted once
        run.status, run.phase, run.index = RunStatus.FINISHED, Phase.PAUSING, 1
        await store.save_run(run)
    await _check_every_board(store, stored)


async def test_a_chat_that_changes_its_id_keeps_its_ranked_boards(store):
    ended = await stored_run(store)
    await store.insert_answer(answer(ended.id, "test:ann", NOW, 700))
    await store.insert_answer(answer(ended.id, "test:bob", NOW + 1, 900))
    ended.status = RunStatus.FINISHED
    await store.save_run(ended)
    new = ChatRef("test", "g9")
    await store.move_chat(CHAT.key, new)
    week = period_start("week", NOW)
    for since in (None, week):
        assert [(s.player_key, s.points) for s in await store.leaderboard(new.key, since, None, 1, "test:ann")] == [
            ("test:bob", 900),
            ("test:ann", 700),
        ]
        assert await store.leaderboard(CHAT.key, since, None, 10, "test:ann") == []
