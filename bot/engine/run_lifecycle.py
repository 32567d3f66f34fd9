"""A run's life beyond its steps: /stop, taking stored runs up (a restart, a dead worker's
runs) and letting them go to another worker."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.content.catalog import Catalog
from bot.content.chatquizzes import ChatQuizzes
from bot.domain import owed, session
from bot.domain.model import ChatRef, Player, Quiz, Reply
from bot.domain.records import MessageKind, Phase, RunRow, RunStatus
from bot.domain.session import Run
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.engine.sender import Sender
from bot.kinds import kind_of
from bot.ports.clock import Clock
from bot.ports.store import Outbox, PlayerNames, RunRecords, RunWakeups
from bot.texts import render

log = logging.getLogger("quizhost.engine")


class StopStatus(StrEnum):
    STOPPED = "stopped"
    NONE = "none"  # no run in this chat
    REFUSED = "refused"  # neither its starter nor an admin


@dataclass(frozen=True)
class StopOutcome:
    status: StopStatus


class LifecycleStore(RunRecords, PlayerNames, Outbox, Protocol):
    """Taking stored runs up: their rows, answers and players' names, and the messages they owe."""


@dataclass(eq=False)
class RunLifecycle:
    catalog: Catalog
    chat_quizzes: ChatQuizzes
    store: LifecycleStore
    clock: Clock
    sender: Sender
    runs: RunTable
    steps: RunSteps
    wakeups: RunWakeups | None  # several workers on one database: /stop for their runs

    async def stop(self, chat: ChatRef, by: Player, is_admin: bool) -> StopOutcome:
        run = self.runs.by_chat.get(chat.key)
        row = run.row if run is not None else None
        if run is None and self.wakeups is not None:  # maybe another worker runs the chat's quiz
            row = await self.wakeups.chat_run(chat.key)
        if row is None:
            return StopOutcome(StopStatus.NONE)
        if not session.may_stop(row, by.key, is_admin):
            return StopOutcome(StopStatus.REFUSED)
        if run is not None:
            stopped = await self.end_run(run.id)
        else:  # its owner stops it, woken or at its next lease renewal (bot/engine/wakeups.py)
            assert self.wakeups is not None
            stopped = await self.wakeups.request_stop(row.id, by.key)
        if stopped:  # the run's report names who stopped it
            await self.store.ensure_player(by)
            await self.store.record_stop(row.id, by.key)
        return StopOutcome(StopStatus.STOPPED if stopped else StopStatus.NONE)

    async def end_run(self, run_id: int) -> bool:
        """Stop a run held here (the reveal of its open question, then its podium); False when
        no such run is open here."""
        held = self.runs.held(run_id)
        if held is None:
            return False
        run, flight = held
        async with flight.lock:
            if run.row.status != RunStatus.OPEN:
                return False
            if run.is_asking:
                await self.steps.close(run, final=RunStatus.STOPPED)
            else:
                await self.steps.finish(run, RunStatus.STOPPED)
        await self.sender.push(run.row.chat_key)
        return True

    async def adopt(self, rows: list[RunRow], ended_runs_too: bool = False) -> int:
        """Continue these stored runs here (a restart, or runs taken over from a worker that
        died), with the messages they owe; runs already here are left as they are. Returns how
        many runs are here now."""
        adopted: set[int] = set()
        for row in rows:
            if row.id in self.runs.by_id:
                continue
            quiz = await self.chat_quizzes.find(row.board_key, row.quiz_id)
            if quiz is not None and await self._replaced(row):
                await self._end_replaced(Run(row, quiz, kind_of))
                continue
            if quiz is None or any(not _has(quiz, qid) for qid in row.question_ids):
                log.warning("run %d: quiz %r is gone; ending it", row.id, row.quiz_id)
                row.status = RunStatus.STOPPED
                await self.store.save_run(row)
                continue
            run = Run(row, quiz, kind_of)
            if row.phase == Phase.ASKING and row.message_id is None:
                # the question was never posted: ask it again rather than leave it invisible
                row.phase, row.index, row.due = Phase.PAUSING, row.index - 1, self.clock.now()
            answers = await self.store.run_answers(row.id)
            names = await self.store.player_names({a.player_key for a in answers})
            session.restore(run, answers, names)
            if self.steps.teams is not None:
                await self.steps.teams.resumed(run)
            if run.is_asking and session.should_close_early(run):  # its last answer came before the stop
                row.due = min(row.due, self.clock.now())
            self.runs.track(run)
            adopted.add(run.id)
            if run.is_asking and self.steps.teams is not None:
                await self.steps.teams.taken_up(run)
            if run.is_asking and self.steps.live is not None:  # the big screen shows it again
                await self.steps.live.asking(run)
        await self._load_owed(adopted, ended_runs_too)
        for run in self.runs.open():
            if run.row.phase == Phase.POSTING and not self.sender.has(owed.key(run, MessageKind.QUESTION)):
                await self.steps.save(run, [owed.question(run, self.clock.now())])  # stored by an older quizhost
        return len(self.runs.by_id)

    async def _replaced(self, row: RunRow) -> bool:
        """A chat quiz uploaded again after the run started: the version it played is not kept."""
        return self.catalog.get(row.quiz_id) is None and await self.chat_quizzes.replaced_since(
            row.board_key, row.quiz_id, row.started_at
        )

    async def _end_replaced(self, run: Run) -> None:
        """End the run (answers so far count) rather than go on with questions or a key it did
        not start with; the chat is told why and how to play the new version."""
        log.warning("run %d: quiz %r was uploaded again since it started; ending it", run.id, run.row.quiz_id)
        lang = run.row.language
        reply = Reply(render.quiz_replaced(lang, run.quiz.title.get(lang), run.quiz.id), language=lang)
        await self.steps.finish(run, RunStatus.STOPPED, before=[owed.notice(run, reply, self.clock.now())])

    async def _load_owed(self, run_ids: set[int], ended_runs_too: bool) -> None:
        """Queue the stored messages of these runs (and of ended runs: at a start). Another
        worker's open runs keep theirs: it sends them."""
        status: dict[int, RunStatus | None] = {}
        for m in await self.store.outbox():
            if m.run_id not in run_ids and ended_runs_too and m.run_id not in status:
                status[m.run_id] = await self.store.run_status(m.run_id)
            if m.run_id in run_ids or (ended_runs_too and status[m.run_id] is not RunStatus.OPEN):
                self.sender.add([m])

    def drop(self, run_ids: set[int]) -> None:
        """Stop running these runs here: another worker owns them now (its lease, not ours).

        A run that ended here meanwhile (its lease was not renewed because it is over, not
        because it was taken) is left alone: its last reveal and podium are this worker's to send."""
        here = {run_id for run_id in run_ids if run_id in self.runs.by_id}
        self.sender.forget_runs(here)  # their messages too: the new owner sends them
        for run_id in here:
            log.warning("run %d: another worker has taken it over; it continues there", run_id)
            self.runs.untrack(self.runs.by_id[run_id])


def _has(quiz: Quiz, question_id: str) -> bool:
    return any(q.id == question_id for q in quiz.questions)
