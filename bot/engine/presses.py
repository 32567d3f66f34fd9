"""A press on an answer button: validated, stored, and only then acknowledged; answers other
workers stored counted as presses taken here."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from bot.domain import session
from bot.domain.model import LETTERS, Ack, ChatRef, Player
from bot.domain.records import AnswerRow
from bot.domain.session import Refusal, Run
from bot.domain.tokens import MAX_BYTES, AnswerToken, decode
from bot.engine.chats import Chats
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.ports.clock import Clock
from bot.ports.store import AnswerQueue, RunRecords
from bot.texts import render

log = logging.getLogger("quizhost.engine")

# a press for a run another worker holds: (outcome for /metrics, the acknowledgement); bot/engine/remote_press.py
Elsewhere = Callable[[AnswerToken, Player, ChatRef | None], Awaitable[tuple[str, Ack]]]


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
    outcomes: Counter[str] = field(default_factory=Counter)  # for /metrics (bot/adapters/ops/metrics.py)

    async def answer(self, data: str | bytes | None, player: Player, chat: ChatRef | None = None) -> Ack:
        """Validate a press, store it, and only then acknowledge it.

        `chat`: where the pressed message is, as the platform says; a press counts only in its
        run's chat (button data copied elsewhere is refused). The adapters always give it."""
        # the cache holds only what could be a token: a flood of long junk must not fill memory
        token = _decode_text(data) if type(data) is str and len(data) <= MAX_BYTES else decode(data)
        run = self.runs.by_id.get(token.run_id) if token else None
        if token is None:  # no run, so no chat language: answer in the presser's own
            lang = self.chats.client_language(player)
            self.outcomes["invalid"] += 1
            return Ack(render.ack_invalid(lang), False, lang)
        if run is None and self.elsewhere is not None:  # maybe another worker's run: ask the database
            outcome, ack = await self.elsewhere(token, player, chat)
            self.outcomes[outcome] += 1
            return ack
        if run is None:
            status = await self.store.run_status(token.run_id)
            lang = self.chats.client_language(player)
            self.outcomes["ended" if status else "invalid"] += 1
            return Ack(render.ack_ended(lang) if status else render.ack_invalid(lang), False, lang)
        if chat is not None and chat.key != run.row.chat_key:
            log.warning("run %d: a press from %s refused: the run is in %s", run.id, chat.key, run.row.chat_key)
            lang = self.chats.client_language(player)
            self.outcomes["invalid"] += 1
            return Ack(render.ack_invalid(lang), False, lang)
        lang, now, key = run.row.language, self.clock.now(), player.key
        refusal = session.check_press(run, token, key, now)
        if refusal is not None:
            self.outcomes[refusal.value] += 1
        if refusal is Refusal.REPEATED:
            letter = LETTERS[run.order.index(run.answers[key].option)]
            return Ack(render.ack_repeated(lang, letter), False, lang)
        if refusal is not None:
            return Ack(render.ack_refused(lang, refusal), False, lang)
        answer = session.make_answer(run, token, key, now)
        run.answers[key], run.names[key] = answer, player.name  # reserve before awaiting
        refused = await self._store_answer(run, answer, player)
        if refused is not None:
            self.outcomes["not_saved"] += 1
            return refused
        self.outcomes["accepted"] += 1
        self._close_early_if_all_answered(run)
        return _locked(lang, LETTERS[token.choice])

    def _close_early_if_all_answered(self, run: Run) -> None:
        if session.should_close_early(run):
            run.row.due = min(run.row.due, self.clock.now())
            self.runs.schedule(run)

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

    async def _store_answer(self, run: Run, answer: AnswerRow, player: Player) -> Ack | None:
        """None once the answer is committed; else the Ack saying why not, reservation undone."""
        # the store commits answers in groups; this press is acknowledged after its group commits
        write = self.store.submit_answer(answer, player)
        self.runs.flights[run.id].ticket = self.store.answers_submitted  # the close waits for it
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


@lru_cache(maxsize=4096)
def _decode_text(data: str) -> AnswerToken | None:
    """Every player of a question presses one of the same few tokens: parse each once."""
    return decode(data)


@lru_cache(maxsize=1024)
def _locked(lang: str, letter: str) -> Ack:
    return Ack(render.ack_locked(lang, letter), True, lang)
