"""The runs of all chats: start, answer, stop, timers, and resuming after a restart.

The facade the commands, adapters and wiring use; the work is done by its collaborators:
the runs held here (bot/engine/run_table.py), a run's steps, closes and podium (bot/engine/run_steps.py),
/quiz (bot/engine/run_start.py), /stop and taking runs up or letting them go (bot/engine/run_lifecycle.py),
presses (bot/engine/presses.py), chats' settings and language (bot/engine/chats.py), boards (bot/engine/standings.py).
"""

from __future__ import annotations

import asyncio
import random
from functools import partial

from bot.content.catalog import Catalog
from bot.content.chatquizzes import ChatQuizzes
from bot.domain.model import Ack, ChatRef, Player, PlayerStats, Quiz, QuizInfo, Standing
from bot.domain.records import AnswerRow, ChatSettings, RunRow
from bot.domain.session import Run
from bot.engine import standings
from bot.engine.chats import Chats
from bot.engine.presses import Presses
from bot.engine.remote_press import RunQuizzes, answer_elsewhere, stored_run, text_elsewhere
from bot.engine.run_lifecycle import RunLifecycle, StopOutcome, StopStatus
from bot.engine.run_start import EngineSettings, RunStarter, StartOutcome, StartStatus
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.engine.sender import DRAIN_SECONDS, Sender
from bot.ports.chat import ChatAdapter
from bot.ports.clock import Clock, SystemClock
from bot.ports.offload import Offload
from bot.ports.store import CoreStore, RunLeases, RunWakeups

__all__ = ["Engine", "EngineSettings", "StartOutcome", "StartStatus", "StopOutcome", "StopStatus"]


class Engine:
    def __init__(
        self,
        catalog: Catalog,
        store: CoreStore,
        clock: Clock | None = None,
        settings: EngineSettings | None = None,
        offload: Offload | None = None,
    ) -> None:
        """`offload`: where uploaded files are read (the wiring's reader processes); here by default."""
        self.catalog = catalog
        self.store = store
        self.clock = clock or SystemClock()
        self.chat_quizzes = ChatQuizzes(store, catalog, self.clock, offload)
        self.run_quizzes = RunQuizzes(catalog, self.chat_quizzes)  # of other workers' runs (bot/engine/remote_press.py)
        self.settings = settings or EngineSettings()
        self._adapters: dict[str, ChatAdapter] = {}
        self._rng = random.Random()
        # the collaborators call each other back through these, so they are looked up when called
        self._runs = RunTable(self.clock, lambda run_id: self._steps.step(run_id))
        self.sender = Sender(
            store,
            self.clock,
            self._adapters,
            posted=lambda m, ref: self._steps.posted(m, ref),
            refused=lambda m: self._steps.refused(m),
        )
        # several workers on one database: presses for other workers' runs, sealed closes, /stop for their runs
        shared = store if isinstance(store, RunLeases) else None
        wakeups = store if isinstance(store, RunWakeups) else None
        self._chats = Chats(store, self._runs, self.settings.default_language)
        self._steps = RunSteps(
            store=store,
            clock=self.clock,
            catalog=catalog,
            sender=self.sender,
            runs=self._runs,
            shared=shared,
            chats=self._chats,
        )
        self._starter = RunStarter(
            catalog=catalog,
            chat_quizzes=self.chat_quizzes,
            store=store,
            clock=self.clock,
            settings=self.settings,
            chats=self._chats,
            runs=self._runs,
            rng=self._rng,
        )
        self._lifecycle = RunLifecycle(
            catalog=catalog,
            chat_quizzes=self.chat_quizzes,
            store=store,
            clock=self.clock,
            sender=self.sender,
            runs=self._runs,
            steps=self._steps,
            wakeups=wakeups,
        )
        # a store that leases runs also wakes their owners (PostgreSQL: both)
        both = store if isinstance(store, RunLeases) and isinstance(store, RunWakeups) else None
        self._shared = both
        self._presses = Presses(
            store=store,
            clock=self.clock,
            runs=self._runs,
            chats=self._chats,
            steps=self._steps,
            elsewhere=partial(answer_elsewhere, self, both) if both is not None else None,
            text_elsewhere=partial(text_elsewhere, self, both) if both is not None else None,
        )
        self.press_outcomes = self._presses.outcomes  # for /metrics (bot/adapters/ops/metrics.py)

    # wiring -------------------------------------------------------------------------

    def attach(self, adapter: ChatAdapter) -> None:
        self._adapters[adapter.platform] = adapter

    def adapter(self, platform: str) -> ChatAdapter:
        return self._adapters[platform]

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
        if run is None and self._shared is not None:
            return await stored_run(self, self._shared, run_id, player, number)
        return run

    async def resume(self) -> int:
        """Load every open run from the store; due ones are handled by the next tick. What the
        last process owed goes out first, the messages of runs that ended since too."""
        return await self.adopt(await self.store.open_runs(), ended_runs_too=True)

    async def adopt(self, rows: list[RunRow], ended_runs_too: bool = False) -> int:
        return await self._lifecycle.adopt(rows, ended_runs_too)

    def drop(self, run_ids: set[int]) -> None:
        self._lifecycle.drop(run_ids)

    # settings and language ----------------------------------------------------------

    async def chat_settings(self, chat: ChatRef) -> ChatSettings:
        return await self._chats.settings(chat)

    async def update_chat(self, chat: ChatRef, **fields: object) -> None:
        await self._chats.update(chat, **fields)

    async def language_for(self, chat: ChatRef, player: Player | None = None) -> str:
        return await self._chats.language_for(chat, player)

    def client_language(self, player: Player | None) -> str:
        return self._chats.client_language(player)

    async def move_chat(self, old: ChatRef, new: ChatRef) -> None:
        await self._chats.move(old, new)

    # commands -----------------------------------------------------------------------

    async def start(self, chat: ChatRef, topic: str, by: Player, count: int | None = None) -> StartOutcome:
        return await self._starter.start(chat, topic, by, count)

    async def playable(self, chat: ChatRef) -> tuple[QuizInfo, ...]:
        return await self._starter.playable(chat)

    async def start_quiz(
        self,
        chat: ChatRef,
        quiz: Quiz,
        by: Player,
        count: int | None = None,
        questions: tuple[str, ...] | None = None,
        seconds: int | None = None,
        board: str = "",
    ) -> StartOutcome:
        return await self._starter.start_quiz(chat, quiz, by, count, questions, seconds, board)

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

    # boards -----------------------------------------------------------------------

    async def leaderboard(
        self, chat: ChatRef, period: str, quiz_id: str | None, player: Player | None = None
    ) -> tuple[list[Standing], Standing | None]:
        return await standings.leaderboard(self.store, self.clock, chat, period, quiz_id, player)

    async def player_stats(self, chat: ChatRef, player: Player) -> PlayerStats:
        return await standings.player_stats(self.store, chat, player)

    # time ---------------------------------------------------------------------------

    def next_due(self) -> float | None:
        return self._runs.next_due()

    async def run_due(self) -> None:
        """Send what is owed and advance every run whose time has come, until none is due and
        no step the timer loop started is still going (tests call this, and the terminal at the
        end of its input)."""
        await self.sender.flush_due()
        while True:
            await self._runs.timers.steps_ended()  # a finishing run has left the open ones already
            now = self.clock.now()
            due = [r for r in self._runs.open() if r.row.due <= now]
            if not due:
                return
            await asyncio.gather(*(self._steps.advance(r) for r in due))

    async def serve(self) -> None:
        """The timer loop (wake at the next deadline or when a press closes a question early)
        and the sender of the outbox."""
        await asyncio.gather(self._runs.timers.serve(), self.sender.serve())

    async def stop_sending(self, seconds: float = DRAIN_SECONDS) -> int:
        """For a clean stop: wait a bounded time for messages in flight; the rest stay stored."""
        return await self.sender.drain(seconds)
