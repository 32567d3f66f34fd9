"""The runs of all chats: start, answer, stop, timers, and resuming after a restart."""
from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import lru_cache

from bot import leitner, owed, render, session
from bot.catalog import Catalog
from bot.chatquizzes import ChatQuizzes
from bot.clock import Clock, SystemClock
from bot.i18n import normalise
from bot.model import (
    LETTERS,
    PAUSE_SECONDS,
    QUESTION_SECONDS,
    Ack,
    ChatRef,
    MessageRef,
    Player,
    PlayerStats,
    Podium,
    Quiz,
    QuizInfo,
    Reply,
    RunEnd,
    Standing,
)
from bot.ports import ChatAdapter, RunLeases, RunWakeups, Store
from bot.records import AnswerRow, ChatSettings, MessageKind, OutboxMessage, Phase, RunRow, RunStatus
from bot.remote_press import answer_elsewhere
from bot.sender import DRAIN_SECONDS, Sender
from bot.session import Refusal, Run
from bot.timers import Timers
from bot.tokens import MAX_BYTES, AnswerToken, decode

log = logging.getLogger("quizhost.engine")

# A question that cannot be posted for this long ends its run (with a word once the platform
# is back); until then the run waits, and no clock runs until players can see the question.
GIVE_UP_SECONDS = 600.0
STORE_RETRY_SECONDS = 0.5  # a run state the store refused is tried again after this, doubling...
STORE_RETRY_MAX_SECONDS = 10.0  # ...up to this
TOP = 10


@dataclass(frozen=True)
class EngineSettings:
    question_seconds: int = QUESTION_SECONDS.default
    pause_seconds: float = PAUSE_SECONDS.default
    default_language: str = "en"


class StartStatus(StrEnum):
    STARTED = "started"
    RUNNING = "running"  # the chat already has a run: `run` is that one (None: it is being set up, `quizzes[0]`)
    CHOICES = "choices"  # several quizzes match the topic: `quizzes`
    UNKNOWN = "unknown"  # none matches: `quizzes` lists them all
    CATALOG = "catalog"  # no topic given: `quizzes` lists them all


@dataclass(frozen=True)
class StartOutcome:
    status: StartStatus
    run: Run | None = None
    quizzes: tuple[QuizInfo, ...] = ()


class StopStatus(StrEnum):
    STOPPED = "stopped"
    NONE = "none"  # no run in this chat
    REFUSED = "refused"  # neither its starter nor an admin


@dataclass(frozen=True)
class StopOutcome:
    status: StopStatus


@dataclass(slots=True)
class _Flight:
    """Work in progress for one run, so a close waits for presses still being stored."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ticket: int = 0  # the store's ticket of this run's latest answer


class Engine:
    def __init__(
        self,
        catalog: Catalog,
        store: Store,
        clock: Clock | None = None,
        settings: EngineSettings | None = None,
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.clock = clock or SystemClock()
        self.chat_quizzes = ChatQuizzes(store, catalog, self.clock)
        self.settings = settings or EngineSettings()
        self._adapters: dict[str, ChatAdapter] = {}
        self._by_chat: dict[str, Run] = {}
        self._by_id: dict[int, Run] = {}
        self._flights: dict[int, _Flight] = {}
        self._chat_settings: dict[str, ChatSettings] = {}
        self._starting: dict[str, Quiz] = {}  # chat key -> the quiz whose run is being created there
        self._timers = Timers(self.clock, self._step, self._due_of)
        self.sender = Sender(store, self.clock, self._adapters, self._posted)
        self._rng = random.Random()
        self.press_outcomes: Counter[str] = Counter()  # for /metrics (bot/metrics.py)
        # several workers on one database: presses for other workers' runs, sealed closes
        self._shared = store if isinstance(store, RunLeases) else None
        self._wakeups = store if isinstance(store, RunWakeups) else None  # and /stop for their runs

    # wiring -------------------------------------------------------------------------

    def attach(self, adapter: ChatAdapter) -> None:
        self._adapters[adapter.platform] = adapter

    def adapter(self, platform: str) -> ChatAdapter:
        return self._adapters[platform]

    def run_in(self, chat: ChatRef) -> Run | None:
        return self._by_chat.get(chat.key)

    def open_runs(self) -> list[Run]:
        return list(self._by_id.values())

    def run_by_id(self, run_id: int) -> Run | None:
        return self._by_id.get(run_id)

    async def resume(self) -> int:
        """Load every open run from the store; due ones are handled by the next tick. What the
        last process owed goes out first, the messages of runs that ended since too."""
        return await self.adopt(await self.store.open_runs(), ended_runs_too=True)

    async def adopt(self, rows: list[RunRow], ended_runs_too: bool = False) -> int:
        """Continue these stored runs here (a restart, or runs taken over from a worker that
        died), with the messages they owe; runs already here are left as they are. Returns how
        many runs are here now."""
        adopted: set[int] = set()
        for row in rows:
            if row.id in self._by_id:
                continue
            quiz = self.catalog.get(row.quiz_id) or await self.chat_quizzes.get(row.chat_key, row.quiz_id)
            if quiz is not None and await self._replaced(row):
                await self._end_replaced(Run(row, quiz))
                continue
            if quiz is None or any(not _has(quiz, qid) for qid in row.question_ids):
                log.warning("run %d: quiz %r is gone; ending it", row.id, row.quiz_id)
                row.status = RunStatus.STOPPED
                await self.store.save_run(row)
                continue
            run = Run(row, quiz)
            if row.phase == Phase.ASKING and row.message_id is None:
                # the question was never posted: ask it again rather than leave it invisible
                row.phase, row.index, row.due = Phase.PAUSING, row.index - 1, self.clock.now()
            answers = await self.store.run_answers(row.id)
            names = await self.store.player_names({a.player_key for a in answers})
            session.restore(run, answers, names)
            self._track(run)
            adopted.add(run.id)
        await self._load_owed(adopted, ended_runs_too)
        for run in self.open_runs():
            if run.row.phase == Phase.POSTING and not self.sender.has(owed.key(run, MessageKind.QUESTION)):
                await self._save(run, [owed.question(run, self.clock.now())])  # stored by an older quizhost
        return len(self._by_id)

    async def _replaced(self, row: RunRow) -> bool:
        """A chat quiz uploaded again after the run started: the version it played is not kept."""
        return self.catalog.get(row.quiz_id) is None and await self.chat_quizzes.replaced_since(
            row.chat_key, row.quiz_id, row.started_at)

    async def _end_replaced(self, run: Run) -> None:
        """End the run (answers so far count) rather than go on with questions or a key it did
        not start with; the chat is told why and how to play the new version."""
        log.warning("run %d: quiz %r was uploaded again since it started; ending it", run.id, run.row.quiz_id)
        lang = run.row.language
        reply = Reply(render.quiz_replaced(lang, run.quiz.title.get(lang), run.quiz.id), language=lang)
        await self._finish(run, RunStatus.STOPPED, before=[owed.notice(run, reply, self.clock.now())])

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
        """Stop running these runs here: another worker owns them now (its lease, not ours)."""
        self.sender.forget_runs(run_ids)  # their messages too: the new owner sends them
        for run_id in run_ids:
            run = self._by_id.get(run_id)
            if run is not None:
                log.warning("run %d: another worker has taken it over; it continues there", run_id)
                self._untrack(run)

    # settings and language ----------------------------------------------------------

    async def chat_settings(self, chat: ChatRef) -> ChatSettings:
        if chat.key not in self._chat_settings:
            self._chat_settings[chat.key] = await self.store.chat_settings(chat.key)
        return self._chat_settings[chat.key]

    async def update_chat(self, chat: ChatRef, **fields: object) -> None:
        await self.store.update_chat_settings(chat, **fields)
        self._chat_settings.pop(chat.key, None)

    async def language_for(self, chat: ChatRef, player: Player | None = None) -> str:
        """The chat's /language, else the user's client language, else the bot's default."""
        chosen = normalise((await self.chat_settings(chat)).language)
        return chosen or self.client_language(player)

    def client_language(self, player: Player | None) -> str:
        """The user's client language ("hi-IN" -> "hi") if we speak it, else QUIZHOST_LANGUAGE."""
        return normalise(player.language if player else None) or self.settings.default_language

    async def move_chat(self, old: ChatRef, new: ChatRef) -> None:
        """A chat got a new id (a Telegram group upgraded to a supergroup): its quiz in progress,
        settings and leaderboard carry on under the new one. Moving twice changes nothing."""
        run = self._by_chat.get(old.key)
        if run is not None and self._by_chat.get(new.key) is None:
            flight, settled = self._flights[run.id], -1
            while flight.ticket != settled:  # presses stored under the old key land first...
                settled = flight.ticket
                await self.store.answers_settled(settled)
            del self._by_chat[old.key]  # ...and from here on they carry the new one
            run.row.chat_key, run.row.chat_id = new.key, new.chat_id
            run.row.message_id = None  # the open question's message stays behind in the old chat
            self._by_chat[new.key] = run
        await self.store.move_chat(old.key, new)
        self._chat_settings.pop(old.key, None)
        self._chat_settings.pop(new.key, None)
        log.info("chat %s is now %s", old.key, new.key)

    # commands -----------------------------------------------------------------------

    async def start(self, chat: ChatRef, topic: str, by: Player, count: int | None = None) -> StartOutcome:
        topic = topic.strip()
        if not topic:
            return StartOutcome(StartStatus.CATALOG, quizzes=await self.playable(chat))
        if (running := self._by_chat.get(chat.key)) is not None:
            return StartOutcome(StartStatus.RUNNING, run=running)
        own = await self.chat_quizzes.get(chat.key, topic.casefold())  # its id: shipped ids cannot clash
        if own is not None:
            return await self.start_quiz(chat, own, by, count)
        matches = self.catalog.match(topic)
        if not matches:
            return StartOutcome(StartStatus.UNKNOWN, quizzes=await self.playable(chat))
        if len(matches) > 1:
            return StartOutcome(StartStatus.CHOICES, quizzes=tuple(matches))
        quiz = self.catalog.get(matches[0].id)
        if quiz is None:  # its file broke since the catalog was indexed
            return StartOutcome(StartStatus.UNKNOWN, quizzes=tuple(self.catalog.all()))
        return await self.start_quiz(chat, quiz, by, count)

    async def playable(self, chat: ChatRef) -> tuple[QuizInfo, ...]:
        """What /quiz offers in this chat: the shipped quizzes, then the chat's own."""
        return (*self.catalog.all(), *await self.chat_quizzes.all(chat.key))

    async def start_quiz(self, chat: ChatRef, quiz: Quiz, by: Player, count: int | None = None,
                         questions: tuple[str, ...] | None = None, seconds: int | None = None) -> StartOutcome:
        """Start `quiz` (`count` random questions, or exactly `questions`; `seconds` to answer
        each instead of the chat's setting: a question of the day stays open for hours)."""
        if (running := self._by_chat.get(chat.key)) is not None:
            return StartOutcome(StartStatus.RUNNING, run=running)
        if (starting := self._starting.get(chat.key)) is not None:  # another /quiz here is being set up
            return StartOutcome(StartStatus.RUNNING, quizzes=(starting,))
        self._starting[chat.key] = quiz
        try:
            return await self._create_run(chat, quiz, by, count, questions, seconds)
        finally:
            del self._starting[chat.key]

    async def _create_run(self, chat: ChatRef, quiz: Quiz, by: Player, count: int | None,
                          questions: tuple[str, ...] | None, seconds: int | None) -> StartOutcome:
        await self.store.ensure_chat(chat)
        await self.store.ensure_player(by)
        settings = await self.chat_settings(chat)
        now = self.clock.now()
        pause = settings.pause_seconds if settings.pause_seconds is not None else self.settings.pause_seconds
        row = RunRow(
            chat_key=chat.key, chat_id=chat.chat_id, platform=chat.platform, is_private=chat.is_private,
            quiz_id=quiz.id, language=await self.language_for(chat, by), seed=self._rng.getrandbits(31),
            question_ids=questions or session.pick_questions(quiz, count, self._rng),
            seconds=seconds or settings.question_seconds or self.settings.question_seconds, pause=pause,
            started_by=by.key, started_at=now, due=now + min(pause, 3.0),
        )
        row.id = await self.store.create_run(row)
        run = Run(row, quiz)
        self._track(run)
        return StartOutcome(StartStatus.STARTED, run=run)

    async def answer(self, data: str | bytes | None, player: Player, chat: ChatRef | None = None) -> Ack:
        """Validate a press, store it, and only then acknowledge it.

        `chat`: where the pressed message is, as the platform says; a press counts only in its
        run's chat (button data copied elsewhere is refused). The adapters always give it."""
        # the cache holds only what could be a token: a flood of long junk must not fill memory
        token = _decode_text(data) if type(data) is str and len(data) <= MAX_BYTES else decode(data)
        run = self._by_id.get(token.run_id) if token else None
        if token is None:  # no run, so no chat language: answer in the presser's own
            lang = self.client_language(player)
            self.press_outcomes["invalid"] += 1
            return Ack(render.ack_invalid(lang), False, lang)
        if run is None and self._shared is not None:  # maybe another worker's run: ask the database
            outcome, ack = await answer_elsewhere(self, self._shared, token, player, chat)
            self.press_outcomes[outcome] += 1
            return ack
        if run is None:
            status = await self.store.run_status(token.run_id)
            lang = self.client_language(player)
            self.press_outcomes["ended" if status else "invalid"] += 1
            return Ack(render.ack_ended(lang) if status else render.ack_invalid(lang), False, lang)
        if chat is not None and chat.key != run.row.chat_key:
            log.warning("run %d: a press from %s refused: the run is in %s", run.id, chat.key, run.row.chat_key)
            lang = self.client_language(player)
            self.press_outcomes["invalid"] += 1
            return Ack(render.ack_invalid(lang), False, lang)
        lang, now, key = run.row.language, self.clock.now(), player.key
        refusal = session.check_press(run, token, key, now)
        if refusal is not None:
            self.press_outcomes[refusal.value] += 1
        if refusal is Refusal.REPEATED:
            letter = LETTERS[run.order.index(run.answers[key].option)]
            return Ack(render.ack_repeated(lang, letter), False, lang)
        if refusal is not None:
            return Ack(render.ack_refused(lang, refusal), False, lang)
        answer = session.make_answer(run, token, key, now)
        run.answers[key], run.names[key] = answer, player.name  # reserve before awaiting
        refused = await self._store_answer(run, answer, player)
        if refused is not None:
            self.press_outcomes["not_saved"] += 1
            return refused
        self.press_outcomes["accepted"] += 1
        self._close_early_if_all_answered(run)
        return _locked(lang, LETTERS[token.choice])

    def _close_early_if_all_answered(self, run: Run) -> None:
        if session.should_close_early(run):
            run.row.due = min(run.row.due, self.clock.now())
            self._schedule(run)

    async def count_stored(self, run_id: int, index: int, stored: list[AnswerRow]) -> None:
        """Answers to question `index` that other workers stored (read after a wake-up, bot/
        wakeups.py) count as presses taken here: the question closes early once all have answered."""
        run, flight = self._by_id.get(run_id), self._flights.get(run_id)
        if run is None or flight is None:
            return
        async with flight.lock:
            if run.is_asking and run.row.index == index:
                await self._count_elsewhere(run, stored)
                self._close_early_if_all_answered(run)

    async def _store_answer(self, run: Run, answer: AnswerRow, player: Player) -> Ack | None:
        """None once the answer is committed; else the Ack saying why not, reservation undone."""
        # the store commits answers in groups; this press is acknowledged after its group commits
        write = self.store.submit_answer(answer, player)
        self._flights[run.id].ticket = self.store.answers_submitted  # the close waits for it
        lang = run.row.language
        try:
            if await write:
                return None
            refused = Ack(render.ack_refused(lang, Refusal.REPEATED), False, lang)
        except Exception as error:  # nothing was stored: the player may press again
            log.warning("run %d: an answer was not stored: %s", run.id, error)  # the writer logged why
            refused = Ack(render.ack_not_saved(lang), False, lang)
        if run.answers.get(answer.player_key) is answer:
            del run.answers[answer.player_key]
        return refused

    async def stop(self, chat: ChatRef, by: Player, is_admin: bool) -> StopOutcome:
        run = self._by_chat.get(chat.key)
        row = run.row if run is not None else None
        if run is None and self._wakeups is not None:  # maybe another worker runs the chat's quiz
            row = await self._wakeups.chat_run(chat.key)
        if row is None:
            return StopOutcome(StopStatus.NONE)
        if not session.may_stop(row, by.key, is_admin):
            return StopOutcome(StopStatus.REFUSED)
        if run is not None:
            stopped = await self.end_run(run.id)
        else:  # its owner stops it, woken or at its next lease renewal (bot/wakeups.py)
            assert self._wakeups is not None
            stopped = await self._wakeups.request_stop(row.id, by.key)
        return StopOutcome(StopStatus.STOPPED if stopped else StopStatus.NONE)

    async def end_run(self, run_id: int) -> bool:
        """Stop a run held here (the reveal of its open question, then its podium); False when
        no such run is open here."""
        run, flight = self._by_id.get(run_id), self._flights.get(run_id)
        if run is None or flight is None:
            return False
        async with flight.lock:
            if run.row.status != RunStatus.OPEN:
                return False
            if run.is_asking:
                await self._close(run, final=RunStatus.STOPPED)
            else:
                await self._finish(run, RunStatus.STOPPED)
        await self.sender.push(run.row.chat_key)
        return True

    # boards -----------------------------------------------------------------------

    async def leaderboard(
        self, chat: ChatRef, period: str, quiz_id: str | None, player: Player | None = None
    ) -> tuple[list[Standing], Standing | None]:
        """The top 10 of the chat for the period, and the caller's own standing."""
        if player is not None:
            await self.store.ensure_player(player)  # keep the caller's display name current
        board = await self.store.leaderboard(chat.key, period_start(period, self.clock.now()), quiz_id)
        mine = next((s for s in board if player and s.player_key == player.key), None)
        return board[:TOP], mine

    async def player_stats(self, chat: ChatRef, player: Player) -> PlayerStats:
        await self.store.ensure_player(player)
        return await self.store.player_stats(chat.key, player)

    # time ---------------------------------------------------------------------------

    def next_due(self) -> float | None:
        return min((r.row.due for r in self._by_id.values()), default=None)

    async def run_due(self) -> None:
        """Send what is owed and advance every run whose time has come, until none is due and
        no step the timer loop started is still going (tests call this, and the terminal at the
        end of its input)."""
        await self.sender.flush_due()
        while True:
            await self._timers.steps_ended()  # a finishing run has left the open ones already
            now = self.clock.now()
            due = [r for r in self._by_id.values() if r.row.due <= now]
            if not due:
                return
            await asyncio.gather(*(self._advance(r) for r in due))

    async def serve(self) -> None:
        """The timer loop (wake at the next deadline or when a press closes a question early)
        and the sender of the outbox."""
        await asyncio.gather(self._timers.serve(), self.sender.serve())

    async def stop_sending(self, seconds: float = DRAIN_SECONDS) -> int:
        """For a clean stop: wait a bounded time for messages in flight; the rest stay stored."""
        return await self.sender.drain(seconds)

    async def _step(self, run_id: int) -> None:
        if (run := self._by_id.get(run_id)) is not None:
            await self._advance(run)

    def _due_of(self, run_id: int) -> float | None:
        run = self._by_id.get(run_id)
        return run.row.due if run is not None else None

    # one step of a run --------------------------------------------------------------

    async def _advance(self, run: Run) -> None:
        flight = self._flights.get(run.id)
        if flight is None:  # the timer loop and run_due both found it due; the other one ended it
            return
        try:
            async with flight.lock:
                if run.row.status != RunStatus.OPEN or run.row.due > self.clock.now():
                    return
                if run.row.phase == Phase.PAUSING:
                    await self._ask(run)
                elif run.row.phase == Phase.POSTING:
                    await self._give_up(run)
                else:
                    await self._close(run)
        finally:
            if run.id in self._by_id:
                # no longer stepping *before* rescheduling: the loop may pop the new entry
                # before this task's done-callback runs, and must not skip it as in progress
                self._timers.done_stepping(run.id)
                self._schedule(run)  # whatever the step did to its due time, the loop knows it
        await self.sender.push(run.row.chat_key)  # outside the lock: a posted question takes it

    async def _ask(self, run: Run) -> None:
        """Store the next question with its post in the outbox; its clock starts once posted."""
        session.ask_next(run, self.clock.now(), GIVE_UP_SECONDS)
        await self._save(run, [owed.question(run, self.clock.now())])

    async def _posted(self, message: OutboxMessage, ref: MessageRef | None) -> None:
        """The sender delivered a question (ref None: it may have arrived, nobody knows where)."""
        run = self._by_id.get(message.run_id)
        flight = self._flights.get(message.run_id)
        if run is None or flight is None:
            await self.store.outbox_remove([message.key])
            return
        async with flight.lock:
            if run.row.phase != Phase.POSTING or message.key != owed.key(run, MessageKind.QUESTION):
                await self.store.outbox_remove([message.key])  # the run moved on (stopped, gave up)
                return
            session.shown(run, ref.message_id if ref else None, self.clock.now())
            await self._save(run, done=[message.key])
        self._schedule(run)

    async def _give_up(self, run: Run) -> None:
        """The question could not be posted for GIVE_UP_SECONDS: end the run; the chat hears it
        once the platform is back."""
        log.warning("run %d: question %d could not be posted for %d s; the run ends", run.id,
                    run.row.index + 1, GIVE_UP_SECONDS)
        minutes = round(GIVE_UP_SECONDS / 60)
        reply = Reply(render.not_posted(run.row.language, run.row.index + 1, minutes), language=run.row.language)
        await self._finish(run, RunStatus.STOPPED, before=[owed.notice(run, reply, self.clock.now())])

    async def _close(self, run: Run, final: RunEnd | None = None) -> None:
        flight = self._flights[run.id]
        waited = 0
        while flight.ticket != waited:  # presses accepted before the close are part of it,
            waited = flight.ticket      # those that came while it waited too: the question's
            await self.store.answers_settled(waited)  # answers are all stored before it closes
        message = MessageRef(run.chat, run.row.message_id) if run.row.message_id else None
        if self._shared is not None and run.is_asking:  # and those other workers took: sealed, then read
            await self._count_elsewhere(run, await self._shared.seal_question(run.id, run.row.index))
        reveal = session.close_question(run, self.clock.now())
        close = owed.close(run, message, reveal, self.clock.now())
        await self._deal_misses(run)
        reason = final or session.end_reason(run)
        if reason is None:
            await self._save(run, [close])
        else:
            await self._finish(run, reason, before=[close])

    async def _count_elsewhere(self, run: Run, stored: list[AnswerRow]) -> None:
        others = [a for a in stored if a.player_key not in run.answers]
        names = await self.store.player_names({a.player_key for a in others}) if others else {}
        for answer in others:
            run.answers[answer.player_key] = answer
            run.names[answer.player_key] = names.get(answer.player_key, answer.player_key)

    async def _deal_misses(self, run: Run) -> None:
        """Who missed the question just closed gets it in their review deck, due at once; a
        card of the chat's own quiz names the chat, whose quizzes /review looks it up in."""
        now, quiz_id, question_id = self.clock.now(), run.row.quiz_id, run.question.id
        quiz_chat = "" if self.catalog.get(quiz_id) is not None else run.row.chat_key
        cards = [leitner.missed(key, quiz_id, question_id, now, quiz_chat) for key in session.missed_by(run)]
        try:
            await self.store.put_review_cards(cards)
        except Exception:  # a deck is worth less than the run: the quiz goes on
            log.exception("run %d: storing review cards failed", run.id)

    async def _finish(self, run: Run, reason: RunEnd, before: Sequence[OutboxMessage] = ()) -> None:
        """End the run; its last messages and the podium are owed in the same transaction."""
        standings = await self.store.run_standings(run.id)
        podium = Podium(run.chat, run.row.language, run.quiz.title.get(run.row.language), reason,
                        tuple(standings), run.row.index + 1)
        # a question still waiting to be posted is not posted any more
        unposted = (owed.key(run, MessageKind.QUESTION),) if run.row.phase == Phase.POSTING else ()
        run.row.status = reason
        await self._save(run, [*before, owed.podium(run, render.podium(podium), self.clock.now())], unposted)
        self._untrack(run)

    async def _save(self, run: Run, send: Sequence[OutboxMessage] = (), done: Sequence[str] = ()) -> None:
        """Store the run's state with the messages it makes due (and the outbox keys it settles)
        in one transaction, then queue the messages. While the store refuses (a full disk) it
        tries again: the run pauses, no message for this state goes out before it is stored,
        and the run goes on by itself once the store takes it."""
        delay = STORE_RETRY_SECONDS
        while True:
            try:
                await self.store.save_run(run.row, send, done)
                break
            except Exception as error:
                log.warning("run %d: its state was not stored (%s); the run waits and tries again in %.1f s",
                            run.id, error, delay)
            await asyncio.sleep(delay)  # storage back-off in real time: the game clock may be fake
            delay = min(delay * 2, STORE_RETRY_MAX_SECONDS)
        for key in done:
            self.sender.discard(key)
        self.sender.add(send)

    def _schedule(self, run: Run) -> None:
        self._timers.schedule(run.id, run.row.due)

    def _track(self, run: Run) -> None:
        self._by_chat[run.row.chat_key] = run
        self._by_id[run.id] = run
        self._flights.setdefault(run.id, _Flight())
        self._schedule(run)

    def _untrack(self, run: Run) -> None:
        self._by_chat.pop(run.row.chat_key, None)
        self._by_id.pop(run.id, None)
        self._flights.pop(run.id, None)  # a caller holding its lock keeps its own reference


def period_start(period: str, now: float) -> float | None:
    """Calendar periods in UTC: the week starts on Monday, the month on the 1st."""
    if period == "all":
        return None
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return (day - timedelta(days=day.weekday())).timestamp()
    if period == "month":
        return day.replace(day=1).timestamp()
    raise ValueError(f"unknown period {period!r}")


@lru_cache(maxsize=4096)
def _decode_text(data: str) -> AnswerToken | None:
    """Every player of a question presses one of the same few tokens: parse each once."""
    return decode(data)


@lru_cache(maxsize=1024)
def _locked(lang: str, letter: str) -> Ack:
    return Ack(render.ack_locked(lang, letter), True, lang)


def _has(quiz: Quiz, question_id: str) -> bool:
    return any(q.id == question_id for q in quiz.questions)
