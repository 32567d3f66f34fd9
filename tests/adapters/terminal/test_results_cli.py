"""`quizhost results` as an admin uses it, through a real subprocess on a database filled by
playing a shipped quiz through the engine: the chat's answers as CSV or .xlsx, to a file or to
standard output, from a day on; its points add up to the boards; bad input is said in one line."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.sqlite.store import SqliteStore
from tests.support.house import build
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.web_harness import play

ANN, BOB = player(1, "Ann"), player(2, "+Bob")
DAY = 86400


def results(tmp_path: Path, *args: str, quizzes: Path | None = None) -> subprocess.CompletedProcess:
    """`quizhost results` on tmp_path's database; `quizzes`: a folder of quizzes besides the shipped ones."""
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "quizhost.db")}
    env.pop("QUIZHOST_QUIZZES", None)
    if quizzes is not None:
        env["QUIZHOST_QUIZZES"] = str(quizzes)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "results", *args],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


@pytest.fixture
async def board(tmp_path: Path) -> dict[str, int]:
    """Two runs of a shipped quiz in a group, a day apart; the all-time board's points by player."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    try:
        catalog = Catalog.load(default_quiz_folders())
        clock = FakeClock(datetime(2026, 11, 1, 12, tzinfo=UTC).timestamp())
        engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
        adapter = RecordingAdapter()
        engine.attach(adapter)
        quiz = catalog.get("pipeline")
        assert quiz is not None
        n = len(quiz.questions)
        await play(engine, adapter, group(), quiz, {ANN: [True] * n, BOB: [i % 2 == 0 for i in range(n)]})
        clock.advance(DAY)
        await play(engine, adapter, group(), quiz, {BOB: [True] * n})
        return {s.player_key: s.points for s in await store.leaderboard(group().key)}
    finally:
        await store.close()


def sums(rows: list[dict]) -> dict[str, int]:
    found: dict[str, int] = {}
    for row in rows:
        found[str(row["player_id"])] = found.get(str(row["player_id"]), 0) + int(row["points"])
    return found


def test_a_chats_results_as_csv_and_xlsx_add_up_to_its_board(tmp_path, board):
    done = results(tmp_path, "--chat", group().key, "--format", "csv", "--output", "all.csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "all.csv").read_text("utf-8-sig"))))
    assert rows == assert_inert_csv((tmp_path / "all.csv").read_bytes())
    assert done.stderr.decode().strip() == f"all.csv: {len(rows)} row(s) written"
    assert sums(rows) == board and {r["quiz_id"] for r in rows} == {"pipeline"}
    assert "'+Bob" in {r["player"] for r in rows}, "a name that would be a formula stays text"
    assert rows[0]["started"].startswith("2026-11-01T12:00:00+00:00"), "in the chat's zone (UTC: none set)"

    done = results(tmp_path, "--chat", group().key, "--format", "xlsx", "-o", "all.xlsx")
    assert done.returncode == 0, done.stderr
    assert sums(assert_inert_xlsx((tmp_path / "all.xlsx").read_bytes())) == board


def test_since_a_day_keeps_the_later_run_only_and_standard_output_works(tmp_path, board):
    done = results(tmp_path, "--chat", group().key, "--since", "2026-11-02")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode("utf-8-sig"))))
    assert rows and {r["player"] for r in rows} == {"'+Bob"} and len({r["run"] for r in rows}) == 1


def test_bad_input_is_said_in_one_line_and_writes_nothing(tmp_path, board):
    done = results(tmp_path, "--chat", group().key, "--since", "1 Nov", "-o", "x.csv")
    assert done.returncode == 1 and b"--since 1 Nov: write the day as YYYY-MM-DD" in done.stderr
    done = results(tmp_path, "--chat", "telegram:-1", "-o", "x.csv")
    assert done.returncode == 1 and b"the chat telegram:-1 has played no quiz in this database" in done.stderr
    done = results(tmp_path, "--chat", group().key, "--format", "pdf")
    assert done.returncode == 2 and b"invalid choice: 'pdf'" in done.stderr
    assert not (tmp_path / "x.csv").exists()
