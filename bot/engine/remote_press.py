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

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.domain import answer_moves, session
from bot.domain.answering import PICKS_DONE, shortened
from bot.domain.model import LETTERS, NO_ANSWER, Ack, ChatRef, Player, Quiz
from bot.domain.records import AnswerRow, PressFacts, RunRow
from bot.domain.session import Refusal, Run
from bot.domain.tokens import AnswerToken, Kind, QuestionToken
from bot.engine.presses import TOO_YOUNG, done_ack, picks_ack, refusal_ack, takes_text, too_young_ack
from bot.kinds import kind_of
from bot.ports.store import RunLeases, RunRecords, RunWakeups
from bot.texts import render

if TYPE_CHECKING:
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.ports.clock import Clock

SHOWN_READS, SHOWN_WAIT = 10, 0.1  # a press on a question still stored as posting: read again, for 1 s at most
REMEMBERED_RUNS = 1_000  # other workers' runs whose quiz is kept (a quiz is shared between its runs)


class ElsewhereStore(RunLeases, RunWakeups, RunRecords, Protocol):
    """A press for another worker's run: the run as stored (by its id or its chat's), the press
    stored under its lock."""


@dataclass(frozen=True)
class RemoteRuns:
    """What a press for another worker's run needs: the shared store, the clock, the language
    of a player with no run to answer in, and the quizzes of those runs."""

    shared: ElsewhereStore
    clock: Clock
    chats: Chats
    quizzes: RunQuizzes


class RunQuizzes:
    """The quiz of each run other workers run, looked up at its first press here: a run keeps
    its quiz to its end, so a chat's own quiz is not read from the database on every press."""

    def __init__(self, chat_quizzes: ChatQuizzes) -> None:
        self._chat_quizzes = chat_quizzes
        self._by_run: OrderedDict[int, Quiz] = OrderedDict()

    async def of(self, row: RunRow) -> Quiz | None:
        quiz = self._by_run.get(row.id)
        if quiz is None:
            quiz = await self._chat_quizzes.find(row.board_key, row.quiz_id)
            if quiz is None:
                return None
            self._by_run[row.id] = quiz
            if len(self._by_run) > REMEMBERED_RUNS:
                self._by_run.popitem(last=False)
        return quiz


async def answer_elsewhere(
    remote: RemoteRuns, token: AnswerToken | QuestionToken, player: Player, chat: ChatRef | None
) -> tuple[str, Ack]:
    """(outcome for /metrics, the acknowledgement) of a press for a run this worker does not run."""
    found = await _open_run(remote, token.run_id, player, token.number)
    if not isinstance(found, _Open):
        return found
    run, facts = found.run, found.facts
    if chat is not None and chat.key != run.row.chat_key:
        lang = remote.chats.client_language(player)
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    lang, now, key = run.row.language, remote.clock.now(), player.key
    previous = answer_moves.stored_answer(run, facts, key)
    if isinstance(token, QuestionToken):  # "Done" or "Answer": a young account has nothing to finish
        return await _question_button(remote.shared, run, facts, token, player, previous, now)
    if run.row.min_age and (young := too_young_ack(run.row.min_age, player, now, remote.chats)):
        return TOO_YOUNG, young
    refusal = session.check_press(run, token, key, now)  # closed or out of range, before repeated
    refusal = refusal or session.repeated(run, key, previous)
    if refusal is not None:
        return refusal.value, refusal_ack(run, refusal, previous)
    multi = run.kind.collects_picks
    answer = session.make_answer(run, token, key, now, previous)
    outcome, refused = await _insert(remote.shared, run, facts, answer, player, replace=multi)
    if refused is not None:
        return outcome, refused
    if multi:
        return outcome, picks_ack(run, answer)
    return outcome, Ack(render.ack_locked(lang, LETTERS[token.choice]), True, lang)


async def text_elsewhere(
    remote: RemoteRuns,
    chat: ChatRef,
    player: Player,
    text: str,
    run_id: int | None,
    number: int | None,
    reply_to: str | None,
    vouched: bool = False,
) -> tuple[str, Ack | None]:
    """A typed answer for a run this worker does not run: the chat's (as stored), or `run_id`'s
    from its own chat or where the caller `vouched` for the player (bot/engine/presses.py)."""
    if run_id is None:
        row = await remote.shared.chat_run(chat.key)
        if row is None:
            return "ignored", None
        run_id = row.id
    found = await _open_run(remote, run_id, player, number)
    if not isinstance(found, _Open):
        return found if number is not None else ("ignored", None)
    run, facts = found.run, found.facts
    if not vouched and chat.key != run.row.chat_key:
        lang = remote.chats.client_language(player)
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    if number is None and not takes_text(run, reply_to):
        return "ignored", None
    lang, now, key = run.row.language, remote.clock.now(), player.key
    if run.row.min_age and (young := too_young_ack(run.row.min_age, player, now, remote.chats)):
        return TOO_YOUNG, young
    previous = answer_moves.stored_answer(run, facts, key)
    refusal = answer_moves.check_text(run, number or run.row.index + 1, key, now, previous)
    if refusal is not None:
        return refusal.value, refusal_ack(run, refusal, previous)
    made = answer_moves.make_text_answer(run, key, text, now)
    if isinstance(made, Refusal):
        return made.value, Ack(render.ack_not_a_number(lang, shortened(text.strip())), False, lang, retry=True)
    outcome, refused = await _insert(remote.shared, run, facts, made, player)
    return outcome, refused or Ack(render.ack_text_locked(lang, shortened(made.response)), True, lang)


async def _question_button(
    shared: ElsewhereStore,
    run: Run,
    facts: PressFacts,
    token: QuestionToken,
    player: Player,
    previous: AnswerRow | None,
    now: float,
) -> tuple[str, Ack]:
    lang, key = run.row.language, player.key
    if token.kind is Kind.TEXT:
        closed = session.check_open(run, token.number, now)
        text = render.ack_refused(lang, closed) if closed else render.answer_instruction(lang, run.question.kind)
        return "instructed", Ack(text, False, lang)
    refusal = answer_moves.check_done(run, token, key, now, previous)
    if refusal is not None or previous is None:
        refusal = refusal or Refusal.NO_PICKS
        return refusal.value, refusal_ack(run, refusal, previous)
    # scored anew at this press: the stored answer's time is not read here
    final = answer_moves.make_done(session.answer_row(run, key, now, NO_ANSWER, previous.response))
    outcome, refused = await _insert(shared, run, facts, final, player, replace=True)
    return outcome, refused or done_ack(run, previous)


async def stored_run(remote: RemoteRuns, run_id: int, player: Player, number: int) -> Run | None:
    """Run `run_id` as stored by the worker that runs it (with this player's streak), while it
    is open; None once it is not."""
    found = await _open_run(remote, run_id, player, number)
    return found.run if isinstance(found, _Open) else None


@dataclass(frozen=True)
class _Open:
    run: Run  # as stored, with this player's streak
    facts: PressFacts


async def _open_run(remote: RemoteRuns, run_id: int, player: Player, number: int | None) -> _Open | tuple[str, Ack]:
    """The open run as stored with this player's part of it, or why there is none. A press on
    question `number` while it is stored as still being posted read the owner's run before the
    owner's commit of its shown question: its message exists, the press proves it. Read again,
    a moment later, a few times (the owner commits within milliseconds; a bench pressing the
    instant a message appears found this window), rather than answer "closed"."""
    lang = remote.chats.client_language(player)
    facts = await remote.shared.press_facts(run_id, player.key, session.UNSEEN_PRESSES)
    for _ in range(SHOWN_READS):
        if facts is None or not session.being_posted(facts.run, number):
            break
        await asyncio.sleep(SHOWN_WAIT)  # real time: another worker's commit, not the quiz's clock
        facts = await remote.shared.press_facts(run_id, player.key, session.UNSEEN_PRESSES)
    if facts is None:
        status = await remote.shared.run_status(run_id)
        if status:
            return "ended", Ack(render.ack_ended(lang), False, lang)
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    quiz = await remote.quizzes.of(facts.run)
    if quiz is None:
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    return _Open(session.Run(facts.run, quiz, kind_of, streaks={player.key: facts.streak}), facts)


async def _insert(
    shared: ElsewhereStore, run: Run, facts: PressFacts, answer: AnswerRow, player: Player, replace: bool = False
) -> tuple[str, Ack | None]:
    """Store the answer under the run row's lock: ("accepted", None), or why not and its Ack."""
    lang = run.row.language
    # picks still changing (a toggle before "Done", an order not complete) cannot close the question
    final = answer.option == PICKS_DONE or not run.kind.collects_picks
    wake = final and session.wakes_owner(run.row, facts.anyone_known, facts.unseen)
    try:
        landed = await shared.insert_answer_if_asking(answer, player, wake_owner=wake, replace=replace)
    except Exception:  # nothing was stored: the player may press again
        return "not_saved", Ack(render.ack_not_saved(lang), False, lang, retry=True)
    if landed is None:  # the owner closed the question meanwhile, or its host paused it
        why = await _why_not_asking(shared, run, player)
        return why.value, Ack(render.ack_refused(lang, why), False, lang)
    if not landed:  # the same player's press, a moment before, through another worker
        return Refusal.REPEATED.value, Ack(render.ack_refused(lang, Refusal.REPEATED), False, lang)
    return "accepted", None


async def _why_not_asking(shared: ElsewhereStore, run: Run, player: Player) -> Refusal:
    """The question took no answer after all: read again whether its host paused the game
    (a pause stored between this press's read and its insert), else it closed."""
    again = await shared.press_facts(run.id, player.key, session.UNSEEN_PRESSES)
    paused = again is not None and again.run.paused_left is not None
    return Refusal.PAUSED if paused else Refusal.CLOSED
