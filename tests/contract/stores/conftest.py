"""The store implementations the contract suite runs on: one `store_factory` param each.

Every test in this folder is written against the Store protocol (bot/ports/store/) and runs once
per entry of IMPLEMENTATIONS, each time on a fresh, empty database. Adding a store is one more
entry: how to get such a database, how to open the store on it, and how to make that database
refuse answers (for the failed-commit test). Nothing else changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.ports.store import Store
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore


@dataclass(frozen=True)
class Implementation:
    database: Callable[[pytest.FixtureRequest, Path], str]  # a fresh, empty database: a path or a URL
    open: Callable[[str], Awaitable[Store]]
    refuse_answers: Callable[[str, bool], Awaitable[None]]  # True: every answer insert fails; False: heals
    marks: tuple[pytest.MarkDecorator, ...] = ()


async def _sqlite_refuse(path: str, refuse: bool) -> None:  # as a full disk or a broken file would
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON answers BEGIN SELECT RAISE(ABORT, 'refused'); END"
            if refuse
            else "DROP TRIGGER refuse"
        )


async def _postgres_refuse(url: str, refuse: bool) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'refused'; END $$; "
            "CREATE TRIGGER refuse BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION refuse_answer()"
            if refuse
            else "DROP TRIGGER refuse ON answers; DROP FUNCTION refuse_answer()"
        )
    finally:
        await conn.close()


IMPLEMENTATIONS: dict[str, Implementation] = {
    "sqlite": Implementation(lambda request, folder: str(folder / "contract.db"), SqliteStore.open, _sqlite_refuse),
    "postgres": Implementation(
        lambda request, folder: request.getfixturevalue("postgres_url"),
        PostgresStore.open,
        _postgres_refuse,
        (pytest.mark.postgres,),
    ),
}


@dataclass
class StoreBackend:
    """One fresh database of one implementation, and what the tests do to it."""

    implementation: Implementation
    database: str
    opened: list[Store] = field(default_factory=list)

    async def open(self) -> Store:
        store = await self.implementation.open(self.database)
        self.opened.append(store)
        return store

    async def restart(self, store: Store) -> Store:
        """Close `store` and open the same database again, as a bot does when it restarts."""
        await store.close()
        self.opened.remove(store)
        return await self.open()

    async def refuse_answers(self, refuse: bool) -> None:
        await self.implementation.refuse_answers(self.database, refuse)

    async def close_all(self) -> None:
        for store in self.opened:
            await store.close()
        self.opened.clear()


@pytest.fixture(params=[pytest.param(name, marks=impl.marks) for name, impl in IMPLEMENTATIONS.items()])
def store_database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Implementation, str]:
    implementation = IMPLEMENTATIONS[request.param]
    return implementation, implementation.database(request, tmp_path)


@pytest.fixture
async def store_factory(store_database: tuple[Implementation, str]) -> AsyncIterator[StoreBackend]:
    backend = StoreBackend(*store_database)
    try:
        yield backend
    finally:
        await backend.close_all()


@pytest.fixture
async def store(store_factory: StoreBackend) -> Store:
    """A store on the test's fresh database (overrides tests/conftest.py's SQLite one here)."""
    return await store_factory.open()
