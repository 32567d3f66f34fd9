"""An owner's wake-ups: presses and /stop that other workers took for the runs it runs.

Several workers share one PostgreSQL database (bot/ports/store/coordination.py RunWakeups). A worker that takes a
press or a /stop for a run it does not run writes it to the tables and wakes the owner. The
owner, woken, reads the tables: a stop request stops the run here as a /stop typed here would;
otherwise the open question's stored answers are counted, and the question closes early once
every player has answered, by the engine's own rule. A wake-up carries no state and may be
lost (the listener reconnecting): the lease renewal tick (bot/engine/workers.py) checks for stop
requests too, so a stop arrives within one tick, and a question not closed early closes at
its deadline over every stored answer all the same.
"""

from __future__ import annotations

import asyncio
import logging

from bot.domain.hosting import HostAction
from bot.engine.core import Engine
from bot.ports.store import RunWakeups

log = logging.getLogger("quizhost.wakeups")


class Wakeups:
    def __init__(self, engine: Engine, signals: RunWakeups) -> None:
        self.engine = engine
        self.signals = signals
        self._woken: set[int] = set()  # runs woken since the last look
        self._all = False  # wake-ups may have been missed: look at every run held here
        self._event = asyncio.Event()

    @classmethod
    def of(cls, engine: Engine, store: object) -> Wakeups | None:
        """Wake-ups when the store has them (PostgreSQL); None for a one-process store."""
        return cls(engine, store) if isinstance(store, RunWakeups) else None

    def woken(self, run_id: int | None) -> None:
        """A wake-up for that run (None: for every run); acted on by `serve`, never here."""
        if run_id is None:
            self._all = True
        else:
            self._woken.add(run_id)
        self._event.set()

    async def serve(self) -> None:
        """Listen, and act on the wake-ups as they come (many for one run: one look)."""
        await asyncio.gather(self.signals.listen(self.woken), self._act())

    async def _act(self) -> None:
        while True:
            await self._event.wait()
            self._event.clear()
            woken = self.held() if self._all else self._woken
            self._woken, self._all = set(), False
            try:
                await self.look(woken)
            except Exception:  # the database away a moment: the tick and the deadlines remain
                log.exception("acting on wake-ups failed")

    def held(self) -> set[int]:
        return {run.id for run in self.engine.open_runs()}

    async def look(self, run_ids: set[int]) -> None:
        """Read what the tables hold for these runs (those held here) and act on it."""
        held = run_ids & self.held()
        stopped = await self.stop_requested(held)
        await self.host_requested(held - stopped)
        await asyncio.gather(*(self._count(run_id) for run_id in held - stopped))

    async def host_requested(self, run_ids: set[int]) -> None:
        """Apply, in order, the host actions other workers took for the runs held here."""
        for run_id, action, by in await self.signals.host_requests(run_ids & self.held()):
            log.info("run %d: the host's %s, taken by another worker", run_id, action)
            await self.engine.apply_host_request(run_id, HostAction(action), by)

    async def stop_requested(self, run_ids: set[int]) -> set[int]:
        """Stop the runs held here whose stop another worker took; their ids."""
        requested = await self.signals.stops_requested(run_ids & self.held())
        for run_id in sorted(requested):
            log.info("run %d: stopped by a /stop another worker took", run_id)
            await self.engine.end_run(run_id)
        return requested

    async def _count(self, run_id: int) -> None:
        run = self.engine.run_by_id(run_id)
        if run is None or not run.is_asking:
            return
        index = run.row.index
        await self.engine.count_stored(run_id, index, await self.signals.question_answers(run_id, index))
