"""The PostgreSQL half of the tests: one throwaway cluster per session, a fresh database per test.

A run that cannot start PostgreSQL fails, it never skips: `pytest --sqlite-only` is the one
way to leave the PostgreSQL tests out (the README says so).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from bot.testing.postgres import Cluster, ClusterError, start_cluster

SQLITE_ONLY = "--sqlite-only"
_databases = itertools.count(1)


def add_option(parser: pytest.Parser) -> None:
    parser.addoption(
        SQLITE_ONLY, action="store_true", help="leave out the tests that need PostgreSQL (for a machine without it)"
    )


def deselect_postgres(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption(SQLITE_ONLY):
        return
    kept = [item for item in items if item.get_closest_marker("postgres") is None]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    try:
        cluster = start_cluster()
    except ClusterError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"CI=true and PostgreSQL could not start, so the PostgreSQL tests cannot run: {exc}", pytrace=False
            )
        pytest.fail(
            f"PostgreSQL could not start: {exc}\nWithout PostgreSQL, run the SQLite half only: pytest {SQLITE_ONLY}",
            pytrace=False,
        )
    yield cluster
    cluster.stop()


@pytest.fixture
async def postgres_url(postgres_cluster: Cluster) -> AsyncIterator[str]:
    """The URL of an empty database of its own."""
    name = f"test_{os.getpid()}_{next(_databases)}"
    admin = await asyncpg.connect(postgres_cluster.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield postgres_cluster.url(name)
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()
