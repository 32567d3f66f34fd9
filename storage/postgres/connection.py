"""The store's pool: asyncpg's, except that a query that finds its connection lost renews them all.

When the server ends the sessions (a restart, a failover, `pg_terminate_backend`), asyncpg
learns of each idle connection's end only when that connection is next used: it either
reports it closed or, now and then, hands out one still stuck in the error it was reading,
whose first query fails with InternalClientError ("cannot switch to state 15; another
operation (2) is in progress", MagicStack/asyncpg#784). Each such connection would cost one
more failed batch of presses, each retry drawing the next dead connection from the pool. So
the first query whose connection turns out lost expires every connection in the pool, and the
next acquire of each connects afresh: only the statements in flight when the server dropped
them are lost.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg


def _noticing_loss(method: Callable[..., Awaitable[Any]]) -> Any:
    """`method`, calling its connection's `when_lost` when it fails and leaves the connection
    closed. Returns Any: asyncpg-stubs types these methods as overloads, which a wrapper cannot
    restate."""

    @functools.wraps(method)
    async def noticing(self: HealingConnection, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except Exception:
            if self.is_closed() and self.when_lost is not None:
                await self.when_lost()
            raise

    return noticing


class HealingConnection(asyncpg.Connection):
    """Every query method the store uses, and the BEGIN, COMMIT and ROLLBACK of a transaction
    (sent through `execute`), tell the pool when they find the connection lost."""

    when_lost: Callable[[], Awaitable[None]] | None = None

    execute = _noticing_loss(asyncpg.Connection.execute)
    executemany = _noticing_loss(asyncpg.Connection.executemany)
    fetch = _noticing_loss(asyncpg.Connection.fetch)
    fetchrow = _noticing_loss(asyncpg.Connection.fetchrow)
    fetchval = _noticing_loss(asyncpg.Connection.fetchval)


async def open_pool(
    url: str, size: int, timeout: float, reset: Callable[[asyncpg.Connection], Awaitable[None]]
) -> asyncpg.Pool:
    """asyncpg's pool of 1 to `size` HealingConnections, which expire the pool's connections
    when one of them is found lost."""

    async def renewing_the_pool(conn: asyncpg.Connection) -> None:
        if isinstance(conn, HealingConnection):  # always: it is the pool's connection_class
            conn.when_lost = pool.expire_connections

    pool = asyncpg.create_pool(
        url,
        min_size=1,
        max_size=size,
        timeout=timeout,
        reset=reset,
        connection_class=HealingConnection,
        init=renewing_the_pool,
    )
    return await pool
