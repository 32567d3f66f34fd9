"""Several workers on one database: keep this worker's leases and take over the runs of a
worker that died.

Only with a store that leases runs (PostgreSQL, bot/ports/store/coordination.py RunLeases). The worker claims the
open runs nobody holds when it starts, then every few seconds renews the leases of the runs it
runs (a run another worker took over is dropped here) and claims runs whose worker stopped
renewing: those continue here as after a restart, from their stored state. With the leases it
keeps the wake-ups (bot/engine/wakeups.py): each renewal also looks for /stop requests other workers
took for these runs, in case their wake-up was lost.
"""

from __future__ import annotations

import asyncio
import logging

from bot.engine.core import Engine
from bot.engine.sender import Sender
from bot.engine.wakeups import Wakeups
from bot.ports.store import RunLeases

log = logging.getLogger("quizhost.workers")

RENEW_SECONDS = 5.0  # a third of the lease: two renewals may fail before a lease runs out


class LeaseKeeper:
    def __init__(self, engine: Engine, leases: RunLeases, sender: Sender, every: float = RENEW_SECONDS) -> None:
        """`sender` takes the messages of the runs claimed here."""
        self.engine = engine
        self.leases = leases
        self.sender = sender
        self.every = every
        self.taken_over = 0  # runs claimed after the first round: a dead or stopped worker's
        self.wakeups = Wakeups.of(engine, leases)

    @classmethod
    def of(cls, engine: Engine, store: object, sender: Sender) -> LeaseKeeper | None:
        """A keeper when the store leases runs; None for a single-process store."""
        return cls(engine, store, sender) if isinstance(store, RunLeases) else None

    async def start(self) -> int:
        """Claim the runs nobody holds and run them here, and the messages owed by ended runs
        nobody sends (ours from before a restart too); how many runs are here."""
        held = await self.engine.adopt(await self.leases.claim_runs())
        self.sender.take(await self.leases.claim_outbox(own_too=True))
        return held

    async def tick(self) -> None:
        if not await self.leases.hold_name():  # held already; taken again after the database dropped it
            log.error("another live worker took this worker's name: give each worker its own QUIZHOST_WORKER")
        held = {run.id for run in self.engine.open_runs()}
        kept = await self.leases.renew_leases(held)
        self.engine.drop(held - kept)
        claimed = await self.leases.claim_runs()
        if claimed:
            log.info("taking over %d run(s) whose worker stopped: %s", len(claimed), [r.id for r in claimed])
            self.taken_over += len(claimed)
            await self.engine.adopt(claimed)
        self.sender.take(await self.leases.claim_outbox())  # a dead worker's, of runs that ended
        if self.wakeups is not None:
            await self.wakeups.stop_requested(self.wakeups.held())
            await self.wakeups.host_requested(self.wakeups.held())

    async def serve(self) -> None:
        """Renew every few seconds; act on wake-ups meanwhile."""
        if self.wakeups is None:
            await self._renew()
        else:
            await asyncio.gather(self._renew(), self.wakeups.serve())

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.tick()
            except Exception:  # the database may be away a moment; a lease outlasts a missed renewal
                log.exception("renewing leases failed; trying again in %.0f s", self.every)
