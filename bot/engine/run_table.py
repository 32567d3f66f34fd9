"""The runs held in this process: found by chat and by id, each with its lock, and when each is due."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.domain.hosting import wake_at
from bot.domain.model import Quiz
from bot.domain.session import Run
from bot.engine.timers import Timers
from bot.ports.clock import Clock


@dataclass(slots=True)
class Flight:
    """Work in progress for one run, so a close waits for presses still being stored."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ticket: int = 0  # the store's ticket of this run's latest answer


class RunTable:
    def __init__(self, clock: Clock, step: Callable[[int], Awaitable[None]]) -> None:
        self.by_chat: dict[str, Run] = {}
        self.by_id: dict[int, Run] = {}
        self.flights: dict[int, Flight] = {}
        self.starting: dict[str, Quiz] = {}  # chat key -> the quiz whose run is being created there
        self.timers = Timers(clock, step, self.due_of)

    def due_of(self, run_id: int) -> float | None:
        run = self.by_id.get(run_id)
        return wake_at(run) if run is not None else None

    def open(self) -> list[Run]:
        return list(self.by_id.values())

    def next_due(self) -> float | None:
        return min((wake_at(r) for r in self.by_id.values()), default=None)

    def held(self, run_id: int) -> tuple[Run, Flight] | None:
        """The run with this id and its flight, when it is held here."""
        run, flight = self.by_id.get(run_id), self.flights.get(run_id)
        return None if run is None or flight is None else (run, flight)

    def schedule(self, run: Run) -> None:
        self.timers.schedule(run.id, wake_at(run))  # its due time, or its half-time hint before it

    def track(self, run: Run) -> None:
        self.by_chat[run.row.chat_key] = run
        self.by_id[run.id] = run
        self.flights.setdefault(run.id, Flight())
        self.schedule(run)

    def untrack(self, run: Run) -> None:
        self.by_chat.pop(run.row.chat_key, None)
        self.by_id.pop(run.id, None)
        self.flights.pop(run.id, None)  # a caller holding its lock keeps its own reference
