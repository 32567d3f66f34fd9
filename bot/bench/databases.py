"""Where each bench phase keeps its data: a SQLite file in the bench's folder, or, with
`--db postgresql://...`, a schema of its own in that database (`quizhost_bench_<phase>`),
dropped before the phase and after the bench (unless --keep), so the bench never touches
the tables of a bot using the same database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from storage.dburl import Kind, parse

SCHEMA_PREFIX = "quizhost_bench_"


@dataclass
class BenchDatabases:
    folder: Path
    url: str | None = None  # a PostgreSQL database; None: SQLite files in `folder`
    keep: bool = False
    _schemas: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.url is not None and parse(self.url).kind is not Kind.POSTGRES:
            raise ValueError("--db wants a postgresql:// URL (without it the bench uses SQLite files)")

    @property
    def kind(self) -> str:
        return "postgresql" if self.url else "sqlite"

    def target(self, phase: str) -> str:
        """The QUIZHOST_DB-style name of the phase's database."""
        if self.url is None:
            return str(self.folder / f"{phase}.db")
        glue = "&" if "?" in self.url else "?"
        return f"{self.url}{glue}search_path={SCHEMA_PREFIX}{phase}"  # asyncpg: a server setting

    async def fresh(self, phase: str) -> str:
        """An empty database for the phase (SQLite: a new file; PostgreSQL: a new schema)."""
        if self.url is None:
            for suffix in ("", "-wal", "-shm"):
                Path(self.target(phase) + suffix).unlink(missing_ok=True)
            return self.target(phase)
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA_PREFIX}{phase} CASCADE")
            await conn.execute(f"CREATE SCHEMA {SCHEMA_PREFIX}{phase}")
        finally:
            await conn.close()
        self._schemas.append(phase)
        return self.target(phase)

    async def cleanup(self) -> None:
        if self.url is None or self.keep or not self._schemas:
            return
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            for phase in self._schemas:
                await conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA_PREFIX}{phase} CASCADE")
        finally:
            await conn.close()
        self._schemas.clear()
