"""Never lose a press: a bot process under load is killed with SIGKILL, again and again.

Each cycle starts `tests/support/crash_bot.py` on the same database (a SQLite file, or PostgreSQL)
(it resumes the runs the last one left open and presses on), kills it at a random moment, and checks the database as
the next start will find it: every acknowledged press is stored, no player got two presses
acknowledged for one question, the boards equal the stored points, one open run per chat
at most. Last, a clean start plays every open run to its end.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from storage.postgres.rows import numbered
from storage.shared import boards, ranks
from tests.support.paths import ROOT_DIR

KILLS = 15  # cycles of start, load, SIGKILL; each takes well under a second
ROOT = ROOT_DIR


class Database:
    """The killed bot's database, SQLite file or PostgreSQL URL, read as the next start finds it."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = target.startswith("postgresql://")

    def rows(self, sql: str, args: dict | None = None) -> list[tuple]:
        """`sql` with :named parameters."""
        if self.postgres:
            return asyncio.run(self._pg_rows(sql, args or {}))
        with sqlite3.connect(self.target) as conn:
            return conn.execute(sql, args or {}).fetchall()

    async def _pg_rows(self, sql: str, args: dict) -> list[tuple]:
        conn = await asyncpg.connect(self.target)
        try:
            return [tuple(r) for r in await conn.fetch(*numbered(sql, args))]
        finally:
            await conn.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    return Database(
        str(tmp_path / "crash.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    )


def start_bot(db: str, mode: str, seed: int = 0) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.crash_bot", str(db), mode, "--seed", str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def kill_under_load(db: str, rng: random.Random, seed: int) -> list[tuple[int, int, str]]:
    """Run the bot until it has acknowledged a random number of presses, then SIGKILL it."""
    bot = start_bot(db, "load", seed)
    wanted, lines = rng.choice((0, rng.randint(1, 40), rng.randint(40, 400))), []
    try:
        first = bot.stdout.readline()
        assert first.startswith("RESUMED"), first + bot.stderr.read()
        while len(lines) < wanted:
            line = bot.stdout.readline()
            assert line, "the bot stopped by itself: " + bot.stderr.read()[-2000:]
            lines.append(line)
        time.sleep(rng.uniform(0, 0.02))  # mid-commit, mid-close, mid-print: wherever it is
    finally:
        os.kill(bot.pid, signal.SIGKILL)
        rest, _ = bot.communicate(timeout=10)
    lines += rest.splitlines(keepends=True)
    assert bot.returncode == -signal.SIGKILL
    acks = []
    for line in lines:
        if line.startswith("ACK ") and line.endswith("\n"):  # a whole line is a promise made
            _, run_id, number, player = line.split()
            acks.append((int(run_id), int(number), player))
    return acks


def check_database(db: Database, acks: list[tuple[int, int, str]]) -> None:
    stored = {(run, idx + 1, player) for run, idx, player in db.rows("SELECT run_id, idx, player_key FROM answers")}
    lost = [a for a in acks if a not in stored]
    assert not lost, f"{len(lost)} acknowledged presses are not stored, e.g. {lost[:3]}"
    assert len(acks) == len(set(acks)), "a player got two presses acknowledged on one question"
    assert db.rows(
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM runs WHERE status = 'open' GROUP BY chat_key) AS open_runs"
    )[0][0] in (None, 1)
    for (chat,) in db.rows("SELECT DISTINCT chat_key FROM answers"):
        for since in (None, 0.0):  # the all-time summaries, the per-day ones
            truth, board = _answers_and_board(db, chat, boards.board_source(chat, since))
            assert board == truth, f"board of {chat} (since {since}) differs from its stored answers"
        truth, board = _answers_and_board(db, chat, _ranked_all_time(chat))
        assert board == truth, f"ranked all-time board of {chat} differs from its stored answers"


def _ranked_all_time(chat: str) -> tuple[str, dict]:
    """The all-time rows /leaderboard reads: the ranked summary of ended runs, the open runs' answers."""
    summary = "SELECT player_key, points FROM board_ranks WHERE chat_key = :chat AND span = 'all' AND quiz_id = ''"
    return f"{summary} UNION ALL {ranks.open_answers('a.player_key, a.points')}", {"chat": chat}


def _answers_and_board(db: Database, chat: str, board: tuple[str, dict]) -> tuple[dict, dict]:
    """Both read by one statement, so from one snapshot: the killed bot's server session may
    still commit the batch whose COMMIT it had sent (its answers are live: on the board and in
    the answers at once), and between two statements that shows as a board ahead of its answers."""
    source, args = board
    rows = db.rows(
        "SELECT 'answers', player_key, SUM(points) FROM answers WHERE chat_key = :chat GROUP BY player_key "
        f"UNION ALL SELECT 'board', player_key, SUM(points) FROM ({source}) AS b GROUP BY player_key",
        args,
    )
    return (
        {player: points for kind, player, points in rows if kind == "answers"},
        {player: points for kind, player, points in rows if kind == "board"},
    )


def test_sigkill_at_random_moments_loses_no_acknowledged_press(database):
    seed = int(os.environ.get("CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    acks: list[tuple[int, int, str]] = []
    for cycle in range(KILLS):
        acks += kill_under_load(database.target, rng, seed + cycle)
        check_database(database, acks)
    assert len(acks) > KILLS, f"the bot hardly pressed (seed {seed})"

    bot = start_bot(database.target, "finish")
    out, err = bot.communicate(timeout=60)
    assert bot.returncode == 0, err[-2000:]
    assert out.splitlines()[-1].endswith("OPEN 0"), out
    check_database(database, acks)
    assert database.rows("SELECT COUNT(*) FROM runs WHERE status = 'open'")[0][0] == 0
    assert database.rows("SELECT COUNT(*) FROM runs")[0][0] >= 4  # the chats played
