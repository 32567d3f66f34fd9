"""The runs of all chats: start, answer, stop, timers, and resuming after a restart.

The facade the commands, adapters and wiring use for runs; the work is done by its
collaborators, which the composition root (bot/app/compose.py) builds: the runs held here
(bot/engine/run_table.py), a run's steps, closes and podium (bot/engine/run_steps.py), /quiz
(bot/engine/run_start.py), /stop and taking runs up or letting them go
(bot/engine/run_lifecycle.py), presses (bot/engine/presses.py). Chats' settings and language
(bot/engine/chats.py) and boards (bot/engine/standings.py) are handed to those who ask for them.
"""

from __future__ import annotations

import asyncio

from bot.domain.hosting import HostAction, wake_at
from bot.domain.model import Ack, ChatRef, Player, Quiz, Reply
from bot.domain.records import AnswerRow, RunRow
from bot.domain.session import Run
from bot.engine.hosting import Hosting
from bot.engine.presses import Presses
from bot.engine.remote_press import RemoteRuns, stored_run
from bot.engine.run_lifecycle import RunLifecycle, StopOutcome, StopStatus
from bot.engine.run_start import EngineSettings, RunStarter, StartOutcome, StartStatus
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.engine.sender import DRAIN_SECONDS, Sender
from bot.ports.chat import ChatAdapter
from bot.ports.clock import Clock
from bot.ports.store import RunRecords

__all__ = ["Engine", "EngineSettings", "StartOutcome", "StartStatus", "StopOutcome", "StopStatus"]


class Engine:
    """The run-facing facade over the collaborators the composition root (bot/app/compose.py)
    builds and hands it: the runs held here, their steps, starts, stops and presses, the sender."""

    def __init__(
        self,
        *,
        store: RunRecords,
        clock: Clock,
        adapters: dict[str, ChatAdapter],
        runs: RunTable,
        sender: Sender,
        steps: RunSteps,
        starter: RunStarter,
        lifecycle: RunLifecycle,
        presses: Presses,
        remote: RemoteRuns | None = None,
        hosting: Hosting | None = None,
    ) -> None:
        """`adapters`: the sender's dict by platform, which `attach` fills; `remote`: with
        several workers on one database, what reads another worker's run."""
        self._store = store
        self._clock = clock
        self._adapters = adapters
        self._runs = runs
        self._sender = sender
        self._steps = steps
        self._starter = starter
        self._lifecycle = lifecycle
        self._presses = presses
        self._remote = remote
        self._hosting = hosting

    # wiring -------------------------------------------------------------------------

    def attach(self, adapter: ChatAdapter) -> None:
        self._adapters[adapter.platform] = adapter

    def run_in(self, chat: ChatRef) -> Run | None:
        return self._runs.by_chat.get(chat.key)

    def open_runs(self) -> list[Run]:
        return self._runs.open()

    def run_by_id(self, run_id: int) -> Run | None:
        return self._runs.by_id.get(run_id)

    async def open_run(self, run_id: int, player: Player, number: int) -> Run | None:
        """Run `run_id` while it is open: held here, or, with several workers, as stored by the
        one that runs it (`player`'s part of it read with it); None when it is not open."""
        run = self.run_by_id(run_id)
        if run is None and self._remote is not None:
            return await stored_run(self._remote, run_id, player, number)
        return run

    async def resume(self) -> int:
        """Load every open run from the store; due ones are handled by the next tick. What the
        last process owed goes out first, the messages of runs that ended since too."""
        return await self.adopt(await self._store.open_runs(), ended_runs_too=True)

    async def adopt(self, rows: list[RunRow], ended_runs_too: bool = False) -> int:
        return await self._lifecycle.adopt(rows, ended_runs_too)

    def drop(self, run_ids: set[int]) -> None:
        self._lifecycle.drop(run_ids)

    # commands -----------------------------------------------------------------------

    async def start(
        self,
        chat: ChatRef,
        topic: str,
        by: Player,
        count: int | None = None,
        hosted: bool = False,
        seconds: int | None = None,
    ) -> StartOutcome:
        return await self._starter.start(chat, topic, by, count, hosted, seconds)

    async def start_quiz(
        self,
        chat: ChatRef,
        quiz: Quiz,
        by: Player,
        count: int | None = None,
        questions: tuple[str, ...] | None = None,
        seconds: int | None = None,
        board: str = "",
        time_factor: float | None = None,
    ) -> StartOutcome:
        return await self._starter.start_quiz(chat, quiz, by, count, questions, seconds, board, time_factor=time_factor)

    async def answer(self, data: str | bytes | None, player: Player, chat: ChatRef | None = None) -> Ack:
        return await self._presses.answer(data, player, chat)

    async def answer_text(
        self,
        chat: ChatRef,
        player: Player,
        text: str,
        *,
        run_id: int | None = None,
        number: int | None = None,
        reply_to: str | None = None,
        vouched: bool = False,
    ) -> Ack | None:
        """A typed or numeric answer (bot/engine/presses.py): None when the text is ordinary chat."""
        return await self._presses.answer_text(chat, player, text, run_id, number, reply_to, vouched)

    async def count_stored(self, run_id: int, index: int, stored: list[AnswerRow]) -> None:
        await self._presses.count_stored(run_id, index, stored)

    async def stop(self, chat: ChatRef, by: Player, is_admin: bool) -> StopOutcome:
        return await self._lifecycle.stop(chat, by, is_admin)

    async def end_run(self, run_id: int) -> bool:
        return await self._lifecycle.end_run(run_id)

    # time ---------------------------------------------------------------------------

    def next_due(self) -> float | None:
        return self._runs.next_due()

    async def run_due(self) -> None:
        """Send what is owed and advance every run whose time has come, until none is due and
        no step the timer loop started is still going (tests call this, and the terminal at the
        end of its input)."""
        await self._sender.flush_due()
        while True:
            await self._runs.timers.steps_ended()  # a finishing run has left the open ones already
            now = self._clock.now()
            due = [r for r in self._runs.open() if wake_at(r) <= now]
            if not due:
                return
            await asyncio.gather(*(self._steps.advance(r) for r in due))

    async def serve(self) -> None:
        """The timer loop (wake at the next deadline or when a press closes a question early)
        and the sender of the outbox."""
        await asyncio.gather(self._runs.timers.serve(), self._sender.serve())

    async def stop_sending(self, seconds: float = DRAIN_SECONDS) -> int:
        """For a clean stop: wait a bounded time for messages in flight; the rest stay stored."""
        return await self._sender.drain(seconds)

    # hosted games -------------------------------------------------------------------

    async def host(self, chat: ChatRef, action: HostAction, by: Player, is_admin: bool) -> Reply:
        """A host's action on the chat's hosted run (bot/engine/hosting.py): the reply to show
        the one who asked, a refusal in their language. `is_admin`: kept for the callers' one
        shape; only the run's host paces it (an admin ends any run with /stop)."""
        assert self._hosting is not None, "the composition root builds the hosting"
        return await self._hosting.host(chat, action, by, is_admin)

    async def apply_host_request(self, run_id: int, action: HostAction, by: str) -> None:
        """An action another worker took for a run held here (bot/engine/wakeups.py)."""
        if self._hosting is not None:
            await self._hosting.apply(run_id, action, by)

    async def host_run(self, run_id: int, action: HostAction, by: Player) -> Reply:
        """A host panel's button (its data signed for that run and action)."""
        assert self._hosting is not None, "the composition root builds the hosting"
        return await self._hosting.host_run(run_id, action, by)

    async def open_host_panel(self, chat: ChatRef, host: Player, key: bytes) -> bool:
        """The host's panel in their private chat with the bot (Telegram); False where it could not be posted."""
        return self._hosting is not None and await self._hosting.open_panel(chat, host, key)
