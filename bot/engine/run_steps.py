"""One step of a run: ask the next question, note it posted, close it (reveal, review cards),
give up on it, end the run with its podium; each state stored with the messages it owes."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.content.catalog import Catalog
from bot.domain import hosting, owed, reveal, rounds, session
from bot.domain.deck import Misses
from bot.domain.model import MessageRef, Podium, Reply, RunEnd
from bot.domain.records import AnswerRow, MessageKind, OutboxMessage, Phase, RunStatus
from bot.domain.session import Run
from bot.engine import podium, recall
from bot.engine.chats import Chats
from bot.engine.host_panel import HostPanels
from bot.engine.live import Broadcast
from bot.engine.run_table import RunTable
from bot.engine.sender import Sender
from bot.engine.teams import Teams
from bot.ports.clock import Clock
from bot.ports.store import AnswerQueue, Boards, Outbox, PlayerNames, RunLeases, RunRecords
from bot.texts import render, render_host, render_rounds

log = logging.getLogger("quizhost.engine")

# A question that cannot be posted for this long ends its run (with a word once the platform
# is back); until then the run waits, and no clock runs until players can see the question.
GIVE_UP_SECONDS = 600.0
STORE_RETRY_SECONDS = 0.5  # a run state the store refused is tried again after this, doubling...
STORE_RETRY_MAX_SECONDS = 10.0  # ...up to this


class StepStore(RunRecords, AnswerQueue, Outbox, PlayerNames, Boards, Protocol):
    """A run's steps: its state saved with the messages it owes and the review cards it deals,
    a close waiting for its answers, the podium from the run's standings."""


@dataclass(eq=False)
class RunSteps:
    store: StepStore
    clock: Clock
    catalog: Catalog
    sender: Sender
    runs: RunTable
    shared: RunLeases | None  # several workers on one database: a close seals the question first
    chats: Chats  # a chat's settings: whether a close also notifies it with a short reply
    teams: Teams | None = None  # a chat's line-up: adopted at the first question, standings at each close
    live: Broadcast | None = None  # the big screen's events (bot/engine/live.py)
    panels: HostPanels | None = None  # the hosts' panels: a question posted, closed or paused shows there

    async def step(self, run_id: int) -> None:
        if (run := self.runs.by_id.get(run_id)) is not None:
            await self.advance(run)

    async def advance(self, run: Run) -> None:
        flight = self.runs.flights.get(run.id)
        if flight is None:  # the timer loop and run_due both found it due; the other one ended it
            return
        try:
            async with flight.lock:
                if run.row.status != RunStatus.OPEN or hosting.wake_at(run) > self.clock.now():
                    return
                if hosting.wake_at(run) < run.row.due:  # half time, before the close: the hint
                    await self.hint(run)
                elif run.row.phase == Phase.PAUSING:
                    await self._ask(run)
                elif run.row.phase == Phase.POSTING:
                    await self._give_up(run)
                else:
                    await self.close(run)
        finally:
            if run.id in self.runs.by_id:
                # no longer stepping *before* rescheduling: the loop may pop the new entry
                # before this task's done-callback runs, and must not skip it as in progress
                self.runs.timers.done_stepping(run.id)
                self.runs.schedule(run)  # whatever the step did to its due time, the loop knows it
        await self.sender.push(run.row.chat_key)  # outside the lock: a posted question takes it

    async def _ask(self, run: Run) -> None:
        """Store the next question with its post in the outbox; its clock starts once posted."""
        session.ask_next(run, self.clock.now(), GIVE_UP_SECONDS)
        await self.save(run, [*self._round_start(run), owed.question(run, self.clock.now())])

    async def posted(self, message: OutboxMessage, ref: MessageRef | None) -> None:
        """The sender delivered a question (ref None: it may have arrived, nobody knows where)."""
        async with self._posting(message) as run:
            if run is None:
                return
            session.shown(run, ref.message_id if ref else None, self.clock.now())
            await self.save(run, done=[message.key])
            if run.row.index == 0 and self.teams is not None:  # the teams lock as the quiz begins
                await self.teams.adopt(run)
        self.runs.schedule(run)

    async def refused(self, message: OutboxMessage) -> None:
        """The platform refuses the question as it is (it would every time): the run ends now,
        and the chat is told, instead of trying it for GIVE_UP_SECONDS while the chat waits."""
        async with self._posting(message) as run:
            if run is None:
                return
            log.warning("run %d: the platform refuses question %d; the run ends", run.id, run.row.index + 1)
            lang = run.row.language
            reply = Reply(render.question_refused(lang, run.row.index + 1), language=lang)
            await self.finish(run, RunStatus.STOPPED, before=[owed.notice(run, reply, self.clock.now())])

    @contextlib.asynccontextmanager
    async def _posting(self, message: OutboxMessage) -> AsyncIterator[Run | None]:
        """The run whose question `message` posts, under its lock, while it still waits for that
        post; None (and the message dropped from the outbox) when the run moved on (stopped, gave
        up) or is not held here."""
        held = self.runs.held(message.run_id)
        if held is None:
            await self.store.outbox_remove([message.key])
            yield None
            return
        run, flight = held
        async with flight.lock:
            if run.row.phase != Phase.POSTING or message.key != owed.key(run, MessageKind.QUESTION):
                await self.store.outbox_remove([message.key])
                yield None
                return
            yield run

    async def _give_up(self, run: Run) -> None:
        """The question could not be posted for GIVE_UP_SECONDS: end the run; the chat hears it
        once the platform is back."""
        log.warning(
            "run %d: question %d could not be posted for %d s; the run ends", run.id, run.row.index + 1, GIVE_UP_SECONDS
        )
        minutes = round(GIVE_UP_SECONDS / 60)
        reply = Reply(render.not_posted(run.row.language, run.row.index + 1, minutes), language=run.row.language)
        await self.finish(run, RunStatus.STOPPED, before=[owed.notice(run, reply, self.clock.now())])

    async def close(self, run: Run, final: RunEnd | None = None) -> None:
        flight = self.runs.flights[run.id]
        waited = 0
        while flight.ticket != waited:  # presses accepted before the close are part of it,
            waited = flight.ticket  # those that came while it waited too: the question's
            await self.store.answers_settled(waited)  # answers are all stored before it closes
        message = MessageRef(run.chat, run.row.message_id) if run.row.message_id else None
        if self.shared is not None and run.is_asking:  # and those other workers took: sealed, then read
            await self.count_elsewhere(run, await self.shared.seal_question(run.id, run.row.index))
        reveal = session.close_question(run, self.clock.now())
        if self.teams is not None:
            reveal = await self.teams.at_close(run, reveal)
        close = [owed.close(run, message, reveal, self.clock.now())]
        if (await self.chats.settings(run.chat)).close_notice:
            close.append(owed.closed_notice(run, render.closed_notice(reveal), self.clock.now()))
        # the messages carry it as JSON: not held while the state waits for its commit (at a
        # deadline a hundred closes wait, a scorer each answer: the garbage collector's young
        # generation, walked at every collection, was mostly theirs)
        del reveal
        missed = self._misses(run)
        reason = final or session.end_reason(run)
        if reason is None:
            close += await self._round_standings(run)
            await self.save(run, close, missed=missed)
        else:
            await self.finish(run, reason, before=close, missed=missed)

    def _round_start(self, run: Run) -> list[OutboxMessage]:
        """Before a round's first question, its name and multiplier."""
        place = rounds.starting(run.quiz, run.row.question_ids, run.row.index)
        if place is None:
            return []
        reply = render_rounds.round_start(run.row.language, place)
        return [owed.round_notice(run, reply, self.clock.now(), "start")]

    async def _round_standings(self, run: Run) -> list[OutboxMessage]:
        """After a round's last question, when another round follows, the run's standings so far
        (the teams' first: a quiz of rounds shows them here, not in each reveal)."""
        if run.row.board_end or not rounds.ends_between(run.quiz, run.row.question_ids, run.row.index):
            return []  # a board hidden until the podium (/settings board end) shows no standings between rounds
        lang, ended = run.row.language, rounds.round_of(run.quiz, run.question.id)
        name = ended.name.get(lang) if ended else ""
        standings = await self.store.run_standings(run.id)
        teams = await self.teams.between_rounds(run, standings) if self.teams is not None else ()
        reply = render_rounds.round_standings(lang, name, standings, teams)
        return [owed.round_notice(run, reply, self.clock.now(), "standings")]

    async def hint(self, run: Run) -> None:
        """Show the open question's hint (its host asked, or half its time is gone): the answers
        after it earn half the speed points."""
        hosting.show_hint(run.row, self.clock.now())
        hint = run.question.hint
        text = hint.get(run.row.language) if hint is not None else ""
        reply = render_host.hint(run.row.language, run.row.index + 1, text)
        await self.save(run, [owed.hint_notice(run, reply, self.clock.now())])

    async def skip(self, run: Run) -> None:
        """Close the open question for nobody (its host skipped it): its answers, stored and
        held, are dropped, and its closing edit says it was skipped; no streak moves, no review
        card is dealt, no board counts it."""
        await self._settle(run)
        if self.shared is not None:  # other workers' presses end here too
            await self.shared.seal_question(run.id, run.row.index)
        index, shown = run.row.index, session.card(run)
        hosting.skip(run, self.clock.now())
        await self.store.discard_answers(run.id, index)
        lang = run.row.language
        skipped = reveal.build(run.quiz, run.quiz_question(index), run.kind, shown, run.order, {}, {})
        message = MessageRef(run.chat, run.row.message_id) if run.row.message_id else None
        note = dataclasses.replace(skipped, note=render_host.skipped_note(lang))
        close = [owed.close(run, message, note, self.clock.now())]
        if run.is_last:
            await self.finish(run, RunStatus.FINISHED, before=close)
        else:  # a round that ends with a skipped question still shows its standings
            await self.save(run, [*close, *await self._round_standings(run)])

    async def _settle(self, run: Run) -> None:
        """Wait until the presses accepted so far (and those accepted meanwhile) are stored."""
        flight = self.runs.flights[run.id]
        waited = 0
        while flight.ticket != waited:
            waited = flight.ticket
            await self.store.answers_settled(waited)

    async def count_elsewhere(self, run: Run, stored: list[AnswerRow]) -> None:
        """Answers other workers stored count here; what is stored replaces what is held (a
        select-all-that-apply question's picks, toggled through another worker: the close
        reads them again after sealing the question)."""
        others = [a for a in stored if a != run.answers.get(a.player_key)]
        names = await self.store.player_names({a.player_key for a in others}) if others else {}
        for answer in others:
            run.answers[answer.player_key] = answer
            run.names[answer.player_key] = names.get(answer.player_key, answer.player_key)

    def _misses(self, run: Run) -> Misses:
        """Who missed the question just closed gets it in their review deck, due at once; a
        card of the chat's own quiz names the chat, whose quizzes /review looks it up in.
        The cards are stored with the close's state, in its transaction: stored on their own,
        two more commits a close queued presses behind them (ack p99 at 3,000 presses a second
        49 to 62 ms with them, 10 to 11 without; docs/PERFORMANCE.md)."""
        now, quiz_id, question_id = self.clock.now(), run.row.quiz_id, run.question.id
        quiz_chat = "" if self.catalog.get(quiz_id) is not None else run.row.board_key
        return recall.misses(session.missed_by(run), quiz_id, question_id, now, quiz_chat)

    async def finish(
        self, run: Run, reason: RunEnd, before: Sequence[OutboxMessage] = (), missed: Misses | None = None
    ) -> None:
        """End the run; its last messages and the podium are owed in the same transaction."""
        podium = await self._podium(run, reason)
        # a question still waiting to be posted is not posted any more
        unposted = (owed.key(run, MessageKind.QUESTION),) if run.row.phase == Phase.POSTING else ()
        run.row.status = reason
        await self.save(run, [*before, owed.podium(run, render.podium(podium), self.clock.now())], unposted, missed)
        self.runs.untrack(run)

    async def _podium(self, run: Run, reason: RunEnd) -> Podium:
        ended = await podium.final(self.store, run, reason)
        return Podium(
            run.chat,
            run.row.language,
            run.quiz.title.get(run.row.language),
            reason,
            ended.standings,
            ended.scored,
            ended.records,
            await self.teams.at_end(run, ended.points_order) if self.teams is not None else (),
        )

    async def save(
        self, run: Run, send: Sequence[OutboxMessage] = (), done: Sequence[str] = (), missed: Misses | None = None
    ) -> None:
        """Store the run's state with the messages it makes due (and the outbox keys it settles)
        in one transaction, then queue the messages. While the store refuses (a full disk) it
        tries again: the run pauses, no message for this state goes out before it is stored,
        and the run goes on by itself once the store takes it."""
        delay = STORE_RETRY_SECONDS
        while True:
            try:
                await self.store.save_run(run.row, send, done, missed)
                break
            except Exception as error:
                log.warning(
                    "run %d: its state was not stored (%s); the run waits and tries again in %.1f s",
                    run.id,
                    error,
                    delay,
                )
            await asyncio.sleep(delay)  # storage back-off in real time: the game clock may be fake
            delay = min(delay * 2, STORE_RETRY_MAX_SECONDS)
        for key in done:
            self.sender.discard(key)
        self.sender.add(send)
        if self.live is not None:  # what the state just stored makes true, for the big screen
            await self.live.saved(run, send, done)
        if self.panels is not None and run.row.host_key:
            self.panels.changed(run.id)
