"""A paused hosted game survives a SIGKILL: the next start resumes its question with the time it
had left (within 0.2 s), however long the bot was down."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.support.paths import ROOT_DIR

START = 1_800_000_000.0  # the game clock of the first process (a FakeClock: no wall-clock wait)


def bot(db: str, mode: str, at: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.host_bot", db, mode, str(at)],
        cwd=ROOT_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    return str(tmp_path / "host.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def test_a_paused_question_keeps_its_time_left_across_a_sigkill(database):
    first = bot(database, "pause", START)
    try:
        line = first.stdout.readline()
        assert line.startswith("PAUSED"), line + first.stderr.read()
        assert float(line.split()[1]) == pytest.approx(20, abs=0.2)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(30)
    second = bot(database, "resume", START + 3600)  # down for an hour
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    [left] = [float(line.split()[1]) for line in out.splitlines() if line.startswith("LEFT")]
    assert left == pytest.approx(20, abs=0.2)
