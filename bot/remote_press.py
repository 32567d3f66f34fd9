"""A press for a quiz that another worker runs (several workers on one PostgreSQL database).

Behind a load balancer any worker gets any press. This worker does not hold the run, so it
reads the run and its answers from the database, checks the press as the owner would (the
question open, in time, one answer per player), and stores it with the database checking
the same under the run row's lock (bot/ports.py RunLeases.insert_answer_if_asking) before
acknowledging it. The owner counts it when it closes the question (RunSteps.close seals it), or
sooner: a press that may complete the question's answers wakes the owner (bot/wakeups.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from bot import render, session
from bot.model import LETTERS, Ack, ChatRef, Player
from bot.ports import RunLeases
from bot.session import Refusal
from bot.tokens import AnswerToken

if TYPE_CHECKING:
    from bot.engine import Engine


async def answer_elsewhere(engine: Engine, shared: RunLeases, token: AnswerToken, player: Player,
                           chat: ChatRef | None) -> tuple[str, Ack]:
    """(outcome for /metrics, the acknowledgement) of a press for a run this worker does not run."""
    lang = engine.client_language(player)
    row = await shared.open_run(token.run_id)
    if row is None:
        status = await engine.store.run_status(token.run_id)
        return ("ended", Ack(render.ack_ended(lang), False, lang)) if status else (
            "invalid", Ack(render.ack_invalid(lang), False, lang))
    quiz = engine.catalog.get(row.quiz_id) or await engine.chat_quizzes.get(row.chat_key, row.quiz_id)
    if quiz is None or (chat is not None and chat.key != row.chat_key):
        return "invalid", Ack(render.ack_invalid(lang), False, lang)
    run = session.Run(row, quiz)
    session.restore(run, await engine.store.run_answers(row.id), {})
    lang, now = row.language, engine.clock.now()
    refusal = session.check_press(run, token, player.key, now)
    if refusal is Refusal.REPEATED:
        letter = LETTERS[run.order.index(run.answers[player.key].option)]
        return refusal.value, Ack(render.ack_repeated(lang, letter), False, lang)
    if refusal is not None:
        return refusal.value, Ack(render.ack_refused(lang, refusal), False, lang)
    try:
        landed = await shared.insert_answer_if_asking(session.make_answer(run, token, player.key, now), player,
                                                      wake_owner=session.may_complete(run, player.key))
    except Exception:  # nothing was stored: the player may press again
        return "not_saved", Ack(render.ack_not_saved(lang), False, lang)
    if landed is None:  # the owner closed the question meanwhile
        return Refusal.CLOSED.value, Ack(render.ack_refused(lang, Refusal.CLOSED), False, lang)
    if not landed:  # the same player's press, a moment before, through another worker
        return Refusal.REPEATED.value, Ack(render.ack_refused(lang, Refusal.REPEATED), False, lang)
    return "accepted", Ack(render.ack_locked(lang, LETTERS[token.choice]), True, lang)
