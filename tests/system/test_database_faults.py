"""Databases that cannot hurt: bad files refused in one line, one process per file, a deleted
file noticed, a full disk survived (on a real, small tmpfs that really fills)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.content.catalog import Catalog
from bot.engine import run_steps
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from storage.dburl import StoreUnavailable
from storage.sqlite import guard as sqlite_guard
from storage.sqlite.schema import MIGRATIONS
from storage.sqlite.store import SqliteStore
from tests.support.house import build


def quizhost(tmp_path: Path, db: str, *args: str, token: str = "") -> subprocess.CompletedProcess:
    """`quizhost *args` on `db`; `token`: a Discord token for `run` (the database fails before any login)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    if token:
        env["DISCORD_BOT_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "QUIZHOST_DB": db},
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def one_line_naming_the_setting(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith("quizhost: QUIZHOST_DB=")
    return lines[0]


def test_a_garbage_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "garbage.db").write_bytes(bytes(range(256)) * 16)
    line = one_line_naming_the_setting(quizhost(tmp_path, "garbage.db", "play", "pipeline"))
    assert "not a SQLite database" in line
    assert (tmp_path / "garbage.db").read_bytes() == bytes(range(256)) * 16  # nothing changed


def test_a_database_from_a_newer_quizhost_is_refused_and_left_alone(tmp_path):
    with contextlib.closing(sqlite3.connect(tmp_path / "newer.db")) as db:
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    line = one_line_naming_the_setting(quizhost(tmp_path, "newer.db", "play", "pipeline"))
    assert f"schema version {len(MIGRATIONS) + 5}" in line and "newer quizhost" in line
    with contextlib.closing(sqlite3.connect(tmp_path / "newer.db")) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 5


@contextlib.contextmanager
def tmpfs(where: Path, size: str):
    """A real, small filesystem (root only: skipped elsewhere)."""
    where.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_read_only_folder_is_refused_in_one_line(tmp_path):
    with tmpfs(tmp_path / "disk", "1m") as disk:
        with contextlib.closing(sqlite3.connect(disk / "q.db")) as db:
            db.execute("CREATE TABLE t(x)")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        for name in ("q.db", "new.db"):
            line = one_line_naming_the_setting(quizhost(tmp_path, str(disk / name), "play", "pipeline"))
            assert "read-only" in line
            # `run` logs at INFO: still nothing before the line (the catalog's index is not tried)
            running = quizhost(tmp_path, str(disk / name), "run", token="bm90LWE.dG9rZW4.Zm9yLXRoaXM")
            line = one_line_naming_the_setting(running)
            assert "read-only" in line


async def test_a_second_process_on_the_same_file_is_refused_and_the_first_goes_on(tmp_path):
    first = await SqliteStore.open(tmp_path / "q.db")
    try:
        for command in (["play", "pipeline"], ["run"]):
            env_token = {"TELEGRAM_BOT_TOKEN": "1:" + "x" * 35, "TELEGRAM_API_URL": "http://127.0.0.1:9/bot"}
            result = subprocess.run(
                [sys.executable, "-m", "bot.cli", *command],
                capture_output=True,
                text=True,
                cwd=tmp_path,
                stdin=subprocess.DEVNULL,
                timeout=60,
                env={**os.environ, **env_token, "QUIZHOST_DB": str(tmp_path / "q.db")},
            )
            line = one_line_naming_the_setting(result)
            assert "in use by another quizhost" in line and f"process {os.getpid()}" in line
        await first.ensure_chat(group())  # the first still writes
        assert (await first.chat_settings(group().key)).language is None
    finally:
        await first.close()
    again = await SqliteStore.open(tmp_path / "q.db")  # closed: the file is free again
    await again.close()


async def test_the_database_file_deleted_or_replaced_under_a_running_store_is_noticed(tmp_path, monkeypatch):
    for harm in ("delete", "replace"):
        path = tmp_path / f"{harm}.db"
        store = await SqliteStore.open(path)
        watcher = asyncio.create_task(sqlite_guard.watch(store.path, sqlite_guard.FileIdentity.of(store.path), 0.01))
        try:
            path.unlink()
            if harm == "replace":
                path.write_bytes(b"")
            with pytest.raises(StoreUnavailable) as stopped:
                await asyncio.wait_for(watcher, 10)
            assert ("deleted" if harm == "delete" else "replaced") in str(stopped.value)
            assert str(stopped.value).startswith(f"QUIZHOST_DB={path}")
        finally:
            watcher.cancel()
            await store.close()


def fill(disk: Path) -> Path:
    """Write a file until the filesystem says it is full."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


async def test_a_full_disk_tells_presses_they_were_not_saved_and_the_run_waits_for_space(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(run_steps, "STORE_RETRY_SECONDS", 0.01)
    monkeypatch.setattr(run_steps, "STORE_RETRY_MAX_SECONDS", 0.05)
    with tmpfs(tmp_path / "disk", "2m") as disk:
        store = await SqliteStore.open(disk / "q.db")
        quiz, adapter, clock = make_quiz(), RecordingAdapter(), FakeClock()
        settings = EngineSettings(question_seconds=30, pause_seconds=5)
        engine = build(Catalog.from_quizzes([quiz]), store, clock, settings).engine
        engine.attach(adapter)
        try:
            await engine.start(group(), "demo", player(1))
            clock.advance(3)
            await engine.run_due()
            assert len(adapter.questions) == 1
            # a reader pinned to a snapshot: SQLite cannot start the WAL over, so every commit
            # needs new space (as on a busy bot, whose WAL is never idle)
            pin = sqlite3.connect(disk / "q.db", isolation_level=None)
            pin.execute("BEGIN")
            pin.execute("SELECT COUNT(*) FROM runs").fetchone()
            filler = fill(disk)

            refused = await engine.answer(adapter.token("A"), player(2))
            assert not refused.accepted and "not saved" in refused.text
            clock.advance(31)
            caplog.set_level(logging.WARNING, "quizhost.engine")
            step = asyncio.create_task(engine.run_due())
            while sum("state was not stored" in r.getMessage() for r in caplog.records) < 3:
                await asyncio.sleep(0.01)
                assert not step.done()
            assert adapter.reveals == []  # the close is not stored: nobody is told about it

            filler.unlink()  # space returns
            await asyncio.wait_for(step, 10)
            assert len(adapter.reveals) == 1
            pin.execute("COMMIT")
            assert pin.execute("SELECT phase, idx FROM runs").fetchone() == ("pausing", 0)
            pin.close()
            clock.advance(6)
            await engine.run_due()
            assert len(adapter.questions) == 2  # the run goes on, no restart
            assert (await engine.answer(adapter.token("A"), player(2))).accepted
        finally:
            await store.close()


async def test_quizhost_run_stops_with_one_clear_error_when_its_file_is_deleted(tmp_path, monkeypatch):
    from bot.app.wiring import run
    from bot.testing.fake_telegram import FakeBotApi
    from tests.support.telegram_harness import clean_environment, settings_for

    clean_environment(monkeypatch)
    monkeypatch.setattr(sqlite_guard, "WATCH_SECONDS", 0.01)
    fake = FakeBotApi()
    await fake.start()
    try:
        settings = settings_for(fake, tmp_path)
        bot = asyncio.create_task(run(settings, clock=FakeClock(), stop=asyncio.Event()))
        await fake.wait_for(lambda: fake.called("getUpdates"), what="the bot polling")
        Path(settings.quizhost_db).unlink()
        with pytest.raises(StoreUnavailable, match="deleted while quizhost ran"):
            await asyncio.wait_for(bot, 10)
    finally:
        await fake.stop()
