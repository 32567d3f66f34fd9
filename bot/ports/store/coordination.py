"""Several workers on one database (PostgreSQL): runs leased to one worker each, and the
wake-ups between them (bot/engine/workers.py, bot/engine/wakeups.py, bot/engine/remote_press.py).

Optional: a one-process store (SQLite) has neither; the engine asks `isinstance` and runs
alone without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from bot.domain.model import Player
from bot.domain.records import AnswerRow, OutboxMessage, PressFacts, RunRow


@runtime_checkable
class RunLeases(Protocol):
    """A store that several workers share (PostgreSQL): each open run is leased to one worker,
    by the database's clock, and a run whose worker died is claimed by another (bot/engine/workers.py)."""

    async def claim_runs(self) -> list[RunRow]:
        """Open runs nobody holds (lease run out or let go), leased to this worker now, with
        the messages they owe (the outbox rows of a run move with it)."""

    async def renew_leases(self, run_ids: set[int]) -> set[int]:
        """Extend this worker's leases, and its hold on every message it owes; the ids left out
        are not this worker's any more."""

    async def hold_name(self) -> bool:
        """Hold this worker's name (QUIZHOST_WORKER) while it lives: False when another live
        worker holds it (then this one must not run, and its close lets no lease go)."""

    async def release_leases(self) -> None:
        """Let every open run and owed message of this worker go, for another worker to claim at once."""

    async def claim_outbox(self, own_too: bool = False) -> list[OutboxMessage]:
        """Messages owed by ended runs that no live worker holds (its leases ran out, or were
        let go), held by this worker now, oldest first; with `own_too` this worker's own too
        (held before a restart under its name). Two workers never get the same message."""

    async def press_facts(self, run_id: int, player_key: str, unseen_cap: int) -> PressFacts | None:
        """One open run as stored (whichever worker runs it) with this player's part of it, the
        unseen answerers counted up to `unseen_cap`; None when it is not open."""

    async def insert_answer_if_asking(
        self, answer: AnswerRow, player: Player, wake_owner: bool = True, replace: bool = False
    ) -> bool | None:
        """A press for a run another worker runs, committed before it resolves: True stored,
        False this player had answered this question, None the question is not open (checked
        against the run's row, under its lock, so a press never lands after its close). A stored
        press wakes the run's owner (RunWakeups) when `wake_owner`. `replace`: a toggle of a
        select-all-that-apply question, stored over the player's answer (True, never False)."""

    async def seal_question(self, run_id: int, index: int) -> list[AnswerRow]:
        """The owner closes a question to other workers' presses; every stored answer to it."""


@runtime_checkable
class RunWakeups(Protocol):
    """Wake-ups between the workers of a store that leases runs (PostgreSQL LISTEN/NOTIFY).

    A worker that does not run a quiz writes what the owner must act on to the tables (an
    answer, a stop request) and wakes the owner; a wake-up carries only a run's id and may be
    lost, so the owner reads the truth from the tables, on a wake-up and on its renewal tick."""

    async def listen(self, woken: Callable[[int | None], None]) -> None:
        """Until cancelled, on a connection of its own: `woken(run_id)` for each wake-up (the
        run's id, whoever owns it), `woken(None)` after each (re)connect, when wake-ups may have
        been missed. A lost connection is connected again; nothing is raised."""

    async def chat_run(self, chat_key: str) -> RunRow | None:
        """The chat's open run as stored, whichever worker runs it; None when it has none."""

    async def request_stop(self, run_id: int, by: str) -> bool:
        """Mark the open run to be stopped (`by`: the player key who asked) and wake its owner;
        committed before it resolves. False when the run is not open (any more)."""

    async def stops_requested(self, run_ids: set[int]) -> set[int]:
        """Those of the runs that are open and have a stop request."""

    async def request_host(self, run_id: int, action: str, by: str) -> bool:
        """Store a host's action (bot/domain/hosting.py HostAction) for the open run's owner and
        wake it; committed before it resolves. False when the run is not open (any more), or
        `by` is not its host."""

    async def host_requests(self, run_ids: set[int]) -> list[tuple[int, str, str]]:
        """The host actions stored for these runs as (run id, action, host's key), oldest first,
        taken as they are read: each is applied once."""

    async def question_answers(self, run_id: int, index: int) -> list[AnswerRow]:
        """Every stored answer to that question of the run, whichever worker took it."""
