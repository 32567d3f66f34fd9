"""`quizhost migrate-db`: an existing SQLite database, copied whole into an empty PostgreSQL one.

Both are brought to the latest schema by their own stores first, then every table is copied
with COPY in one PostgreSQL transaction, from one SQLite read transaction (a consistent
snapshot, even if a bot still writes). The board summaries are copied as they are (the
trigger that would summarise late answers is off while the answers go in), the run ids kept,
and the id sequence moved past them. All or nothing: on any problem the target stays empty.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from storage.dburl import Kind, masked, parse
from storage.postgres.store import PostgresStore
from storage.shared.tables import LATE_TRIGGERS
from storage.sqlite.store import SqliteStore

FIRST = ("chats", "players", "runs", "answers")  # referenced tables before the ones that refer to them
SKIPPED = {"schema_version"}  # each side keeps its own


class MigrationRefused(RuntimeError):
    """The copy cannot be made; nothing was changed. The message says why and what to do."""


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]  # table -> rows copied
    open_runs: int


async def migrate(source: str, target: str) -> Copied:
    sqlite_path, url = _endpoints(source, target)
    store = await SqliteStore.open(sqlite_path)  # brings an older file to the latest schema
    await store.close()
    pg = await PostgresStore.open(url, "--to")  # connects (one clear line if it cannot) and migrates
    await pg.close()
    conn = await asyncpg.connect(url)
    try:
        return await _copy(sqlite_path, conn, masked(url))
    finally:
        await conn.close()


def _endpoints(source: str, target: str) -> tuple[str, str]:
    try:
        origin, destination = parse(source), parse(target)
    except ValueError as exc:
        raise MigrationRefused(str(exc)) from None
    if origin.kind is not Kind.SQLITE:
        raise MigrationRefused("--from must be a SQLite database: a path or sqlite:///path")
    if destination.kind is not Kind.POSTGRES:
        raise MigrationRefused("--to must be a PostgreSQL database: postgresql://user:password@host:5432/db")
    if not Path(origin.location).is_file():
        raise MigrationRefused(f"{origin.location}: no such SQLite file")
    return origin.location, destination.location


async def _copy(sqlite_path: str, conn: asyncpg.Connection, shown: str) -> Copied:
    tables = await _target_tables(conn)
    lite = sqlite3.connect(sqlite_path)
    try:
        lite.execute("BEGIN")  # one snapshot for every table
        present = {r[0] for r in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = sorted(present - set(tables) - SKIPPED - {"sqlite_sequence"})
        if missing:
            raise MigrationRefused(
                f"{shown} has no table for {', '.join(missing)}; this quizhost cannot "
                "copy them: upgrade quizhost, then migrate again"
            )
        async with conn.transaction():
            await _require_empty(conn, tables, shown)
            for trigger in LATE_TRIGGERS:  # the summaries are copied as they are
                await conn.execute(f"ALTER TABLE answers DISABLE TRIGGER {trigger}")
            rows = {
                name: await _copy_table(lite, conn, name, columns)
                for name, columns in tables.items()
                if name in present
            }
            for trigger in LATE_TRIGGERS:
                await conn.execute(f"ALTER TABLE answers ENABLE TRIGGER {trigger}")
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('runs', 'id'), "
                "(SELECT COALESCE(MAX(id), 0) + 1 FROM runs), false)"
            )
            open_runs = await conn.fetchval("SELECT COUNT(*) FROM runs WHERE status = 'open'")
    finally:
        lite.close()
    return Copied(rows, open_runs)


async def _target_tables(conn: asyncpg.Connection) -> dict[str, dict[str, str]]:
    """The target's tables in copy order, each with its columns and their types."""
    found = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, dict[str, str]] = {}
    for row in found:
        if row["table_name"] not in SKIPPED:
            tables.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
    order = [t for t in FIRST if t in tables] + sorted(t for t in tables if t not in FIRST)
    return {name: tables[name] for name in order}


async def _require_empty(conn: asyncpg.Connection, tables: dict[str, dict[str, str]], shown: str) -> None:
    for name in tables:
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
            raise MigrationRefused(
                f"{shown} already holds quizhost data (table {name}); migrate into an "
                "empty database, nothing was changed"
            )


async def _copy_table(lite: sqlite3.Connection, conn: asyncpg.Connection, name: str, columns: dict[str, str]) -> int:
    present = [r[1] for r in lite.execute(f'PRAGMA table_info("{name}")')]
    shared = [c for c in columns if c in present]
    convert = [_converter(columns[c]) for c in shared]
    cursor = lite.execute(f'SELECT {", ".join(shared)} FROM "{name}"')
    copied = 0
    while batch := cursor.fetchmany(10_000):
        records = [tuple(f(v) for f, v in zip(convert, row)) for row in batch]
        await conn.copy_records_to_table(name, columns=shared, records=records)
        copied += len(records)
    return copied


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """SQLite's value as the PostgreSQL column wants it (asyncpg encodes strictly by type)."""
    if pg_type == "boolean":
        return lambda v: None if v is None else bool(v)
    if pg_type == "ARRAY":
        return lambda v: json.loads(v) if isinstance(v, str) else v
    if pg_type in ("double precision", "real", "numeric"):
        return lambda v: None if v is None else float(v)
    if pg_type in ("integer", "bigint", "smallint"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


def describe(copied: Copied) -> str:
    counts = ", ".join(f"{n:,} {table}" for table, n in copied.rows.items())
    return f"copied {counts}; {copied.open_runs} open run(s) continue on PostgreSQL"
