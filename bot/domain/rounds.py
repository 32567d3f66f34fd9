"""A quiz's rounds in a run: the points multiplier of a question, and where a round begins and
ends among the questions a run asks (a run may ask some of a quiz's questions, in its order)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.model import Quiz, Round


def multiplier(quiz: Quiz, question_id: str) -> float:
    """What the points of `question_id` are multiplied by: its round's multiplier (1 outside rounds)."""
    found = round_of(quiz, question_id)
    return found.multiplier if found else 1.0


def scaled(points: int, quiz: Quiz, question_id: str) -> int:
    """A question's points (speed, correctness, streak bonus) times its round's multiplier."""
    return round(points * multiplier(quiz, question_id))


def round_of(quiz: Quiz, question_id: str) -> Round | None:
    return next((r for r in quiz.rounds if question_id in r.question_ids), None)


@dataclass(frozen=True)
class RoundPlace:
    """A round as a run plays it: its number among the rounds the run asks from, of how many."""

    round: Round
    number: int  # from 1
    count: int


def starting(quiz: Quiz, question_ids: tuple[str, ...], index: int) -> RoundPlace | None:
    """The round whose first question (in this run) is question `index`; None when that
    question goes on a round (or the quiz has none)."""
    played = _played(quiz, question_ids)
    current = round_of(quiz, question_ids[index])
    if current is None or (index > 0 and round_of(quiz, question_ids[index - 1]) is current):
        return None
    return RoundPlace(current, played.index(current) + 1, len(played))


def ends_between(quiz: Quiz, question_ids: tuple[str, ...], index: int) -> bool:
    """Whether question `index` is the last (in this run) of a round another round follows:
    the standings are shown after it."""
    if not quiz.rounds or index + 1 >= len(question_ids):
        return False
    return round_of(quiz, question_ids[index]) is not round_of(quiz, question_ids[index + 1])


def _played(quiz: Quiz, question_ids: tuple[str, ...]) -> list[Round]:
    asked = set(question_ids)
    return [r for r in quiz.rounds if asked.intersection(r.question_ids)]
