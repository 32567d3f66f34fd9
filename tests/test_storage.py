"""The SQLite store on real files: migrations, one answer per question, leaderboards."""
from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import pytest

from bot.engine import period_start
from bot.model import ChatRef, Player
from bot.ports import RunAlreadyOpen
from bot.records import AnswerRow, RunRow
from storage.schema import version
from storage.sqlite import SqliteStore

CHAT = ChatRef("test", "g1")


def run_row(chat: ChatRef = CHAT, quiz_id: str = "demo") -> RunRow:
    return RunRow(chat_key=chat.key, chat_id=chat.chat_id, platform=chat.platform, is_private=False,
                  quiz_id=quiz_id, language="en", seed=7, question_ids=("q1", "q2"), seconds=30,
                  pause=5, started_by="test:u1", started_at=0.0)


def answer(run_id: int, player: str, at: float, points: int = 900, correct: bool = True, index: int = 0,
           quiz_id: str = "demo", chat: ChatRef = CHAT) -> AnswerRow:
    return AnswerRow(run_id, index, f"q{index + 1}", player, chat.key, quiz_id, 0, correct, 3.0,
                     points if correct else 0, 1 if correct else 0, at)


async def test_migrations_run_on_an_empty_file_and_only_once(tmp_path):
    path = tmp_path / "fresh.db"
    store = await SqliteStore.open(path)
    assert await store.schema_version() == version()
    await store.close()
    store = await SqliteStore.open(path)  # a second start changes nothing
    assert await store.schema_version() == version()
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"chats", "players", "runs", "answers"} <= tables


async def test_one_answer_per_player_per_question_under_concurrent_presses(store):
    await store.ensure_chat(CHAT)
    run_id = await store.create_run(run_row())
    results = await asyncio.gather(*(store.insert_answer(answer(run_id, "test:u1", 1.0 + i)) for i in range(20)))
    assert results.count(True) == 1
    assert len(await store.run_answers(run_id)) == 1


async def test_only_one_open_run_per_chat(store):
    await store.ensure_chat(CHAT)
    await store.create_run(run_row())
    with pytest.raises(RunAlreadyOpen):
        await store.create_run(run_row())


async def test_display_names_stay_current(store):
    await store.ensure_player(Player("test", "u1", "Ann"))
    await store.ensure_player(Player("test", "u1", "Ann B."))
    assert await store.player_names({"test:u1"}) == {"test:u1": "Ann B."}


async def test_leaderboards_by_week_month_all_time_and_quiz(store):
    now = datetime(2026, 11, 26, 12, tzinfo=UTC).timestamp()  # a Thursday
    last_week = datetime(2026, 11, 20, tzinfo=UTC).timestamp()
    last_month = datetime(2026, 10, 15, tzinfo=UTC).timestamp()
    await store.ensure_chat(CHAT)
    other_chat = ChatRef("test", "g2")
    await store.ensure_chat(other_chat)
    for key, name in (("test:ann", "Ann"), ("test:bob", "Bob"), ("test:cy", "Cy")):
        await store.ensure_player(Player("test", key.split(":")[1], name))
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, "test:ann", now, 900))
    await store.insert_answer(answer(run_id, "test:bob", last_week, 1000, index=1))
    await store.insert_answer(answer(run_id, "test:cy", last_month, 2000, index=0, quiz_id="other"))
    other_run = await store.create_run(run_row(other_chat))
    await store.insert_answer(answer(other_run, "test:ann", now, 5000, chat=other_chat))

    async def board(period, quiz=None):
        rows = await store.leaderboard(CHAT.key, period_start(period, now), quiz)
        return [(s.name, s.points) for s in rows]

    assert await board("week") == [("Ann", 900)]
    assert await board("month") == [("Bob", 1000), ("Ann", 900)]
    assert await board("all") == [("Cy", 2000), ("Bob", 1000), ("Ann", 900)]
    assert await board("all", "demo") == [("Bob", 1000), ("Ann", 900)]


async def test_ties_go_to_more_right_answers_then_the_earlier_player(store):
    await store.ensure_chat(CHAT)
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, "test:late", 20.0, 1000))
    await store.insert_answer(answer(run_id, "test:early", 10.0, 1000))
    await store.insert_answer(answer(run_id, "test:two", 30.0, 500))
    await store.insert_answer(answer(run_id, "test:two", 31.0, 500, index=1))
    ranking = [s.player_key for s in await store.leaderboard(CHAT.key)]
    assert ranking == ["test:two", "test:early", "test:late"]


async def test_player_stats(store):
    await store.ensure_chat(CHAT)
    ann = Player("test", "ann", "Ann")
    await store.ensure_player(ann)
    run_id = await store.create_run(run_row())
    await store.insert_answer(answer(run_id, ann.key, 1.0, 1000))
    await store.insert_answer(answer(run_id, ann.key, 2.0, 0, correct=False, index=1))
    stats = await store.player_stats(CHAT.key, ann)
    assert (stats.points, stats.answered, stats.correct, stats.best_streak, stats.quizzes, stats.rank) == (
        1000, 2, 1, 1, 1, 1)
