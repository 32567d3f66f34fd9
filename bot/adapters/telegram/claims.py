"""A webhook update's claim in the database shared by every worker behind the load balancer.

A repeat of an update another live worker is still handling waits here for that worker: it
is dropped once handled there, and handled here if that worker died holding it (a press it
never answered) or its claim's lease ran out. A repeat still held after WAIT_SECONDS is
answered 503, so that the platform sends it again later rather than lose it.
"""

from __future__ import annotations

import asyncio

from bot.ports.clock import Clock
from bot.ports.store import TelegramUpdates

WAIT_SECONDS = 10.0  # a repeat waits this long at most for another worker's claim to end
RECHECK_SECONDS = 0.25  # between two looks at that claim


class SharedClaims:
    def __init__(self, store: TelegramUpdates, clock: Clock) -> None:
        self.store, self.clock = store, clock

    async def take(self, update_id: int) -> bool | None:
        """True: handle it here; False: it was handled (or this worker holds it); None: another
        live worker still holds it after WAIT_SECONDS."""
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while not await self.store.claim_update(update_id, self.clock.now()):
            if not await self.store.claimed_elsewhere(update_id, self.clock.now()):
                # finished, or its holder died between the two looks: then it is ours now
                return await self.store.claim_update(update_id, self.clock.now())
            if asyncio.get_running_loop().time() >= deadline:
                return None
            await asyncio.sleep(RECHECK_SECONDS)
        return True

    def finish(self, update_id: int) -> None:
        """Mark the update handled, in the background: the platform's answer need not wait for it."""
        self.store.finish_update_soon(update_id)
