"""`quizhost migrate-db`: a SQLite database with history and a quiz in progress, copied into
PostgreSQL, reads back the same everywhere a player looks, and the quiz carries on there."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from bot.content.catalog import Catalog
from bot.domain.model import ChatRef
from bot.domain.records import RunRow
from bot.engine.core import EngineSettings
from bot.testing.fakes import RecordingAdapter, make_quiz, player
from storage.postgres.store import PostgresStore
from storage.sqlite import schema
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of
from tests.system.test_cli import cli

pytestmark = pytest.mark.postgres

GROUP, OTHER = ChatRef("test", "-1", title="Group"), ChatRef("test", "-2", title="Other")


async def play_history(path, clock) -> None:
    """One finished quiz in GROUP, one in OTHER left open in the middle of its second question."""
    store = await SqliteStore.open(path)
    quiz = make_quiz()
    engine = build(
        Catalog.from_quizzes([quiz]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    await house_of(engine).chats.update(GROUP, language="hi")
    for chat, questions in ((GROUP, None), (OTHER, 2)):
        await engine.start(chat, "demo", player(1, "Ann"))
        for number in range(questions or len(quiz.questions)):
            clock.advance(5)
            await engine.run_due()
            await engine.answer(adapter.token(adapter.right_letter(quiz)), player(1, "Ann"))
            await engine.answer(adapter.token("D" if number % 2 else "B"), player(2, "Bob"))
            if number + 1 < (questions or 99):
                clock.advance(30)
                await engine.run_due()
        clock.advance(60)
    await store.close()


async def everything_a_player_sees(store) -> tuple:
    ann, bob = player(1, "Ann"), player(2, "Bob")
    runs = await store.open_runs()
    return (
        [await store.leaderboard(c.key) for c in (GROUP, OTHER)],
        await store.leaderboard(GROUP.key, 0.0, "demo"),
        [await store.player_stats(c.key, p) for c in (GROUP, OTHER) for p in (ann, bob)],
        await store.chat_settings(GROUP.key),
        runs,
        [await store.run_answers(r.id) for r in runs],
        await store.player_names({ann.key, bob.key}),
    )


async def test_a_sqlite_database_moves_to_postgresql_whole_and_its_open_quiz_carries_on(tmp_path, postgres_url, clock):
    path = tmp_path / "quizhost.db"
    await play_history(path, clock)
    before = await _seen(SqliteStore.open(path))
    boards, _, _, _, runs, answers, _ = before
    assert all(boards) and len(runs) == 1 and answers[0], "history on two boards and a run in progress"

    moved = cli(tmp_path, "migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url)
    assert moved.returncode == 0, moved.stderr
    assert "1 open run(s)" in moved.stdout and "answers" in moved.stdout

    store = await PostgresStore.open(postgres_url)
    try:
        assert await everything_a_player_sees(store) == before
        run = (await store.open_runs())[0]
        assert await store.create_run(_next_run(run)) > run.id, "new runs get new ids"
    finally:
        await store.close()

    again = cli(tmp_path, "migrate-db", "--from", str(path), "--to", postgres_url)
    assert again.returncode == 1 and "already holds quizhost data" in again.stderr
    assert (await _seen(PostgresStore.open(postgres_url)))[0] == before[0], "nothing was copied twice"


async def test_names_an_older_version_stored_with_a_nul_or_an_override_move_clean(tmp_path, postgres_url, clock):
    """A NUL, which no PostgreSQL text holds, and a right-to-left override in a name and a chat title
    stored before they were dropped where they enter: the SQLite file's own migration drops them."""
    path = tmp_path / "quizhost.db"
    await play_history(path, clock)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE players SET name = char(8238) || name || char(0) WHERE name = 'Ann'")
        db.execute("UPDATE chats SET title = title || char(0, 8238) WHERE title = 'Group'")
        # the migrations after the cleaning run again (hosted games, plain text, extra time, the scoring
        # rules, fair play): their columns go first
        for name in ("host_key", "paused_left", "hint_at", "skipped", "min_age"):
            db.execute(f"ALTER TABLE runs DROP COLUMN {name}")
        db.execute("ALTER TABLE chats DROP COLUMN host_anyone")
        db.execute("ALTER TABLE chats DROP COLUMN plain_text")
        db.execute("ALTER TABLE runs DROP COLUMN time_factor")
        for table in ("chats", "runs"):
            for name in ("scoring", "streaks", "board_end"):
                db.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
        db.execute("ALTER TABLE chats DROP COLUMN min_age")
        db.execute(f"PRAGMA user_version = {_before_cleaning()}")

    moved = cli(tmp_path, "migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url)
    assert moved.returncode == 0, moved.stderr
    store = await PostgresStore.open(postgres_url)
    try:
        assert [s.name for s in await store.leaderboard(GROUP.key)] == ["Ann", "Bob"]
        assert await store.chat_title(GROUP.key) == "Group"
    finally:
        await store.close()


def test_migrate_db_names_what_is_wrong_without_the_password(tmp_path, postgres_cluster):
    missing = cli(tmp_path, "migrate-db", "--from", "sqlite:///nowhere.db", "--to", postgres_cluster.url())
    assert missing.returncode == 1 and "nowhere.db: no such SQLite file" in missing.stderr
    (tmp_path / "q.db").touch()
    refused = cli(tmp_path, "migrate-db", "--from", "q.db", "--to", postgres_cluster.url(password="s3cret-Wrong"))
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        f"quizhost: --to: cannot use postgresql://quizhost:***@127.0.0.1:{postgres_cluster.port}/quizhost: "
        "the server refused the user name or password"
    ]
    backwards = cli(tmp_path, "migrate-db", "--from", postgres_cluster.url(), "--to", "q.db")
    assert backwards.returncode == 1 and "--from must be a SQLite database" in backwards.stderr
    assert "quizhost-test" not in backwards.stderr


async def _seen(opening) -> tuple:
    store = await opening
    try:
        return await everything_a_player_sees(store)
    finally:
        await store.close()


def _before_cleaning() -> int:
    """The SQLite schema version before names and titles were cleaned (storage/shared/usertext.py)."""
    return next(i for i, script in enumerate(schema.MIGRATIONS) if "UPDATE players SET name = replace(" in script)


def _next_run(run: RunRow) -> RunRow:
    return replace(run, id=0, chat_key=GROUP.key)  # GROUP's own quiz is over: it may start another
