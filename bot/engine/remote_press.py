"""A press for a quiz that another worker runs (several workers on one PostgreSQL database).

Behind a load balancer any worker gets any press. This worker does not hold the run, so it
reads the run and this player's part of it from the database in one query (bot/domain/records.py
PressFacts; never the run's answer list), checks the press as the owner would (the question
open, in time, one answer per player), and stores it with the database checking the same
under the run row's lock (bot/ports/store/coordination.py RunLeases.insert_answer_if_asking) before acknowledging
it: two round trips. The owner counts it when it closes the question (RunSteps.close seals it),
or sooner: a press that may complete the question's answers wakes the owner (bot/engine/wakeups.py).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

from bot.domain import session
from bot.domain.model import LETTERS, Ack, ChatRef, Player, Quiz
from bot.domain.records import RunRow
from bot.domain.session import Refusal
from bot.domain.tokens import AnswerToken
from bot.ports.store import RunLeases, RunRecords
from bot.texts import render

if TYPE_CHECKING:
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.core import Engine

REMEMBERED_RUNS = 1_000  # other workers' runs whose quiz is kept (a quiz is shared between its runs)


class ElsewhereStore(RunLeases, RunRecords, Protocol):
    """A press for another worker's run: the run as stored, the press stored under its lock."""


class RunQuizzes:
    """The quiz of each run other workers run, looked up at its first press here: a run keeps
    its quiz to its end, so a chat's own quiz is not read from the database on every press."""

    def __init__(self, catalog: Catalog, chat_quizzes: ChatQuizzes) -> None:
        self._catalog, self._chat_quizzes = catalog, chat_quizzes
        self._by_run: OrderedDict[int, Quiz] = OrderedDict()

    async def of(self, row: RunRow) -> Quiz | None:
        quiz = self._by_run.get(row.id)
        if quiz is None:
            quiz = self._catalog.get(row.quiz_id) or await self._chat_quizzes.get(row.board_key, row.quiz_id)
            if quiz is None:
                return None
            self._by_run[row.id] = quiz
            if len(self._by_run) > REMEMBERED_RUNS:
                self._by_run.popitem(last=False)
        return quiz


async def answer_elsewhere(
    engine: Engine, shared: ElsewhereStore, token: AnswerToken, player: Player, chat: ChatRef | None
) -> tuple[str, Ack]:
    """(outcome for /metrics, the acknowledgement) of a press for a run this worker does not run."""
    lang = engine.client_language(player)
    facts = await shared.press_facts(token.run_id, player.key, session.UNSEEN_PRESSES)
    if facts is None:
        status = await shared.run_status(token.run_id)
        return (
            ("ended", Ack(render.ack_ended(lang), False, lang))
            if status
            else ("invalid", Ack(render.ack_invalid(lang), False, lang))
        )
    row = facts.run
    quiz = await engine.run_quizzes.of(row)
    if quiz is None or (chat is not None and chat.key != row.chat_key):
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    run = session.Run(row, quiz, streaks={player.key: facts.streak})
    lang, now = row.language, engine.clock.now()
    refusal = session.check_press(run, token, player.key, now)  # closed or out of range, before repeated
    if refusal is None and facts.answered is not None:
        letter = LETTERS[run.order.index(facts.answered)]
        return Refusal.REPEATED.value, Ack(render.ack_repeated(lang, letter), False, lang)
    if refusal is not None:
        return refusal.value, Ack(render.ack_refused(lang, refusal), False, lang)
    wake = session.wakes_owner(row, facts.anyone_known, facts.unseen)
    try:
        landed = await shared.insert_answer_if_asking(
            session.make_answer(run, token, player.key, now), player, wake_owner=wake
        )
    except Exception:  # nothing was stored: the player may press again
        return "not_saved", Ack(render.ack_not_saved(lang), False, lang)
    if landed is None:  # the owner closed the question meanwhile
        return Refusal.CLOSED.value, Ack(render.ack_refused(lang, Refusal.CLOSED), False, lang)
    if not landed:  # the same player's press, a moment before, through another worker
        return Refusal.REPEATED.value, Ack(render.ack_refused(lang, Refusal.REPEATED), False, lang)
    return "accepted", Ack(render.ack_locked(lang, LETTERS[token.choice]), True, lang)
