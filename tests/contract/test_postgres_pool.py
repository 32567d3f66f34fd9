"""The store's pool after the server drops connections: no dead connection is handed out again."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage.postgres.connection import open_pool

pytestmark = pytest.mark.postgres


async def _no_reset(conn: asyncpg.Connection) -> None:
    pass


async def _backends(pool: asyncpg.Pool, count: int) -> set[int]:
    """The server processes behind `count` connections held at once."""
    held = [await pool.acquire() for _ in range(count)]
    try:
        return {await conn.fetchval("SELECT pg_backend_pid()") for conn in held}
    finally:
        for conn in held:
            await pool.release(conn)


async def test_a_query_that_loses_its_connection_renews_every_connection_of_the_pool(postgres_url):
    pool = await open_pool(postgres_url, 3, 10, _no_reset)
    admin = await asyncpg.connect(postgres_url)
    try:
        before = await _backends(pool, 3)
        async with pool.acquire() as conn:
            victim = await conn.fetchval("SELECT pg_backend_pid()")
            sleeping = asyncio.ensure_future(conn.execute("SELECT pg_sleep(30)"))
            while not await admin.fetchval("SELECT pg_terminate_backend($1)", victim):
                await asyncio.sleep(0.01)
            with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, OSError)):
                await sleeping
        after = await _backends(pool, 3)
        assert before.isdisjoint(after), "the two connections the server kept were renewed too"
    finally:
        await admin.close()
        await pool.close()
