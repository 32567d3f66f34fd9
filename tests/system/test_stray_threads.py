"""A failing test that leaves an aiosqlite connection open does not hang the run at exit
(tests/support/stray_threads.py): pytest's status comes back, the stray thread is named."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import ROOT_DIR

LEAKING_TEST = """
import aiosqlite

LEFT_OPEN = []


async def test_fails_with_a_connection_open(tmp_path):
    LEFT_OPEN.append(await aiosqlite.connect(tmp_path / "left-open.db"))
    assert False
"""

CONFTEST = """
import pytest

from tests.support.stray_threads import exit_past_stray_threads, note_status


def pytest_sessionfinish(session, exitstatus):
    note_status(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    exit_past_stray_threads()
"""


def test_a_run_with_a_thread_left_running_exits_with_pytests_status(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_left_open.py").write_text(LEAKING_TEST, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            str(tmp_path),
            "-o",
            "asyncio_mode=auto",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT_DIR), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,  # without the guard this run never ends
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout
    assert "stray threads still running after the tests" in done.stderr
    assert "_connection_worker_thread" in done.stderr
