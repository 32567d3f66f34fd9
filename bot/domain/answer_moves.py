"""The answers of a run beyond one press on an option: a select-all-that-apply question's
"Done", a typed or numeric answer, and a player's answer as another worker stored it. Pure, as
the session (bot/domain/session.py) whose runs they change."""

from __future__ import annotations

from dataclasses import replace

from bot.domain.answering import PICKS_DONE, typed_response
from bot.domain.model import NO_ANSWER
from bot.domain.records import AnswerRow, PressFacts
from bot.domain.session import Refusal, Run, answer_row, check_open, repeated
from bot.domain.tokens import QuestionToken


def stored_answer(run: Run, facts: PressFacts, player_key: str) -> AnswerRow | None:
    """The player's answer to the open question as the database has it, as far as a press needs
    it (its option, its response: a multi question's picks so far, and when it was stored)."""
    if facts.answered is None:
        return None
    row, q = run.row, run.question
    return AnswerRow(
        row.id,
        row.index,
        q.id,
        player_key,
        row.board_key,
        row.quiz_id,
        facts.answered,
        False,
        0.0,
        0,
        0,
        facts.answered_at,
        facts.response,
    )


def check_done(
    run: Run, token: QuestionToken, player_key: str, now: float, previous: AnswerRow | None = None
) -> Refusal | None:
    """ "Done" in a private chat on a question that collects picks: its picks so far are final."""
    if (closed := check_open(run, token.number, now)) is not None:
        return closed
    if not run.kind.collects_picks or not run.row.is_private:
        return Refusal.WRONG_KIND  # a group's card has no "Done" (its picks end at the deadline)
    answer = previous if previous is not None else run.answers.get(player_key)
    if answer is None or not answer.response:
        return Refusal.NO_PICKS
    return Refusal.REPEATED if answer.option == PICKS_DONE else None


def make_done(answer: AnswerRow) -> AnswerRow:
    """The same picks, final: scored as of the last toggle."""
    return replace(answer, option=PICKS_DONE)


def check_text(run: Run, number: int, player_key: str, now: float, previous: AnswerRow | None = None) -> Refusal | None:
    """A typed or numeric answer to question `number`."""
    if (closed := check_open(run, number, now)) is not None:
        return closed
    if run.kind.has_options:
        return Refusal.WRONG_KIND
    return repeated(run, player_key, previous)


def make_text_answer(run: Run, player_key: str, text: str, now: float) -> AnswerRow | Refusal:
    """The answer a typed text records, or NOT_A_NUMBER for a text its kind cannot judge (a
    numeric question's non-number)."""
    response = typed_response(text)
    if not run.kind.accepts_text(response):
        return Refusal.NOT_A_NUMBER
    return answer_row(run, player_key, now, NO_ANSWER, response)
