"""Runs: one open per chat, their moving parts saved and read back after a restart, chat moves."""

from __future__ import annotations

import asyncio
from dataclasses import asdict

import pytest

from bot.domain.model import ChatRef, Player
from bot.domain.records import ChatSettings, Phase, RunStatus
from bot.domain.scoring import Scoring
from bot.ports.store import RunAlreadyOpen
from tests.contract.stores.rows import CHAT, answer, run_row, stored_run


async def test_a_run_reads_back_as_it_was_stored_with_its_chat(store):
    private = ChatRef("test", "u9", is_private=True)
    await store.ensure_chat(CHAT)
    await store.ensure_chat(private)
    first, second = run_row(questions=3), run_row(private)
    first.id = await store.create_run(first)
    second.id = await store.create_run(second)
    assert 0 < first.id != second.id
    runs = await store.open_runs()
    assert runs == [first, second], "oldest first, every field as created"
    assert runs[1].is_private and runs[0].question_ids == ("q1", "q2", "q3")
    assert type(runs[0].phase) is Phase and type(runs[0].status) is RunStatus, "enums, not bare strings"
    assert await store.run_status(first.id) is RunStatus.OPEN
    assert await store.run_status(first.id + second.id + 1000) is None


async def test_one_open_run_per_chat_until_it_ends(store):
    row = await stored_run(store)
    with pytest.raises(RunAlreadyOpen):
        await store.create_run(run_row())
    assert [r.id for r in await store.open_runs()] == [row.id]
    row.status = RunStatus.STOPPED
    await store.save_run(row)
    again = await store.create_run(run_row())
    assert [r.id for r in await store.open_runs()] == [again]
    assert await store.run_status(row.id) is RunStatus.STOPPED


async def test_saved_moving_parts_survive_a_restart(store_factory, store):
    row = await stored_run(store)
    row.phase, row.index, row.asked_at, row.due, row.message_id, row.silent = Phase.ASKING, 1, 40.0, 70.0, "m-17", 1
    await store.save_run(row)
    store = await store_factory.restart(store)
    assert await store.open_runs() == [row]


async def test_the_latest_of_overlapping_saves_wins(store):
    row = await stored_run(store)
    saves = []
    for due in (10.0, 20.0, 30.0):
        row.due = due
        saves.append(asyncio.ensure_future(store.save_run(row)))
    await asyncio.gather(*saves)
    assert [r.due for r in await store.open_runs()] == [30.0]


async def test_a_finished_run_leaves_the_open_ones(store):
    row = await stored_run(store)
    row.status, row.index = RunStatus.FINISHED, 1
    await store.save_run(row)
    assert await store.open_runs() == []
    assert await store.run_status(row.id) is RunStatus.FINISHED


async def test_a_moved_chat_takes_its_settings_run_answers_and_board_along(store):
    new = ChatRef("test", "g1-new", title="Group one")
    chosen = ChatSettings(  # every setting away from its default: a move keeps them all
        "sn", 45, 7.5, "Asia/Kolkata", True, True, True, Scoring.ACCURACY, False, True, 7 * 86400
    )
    await store.update_chat_settings(CHAT, **asdict(chosen))
    await store.ensure_player(Player("test", "u1", "Ann"))
    row = run_row()
    row.id = await store.create_run(row)
    row.phase, row.index = Phase.ASKING, 0
    await store.save_run(row)
    assert await store.insert_answer(answer(row.id, "test:u1", 5.0, 700))
    await store.move_chat(CHAT.key, new)
    await store.move_chat(CHAT.key, new)  # told twice: nothing more happens
    assert await store.chat_settings(new.key) == chosen
    assert [(r.id, r.chat_key, r.chat_id) for r in await store.open_runs()] == [(row.id, new.key, new.chat_id)]
    assert [(s.name, s.points) for s in await store.leaderboard(new.key)] == [("Ann", 700)]
    assert await store.leaderboard(CHAT.key) == []


async def test_a_hosted_run_keeps_its_host_pause_hint_and_skips(store):
    """What a restart or another worker needs to go on with a hosted game as its host left it."""
    await store.ensure_chat(CHAT)
    row = run_row(CHAT, questions=3)
    row.host_key = "test:host"
    row.id = await store.create_run(row)
    [stored] = await store.open_runs()
    assert (stored.host_key, stored.paused_left, stored.hint_at, stored.skipped) == ("test:host", None, 0.0, ())
    row.phase, row.index, row.paused_left, row.hint_at, row.skipped = Phase.ASKING, 1, 17.25, 1000.5, (0,)
    await store.save_run(row)
    [stored] = await store.open_runs()
    assert (stored.paused_left, stored.hint_at, stored.skipped) == (17.25, 1000.5, (0,))
    await store.insert_answer(answer(row.id, "test:ann", 1001.0, 700, index=1))
    await store.discard_answers(row.id, 1)
    assert await store.run_answers(row.id) == []


async def test_who_may_host_is_a_chat_setting(store):
    assert (await store.chat_settings(CHAT.key)).host_anyone is False
    await store.update_chat_settings(CHAT, host_anyone=True)
    assert (await store.chat_settings(CHAT.key)).host_anyone is True


async def test_plain_text_is_a_chat_setting(store):
    assert (await store.chat_settings(CHAT.key)).plain_text is False
    await store.update_chat_settings(CHAT, plain_text=True)
    assert (await store.chat_settings(CHAT.key)).plain_text is True


async def test_the_scoring_rules_are_chat_settings_each_run_keeps_as_it_started(store):
    """/settings scoring, streaks and board are the chat's; a run stores them as it starts, so a
    restart keeps them and a change mid-run leaves it be."""
    assert (await store.chat_settings(CHAT.key)).scoring is Scoring.SPEED
    await store.update_chat_settings(CHAT, scoring=Scoring.ACCURACY, streaks=False, board_end=True)
    settings = await store.chat_settings(CHAT.key)
    assert (settings.scoring, settings.streaks, settings.board_end) == (Scoring.ACCURACY, False, True)
    assert type(settings.scoring) is Scoring and settings.streaks is False and settings.board_end is True
    row = run_row(CHAT)
    row.scoring, row.streaks, row.board_end = Scoring.ACCURACY, False, True
    row.id = await store.create_run(row)
    await store.update_chat_settings(CHAT, scoring=Scoring.SPEED, streaks=True, board_end=False)
    [stored] = await store.open_runs()
    assert (stored.scoring, stored.streaks, stored.board_end) == (Scoring.ACCURACY, False, True)
    assert type(stored.scoring) is Scoring


async def test_a_chats_minimum_account_age_and_its_runs_copy_are_kept(store):
    """/settings min_age, and the age a run started with: what every worker checks a press against."""
    assert (await store.chat_settings(CHAT.key)).min_age == 0
    await store.update_chat_settings(CHAT, min_age=7 * 86400)
    assert (await store.chat_settings(CHAT.key)).min_age == 7 * 86400
    row = run_row(CHAT)
    row.min_age = 12 * 3600
    row.id = await store.create_run(row)
    [stored] = await store.open_runs()
    assert stored.min_age == 12 * 3600
