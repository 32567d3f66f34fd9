"""`quizhost chats` and `quizhost results` without `--chat`, as an admin runs them (a real
subprocess) on a database filled by playing a shipped quiz through the engine: the chat keys the
other commands take are listed with names and activity; with one chat, `--chat` is not needed;
`--output` into folders not made yet makes them."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.sqlite.store import SqliteStore
from tests.support.house import build
from tests.support.web_harness import play

ANN = player(1, "Ann")
DAY = 86400


def quizhost(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "quizhost.db")}
    env.pop("QUIZHOST_QUIZZES", None)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, env=env, cwd=tmp_path, timeout=60
    )


async def fill(tmp_path: Path, chats: list[tuple[str, int]]) -> None:
    """`runs` runs of pipeline in each group `(chat id, runs)`, a day apart, from 1 Nov 2026 noon UTC."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    try:
        catalog = Catalog.load(default_quiz_folders())
        clock = FakeClock(datetime(2026, 11, 1, 12, tzinfo=UTC).timestamp())
        engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
        adapter = RecordingAdapter()
        engine.attach(adapter)
        quiz = catalog.get("pipeline")
        assert quiz is not None
        for chat_id, runs in chats:
            for _ in range(runs):
                await play(engine, adapter, group(chat_id), quiz, {ANN: [True] * len(quiz.questions)})
                clock.advance(DAY)
    finally:
        await store.close()


async def test_one_chat_is_listed_and_results_need_no_chat_key(tmp_path):
    await fill(tmp_path, [("g1", 2)])
    done = quizhost(tmp_path, "chats")
    assert done.returncode == 0, done.stderr
    key, runs, plural, last, day, _, utc, title = done.stdout.decode().split()
    said = (key, runs, plural, last, day, utc, title)
    assert said == ("test:g1", "2", "quiz(zes)", "last", "2026-11-02", "UTC", "Group")

    done = quizhost(tmp_path, "results", "-o", "new/folder/all.csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "new/folder/all.csv").read_text("utf-8-sig"))))
    assert rows and {r["quiz_id"] for r in rows} == {"pipeline"} and len({r["run"] for r in rows}) == 2


async def test_with_several_chats_results_asks_for_one_and_lists_them(tmp_path):
    await fill(tmp_path, [("g1", 1), ("g2", 2)])
    done = quizhost(tmp_path, "chats")
    lines = done.stdout.decode().splitlines()
    assert [line.split()[0] for line in lines] == ["test:g2", "test:g1"], "the latest active first"

    done = quizhost(tmp_path, "results", "-o", "x.csv")
    assert done.returncode == 1 and not (tmp_path / "x.csv").exists()
    said = done.stderr.decode()
    assert "the database holds 2 chats; pick one with --chat KEY:" in said
    assert "test:g1" in said and "test:g2" in said


def test_an_empty_database_says_so(tmp_path):
    (tmp_path / "quizhost.db").touch()
    done = quizhost(tmp_path, "results")
    assert done.returncode == 1 and b"no chat has played a quiz in this database yet" in done.stderr
    done = quizhost(tmp_path, "chats")
    assert done.returncode == 0 and b"no chat has played a quiz" in done.stderr


async def test_a_title_someone_chose_cannot_steer_the_admins_terminal(tmp_path):
    """A group's title with a terminal's escape sequences (set the window title, ring the bell,
    clear the screen, an 8-bit CSI) and a right-to-left override, stored raw (as an earlier
    version kept it): both commands that list chats show its controls as text."""
    await fill(tmp_path, [("g1", 1), ("g2", 1)])
    crafted = "\x1b]0;pwned\x07Evil\x1b[2J\u202eGroup\x9b1m"
    with sqlite3.connect(tmp_path / "quizhost.db") as db:
        db.execute("UPDATE chats SET title = ? WHERE key = 'test:g1'", (crafted,))
    shown = r"\x1b]0;pwned\x07Evil\x1b[2JGroup\x9b1m"  # the override dropped, as where titles enter

    listed = quizhost(tmp_path, "chats").stdout.decode()
    picked = quizhost(tmp_path, "results", "-o", "x.csv").stderr.decode()
    for said in (listed, picked):
        line = next(line for line in said.splitlines() if "test:g1" in line)
        assert line.endswith(shown), line
        assert not any(ch in said for ch in "\x1b\x07\x9b\u202e"), repr(said)
