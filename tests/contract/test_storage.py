"""What only the SQLite store has: its file in WAL mode and its numbered migrations.

Everything every store must do is in tests/contract/stores/, which runs on SQLite too.
"""

from __future__ import annotations

import sqlite3

from storage.sqlite.schema import version
from storage.sqlite.store import SqliteStore


async def test_migrations_run_on_an_empty_file_and_only_once(tmp_path):
    path = tmp_path / "fresh.db"
    store = await SqliteStore.open(path)
    assert await store.schema_version() == version()
    await store.close()
    store = await SqliteStore.open(path)  # a second start changes nothing
    assert await store.schema_version() == version()
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"chats", "players", "runs", "answers"} <= tables
