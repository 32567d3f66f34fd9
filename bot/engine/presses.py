"""A press on an answer button, or a typed answer: validated, stored, and only then acknowledged;
answers other workers stored counted as presses taken here.

Every kind of question: one press answers a choice, true/false or poll; each press on a
select-all-that-apply question toggles that option in the player's picks (stored each time,
replacing the last) until its "Done" or its deadline; a typed or numeric question takes text
(`answer_text`)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from bot.domain import answer_moves, fairplay, session
from bot.domain.answering import PICKS_DONE, shortened
from bot.domain.model import LETTERS, NO_ANSWER, Ack, ChatRef, Player
from bot.domain.records import AnswerRow
from bot.domain.session import Refusal, Run
from bot.domain.tokens import MAX_BYTES, AnswerToken, Kind, QuestionToken, decode, decode_question
from bot.engine.chats import Chats
from bot.engine.host_panel import HostPanels
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.kinds import kind_of
from bot.ports.clock import Clock
from bot.ports.store import AnswerQueue, RunLeases, RunRecords
from bot.texts import render, render_fairplay
from bot.texts.textcut import clean

log = logging.getLogger("quizhost.engine")

# a press on a question this worker is still posting: its message is there, the platform's
# answer to the post not yet heard (a busy moment); look again this often, for 1 s at most
POSTING_LOOKS, POSTING_PAUSE = 100, 0.01
TOO_YOUNG = "too_young"  # /metrics: a press refused for the account's age (bot/domain/fairplay.py)

# a press for a run another worker holds: (outcome for /metrics, the acknowledgement); bot/engine/remote_press.py
Elsewhere = Callable[[AnswerToken | QuestionToken, Player, ChatRef | None], Awaitable[tuple[str, Ack]]]
# a typed answer for a run another worker holds (chat, player, text, run id, number, reply to,
# vouched): the acknowledgement, or None when the text was ordinary chat
TextElsewhere = Callable[
    [ChatRef, Player, str, int | None, int | None, str | None, bool], Awaitable[tuple[str, Ack | None]]
]


class PressStore(RunRecords, AnswerQueue, Protocol):
    """A press: its answer queued for the next group commit; an unknown run's status looked up."""


@dataclass(eq=False)
class Presses:
    store: PressStore
    clock: Clock
    runs: RunTable
    chats: Chats
    steps: RunSteps
    elsewhere: Elsewhere | None
    text_elsewhere: TextElsewhere | None = None
    outcomes: Counter[str] = field(default_factory=Counter)  # for /metrics (bot/adapters/ops/metrics.py)
    # a hosted run's panel shows how many have answered (bot/engine/host_panel.py)
    panels: HostPanels | None = None
    # (run, player) -> answers of theirs being committed now: what is held is ahead of the database
    _committing: dict[tuple[int, str], int] = field(default_factory=dict)

    async def answer(self, data: str | bytes | None, player: Player, chat: ChatRef | None = None) -> Ack:
        """Validate a press, store it, and only then acknowledge it.

        `chat`: where the pressed message is, as the platform says; a press counts only in its
        run's chat (button data copied elsewhere is refused). The adapters always give it."""
        # the cache holds only what could be a token: a flood of long junk must not fill memory
        token = _decode_text(data) if type(data) is str and len(data) <= MAX_BYTES else decode(data)
        if token is None and (question := decode_question(data)) is not None:
            return await self._question_button(question, player, chat)
        if token is None:  # no run, so no chat language: answer in the presser's own
            return self._invalid(player)
        run = self._here(token, chat)
        if run is None:
            found = await self._held(token, player, chat)
            if isinstance(found, Ack):
                return found
            run = found
        if run.row.min_age and (young := too_young_ack(run.row.min_age, player, self.clock.now(), self.chats)):
            return self._counted(young)
        if session.being_posted(run.row, token.number):  # rare: no coroutine on the usual path
            await _until_shown(run, token.number)
        lang, now, key = run.row.language, self.clock.now(), player.key
        refusal = session.check_press(run, token, key, now)
        if refusal is not None:
            return self._refused(run, refusal, key)
        multi = run.kind.collects_picks
        previous = await self._latest_picks(run, key) if multi else run.answers.get(key)
        if multi and (refusal := session.check_press(run, token, key, self.clock.now())) is not None:
            return self._refused(run, refusal, key)  # it closed while the stored picks were read
        answer = session.make_answer(run, token, key, now, previous)
        refused = await self._record(run, answer, player, previous, replace=multi)
        if refused is not None:
            return refused
        if multi:
            return picks_ack(run, answer)
        return _locked(lang, LETTERS[token.choice])

    async def _latest_picks(self, run: Run, key: str) -> AnswerRow | None:
        """A multi question's picks so far: held here, or, with several workers, as stored (the
        player's presses may reach any worker), unless a toggle of this worker's is still being
        committed (then what is held is ahead of the database)."""
        if not isinstance(self.store, RunLeases) or (run.id, key) in self._committing:
            return run.answers.get(key)
        facts = await self.store.press_facts(run.id, key, 0)
        if (run.id, key) in self._committing:  # a toggle here came in while the database answered
            return run.answers.get(key)
        return answer_moves.stored_answer(run, facts, key) if facts else run.answers.get(key)

    async def _question_button(self, token: QuestionToken, player: Player, chat: ChatRef | None) -> Ack:
        """ "Done" on a multi question; "Answer" where the platform has no way to ask for text
        (it says how to answer)."""
        run = await self._held(token, player, chat)
        if isinstance(run, Ack):
            return run
        lang, now, key = run.row.language, self.clock.now(), player.key
        if token.kind is Kind.TEXT:
            closed = session.check_open(run, token.number, now)
            text = render.ack_refused(lang, closed) if closed else render.answer_instruction(lang, run.question.kind)
            return Ack(text, False, lang)
        previous = await self._latest_picks(run, key)
        refusal = answer_moves.check_done(run, token, key, self.clock.now(), previous)
        if refusal is not None or previous is None:
            return self._refused(run, refusal or Refusal.NO_PICKS, key)
        if previous is not run.answers.get(key):  # picked through another worker: scored at this press
            previous = session.answer_row(run, key, now, NO_ANSWER, previous.response)
        refused = await self._record(run, answer_moves.make_done(previous), player, previous, replace=True)
        if refused is not None:
            return refused
        return done_ack(run, previous)

    async def answer_text(
        self,
        chat: ChatRef,
        player: Player,
        text: str,
        run_id: int | None = None,
        number: int | None = None,
        reply_to: str | None = None,
        vouched: bool = False,
    ) -> Ack | None:
        """A typed or numeric answer: to the chat's open question (a reply to anything but its
        message is ordinary chat: None), or to `run_id`'s question `number` (a modal), sent in
        that run's chat: a run id written anywhere else is refused, as a press is, unless the
        caller `vouched` for this player answering it from here (a private chat the player was
        sent to by a checked deep link, bot/commands/typed.py). The text is kept as `clean`
        leaves it: no reveal, report or download shows a player's directional override."""
        text = clean(text)
        run = self.runs.by_id.get(run_id) if run_id is not None else self.runs.by_chat.get(chat.key)
        if run is None:
            if self.text_elsewhere is not None:
                outcome, ack = await self.text_elsewhere(chat, player, text, run_id, number, reply_to, vouched)
                if ack is not None:
                    self.outcomes[outcome] += 1
                return ack
            return None if run_id is None else await self._unknown_run(run_id, player)
        if run_id is not None and not vouched and chat.key != run.row.chat_key:
            log.warning("run %d: a typed answer from %s refused: the run is in %s", run.id, chat.key, run.row.chat_key)
            return self._invalid(player)
        if run_id is None and not takes_text(run, reply_to):
            return None
        if run.row.min_age and (young := too_young_ack(run.row.min_age, player, self.clock.now(), self.chats)):
            return self._counted(young)
        if session.being_posted(run.row, number or run.row.index + 1):
            await _until_shown(run, number or run.row.index + 1)
        lang, now, key = run.row.language, self.clock.now(), player.key
        refusal = answer_moves.check_text(run, number or run.row.index + 1, key, now)
        if refusal is not None:
            return self._refused(run, refusal, key)
        made = answer_moves.make_text_answer(run, key, text, now)
        if isinstance(made, Refusal):
            self.outcomes[made.value] += 1
            return Ack(render.ack_not_a_number(lang, shortened(text.strip())), False, lang, retry=True)
        refused = await self._record(run, made, player, None)
        return refused or Ack(render.ack_text_locked(lang, shortened(made.response)), True, lang)

    def _here(self, token: AnswerToken | QuestionToken, chat: ChatRef | None) -> Run | None:
        """The run when it is held here and pressed in its own chat, as nearly every press is:
        found without a coroutine (`_held` says why any other press is not counted)."""
        run = self.runs.by_id.get(token.run_id)
        return run if run is not None and (chat is None or chat.key == run.row.chat_key) else None

    async def _held(self, token: AnswerToken | QuestionToken, player: Player, chat: ChatRef | None) -> Run | Ack:
        """The run the press is for, held here; else the acknowledgement (another worker's run
        answered through the database, an ended one, a press from another chat)."""
        run = self.runs.by_id.get(token.run_id)
        if run is None and self.elsewhere is not None:  # maybe another worker's run: ask the database
            outcome, ack = await self.elsewhere(token, player, chat)
            self.outcomes[outcome] += 1
            return ack
        if run is None:
            return await self._unknown_run(token.run_id, player)
        if chat is not None and chat.key != run.row.chat_key:
            log.warning("run %d: a press from %s refused: the run is in %s", run.id, chat.key, run.row.chat_key)
            return self._invalid(player)
        return run

    async def _unknown_run(self, run_id: int, player: Player) -> Ack:
        status = await self.store.run_status(run_id)
        lang = self.chats.client_language(player)
        self.outcomes["ended" if status else "invalid"] += 1
        return Ack(render.ack_ended(lang) if status else render.ack_invalid(lang), False, lang)

    def _invalid(self, player: Player) -> Ack:
        lang = self.chats.client_language(player)
        self.outcomes["invalid"] += 1
        return Ack(render.ack_invalid(lang), False, lang)

    def _counted(self, young: Ack) -> Ack:
        self.outcomes[TOO_YOUNG] += 1
        return young

    def _refused(self, run: Run, refusal: Refusal, key: str) -> Ack:
        self.outcomes[refusal.value] += 1
        return refusal_ack(run, refusal, run.answers.get(key))

    async def _record(
        self, run: Run, answer: AnswerRow, player: Player, previous: AnswerRow | None, replace: bool = False
    ) -> Ack | None:
        """Hold the answer, store it, close early if it was the last awaited: None once stored,
        else the Ack saying why not (the answer held before is back)."""
        key = answer.player_key
        run.answers[key], run.names[key] = answer, player.name  # reserve before awaiting
        if replace:
            refused = await self._store_picks(run, answer, player)
        else:  # the hot path: one answer per player and question, nothing to track
            refused = await self._store_answer(run, answer, player, replace)
        if refused is not None:
            if previous is not None and run.answers.get(key) is None:
                run.answers[key] = previous
            self.outcomes["not_saved"] += 1
            return refused
        self.outcomes["accepted"] += 1
        self._close_early_if_all_answered(run)
        if self.panels is not None and run.row.host_key:
            self.panels.changed(run.id)
        return None

    async def _store_picks(self, run: Run, answer: AnswerRow, player: Player) -> Ack | None:
        """A toggle or Done, stored in place of the last; while it commits, what is held here is
        ahead of the database (`_latest_picks`)."""
        pending = (run.id, answer.player_key)
        self._committing[pending] = self._committing.get(pending, 0) + 1
        try:
            return await self._store_answer(run, answer, player, replace=True)
        finally:
            if (left := self._committing.pop(pending) - 1) > 0:
                self._committing[pending] = left

    def _close_early_if_all_answered(self, run: Run) -> None:
        if session.should_close_early(run):
            run.row.due = min(run.row.due, self.clock.now())
            self.runs.schedule(run)
        if self.steps.live is not None:  # "N of M answered" on the big screen
            self.steps.live.count_soon(run)

    async def count_stored(self, run_id: int, index: int, stored: list[AnswerRow]) -> None:
        """Answers to question `index` that other workers stored (read after a wake-up, bot/
        wakeups.py) count as presses taken here: the question closes early once all have answered."""
        held = self.runs.held(run_id)
        if held is None:
            return
        run, flight = held
        async with flight.lock:
            if run.is_asking and run.row.index == index:
                await self.steps.count_elsewhere(run, stored)
                self._close_early_if_all_answered(run)

    async def _store_answer(self, run: Run, answer: AnswerRow, player: Player, replace: bool) -> Ack | None:
        """None once the answer is committed; else the Ack saying why not, reservation undone."""
        # the store commits answers in groups; this press is acknowledged after its group commits
        write = self.store.submit_picks(answer, player) if replace else self.store.submit_answer(answer, player)
        self.runs.flights[run.id].ticket = self.store.answers_submitted  # the close waits for it
        lang = run.row.language
        try:
            if await write:
                return None
            refused = Ack(render.ack_refused(lang, Refusal.REPEATED), False, lang)
        except Exception as error:  # nothing was stored: the player may press again
            log.warning("run %d: an answer was not stored: %s", run.id, error)  # the writer logged why
            refused = Ack(render.ack_not_saved(lang), False, lang, retry=True)
        if run.answers.get(answer.player_key) is answer:
            del run.answers[answer.player_key]
        return refused


def too_young_ack(min_age: int, player: Player, now: float, chats: Chats) -> Ack | None:
    """A press or typed answer from a Discord account younger than the run's `min_age` (its
    chat's /settings min_age as it started): refused in the player's own language, nothing
    stored; None for anyone old enough."""
    if not fairplay.too_young(player, min_age, now):
        return None
    lang = chats.client_language(player)
    return Ack(render_fairplay.ack_too_young(lang, min_age), False, lang)


def picks_ack(run: Run, answer: AnswerRow) -> Ack:
    """A press on a kind that collects picks: the picks so far as the kind says them ("A, C";
    an order "B → A → …"), or the answer once it may not change (an order complete in a group)."""
    said = kind_of(run.question).said_so_far(run.question, run.order, answer.response)
    lang = run.row.language
    return Ack(render.ack_step(lang, run.question.kind, said, answer.option == PICKS_DONE), True, lang)


def done_ack(run: Run, answer: AnswerRow) -> Ack:
    """ "Done": the picks, final."""
    lang = run.row.language
    said = run.kind.answered_label(run.question, run.order, NO_ANSWER, answer.response)
    return Ack(render.ack_done(lang, said), True, lang)


async def _until_shown(run: Run, number: int) -> None:
    """Wait, briefly, while question `number` is still being posted (the press proves it is
    there): it is then answered as shown, not refused as closed. Real time, not the quiz's."""
    for _ in range(POSTING_LOOKS):
        if not session.being_posted(run.row, number):
            return
        await asyncio.sleep(POSTING_PAUSE)


def takes_text(run: Run, reply_to: str | None) -> bool:
    """Whether a chat message is an answer: the open question is typed or numeric, and the
    message replies to it or to nothing."""
    if not run.is_asking or run.kind.has_options:
        return False
    return reply_to is None or reply_to == run.row.message_id


def refusal_ack(run: Run, refusal: Refusal, previous: AnswerRow | None) -> Ack:
    """Why an answer changed nothing, in the run's language; a repeat says what counts."""
    lang, kind = run.row.language, run.kind
    if refusal is Refusal.REPEATED and previous is not None:
        said = kind.answered_label(run.question, run.order, previous.option, previous.response)
        if said:
            text = render.ack_repeated(lang, said) if kind.has_options else render.ack_repeated_text(lang, said)
            return Ack(text, False, lang)
    if refusal is Refusal.OUT_OF_RANGE and not kind.has_options:
        return Ack(render.answer_instruction(lang, run.question.kind), False, lang)
    return Ack(render.ack_refused(lang, refusal), False, lang)


@lru_cache(maxsize=4096)
def _decode_text(data: str) -> AnswerToken | None:
    """Every player of a question presses one of the same few tokens: parse each once."""
    return decode(data)


@lru_cache(maxsize=1024)
def _locked(lang: str, letter: str) -> Ack:
    return Ack(render.ack_locked(lang, letter), True, lang)
