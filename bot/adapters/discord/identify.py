"""Discord's identify limit across processes: one IDENTIFY per bucket every 5 seconds.

Shards of one bot may run in several `quizhost run` processes (DISCORD_SHARD_IDS); Discord
counts their identifies together, so discord.py's own wait (a sleep inside one process) is
not enough. Before each identify a shard takes its bucket's lock in the store (PostgreSQL: an
advisory lock, held by whichever process identifies) and keeps it 5 seconds after, so the
next process on that bucket identifies no sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

log = logging.getLogger("quizhost.discord")

IDENTIFY_SPACING = 5.0  # Discord: one identify per bucket each 5 s (session_start_limit.max_concurrency buckets)


class IdentifyTurns:
    def __init__(
        self, lock: Callable[[int], AbstractAsyncContextManager[None]], spacing: float = IDENTIFY_SPACING
    ) -> None:
        self._lock = lock
        self.spacing = spacing
        self.max_concurrency = 1  # identifies Discord takes at once; shard id % this is the bucket
        self.buckets_known = False  # max_concurrency read from Discord (sharded clients ask once)
        self._held: set[asyncio.Task[None]] = set()

    async def wait_turn(self, shard_id: int | None) -> None:
        """Return when this shard may identify; its bucket stays taken `spacing` seconds after."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        holder = asyncio.create_task(self._hold((shard_id or 0) % self.max_concurrency, turn))
        self._held.add(holder)
        holder.add_done_callback(self._held.discard)
        try:
            await asyncio.shield(turn)
        except asyncio.CancelledError:
            holder.cancel()
            raise
        except Exception as exc:  # the database is away: identify as one process alone would
            log.warning(
                "the identify lock in the database failed (%s); waiting %.0f s instead",
                type(exc).__name__,
                self.spacing,
            )
            await asyncio.sleep(self.spacing)

    async def _hold(self, bucket: int, turn: asyncio.Future[None]) -> None:
        try:
            async with self._lock(bucket):
                turn.set_result(None)
                await asyncio.sleep(self.spacing)
        except Exception as exc:  # wait_turn says so and waits alone
            if not turn.done():
                turn.set_exception(exc)
        finally:
            if not turn.done():
                turn.cancel()

    async def close(self) -> None:
        """Let every bucket go (a stopping bot identifies no more)."""
        for holder in list(self._held):
            holder.cancel()
        for holder in list(self._held):
            with contextlib.suppress(asyncio.CancelledError):
                await holder
