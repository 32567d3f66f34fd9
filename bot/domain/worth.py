"""What an answer was worth: the one verdict the reveal, the podium, the boards, the statistics,
the run report and the downloads all say of it.

A stored answer keeps `correct` (full credit), `points` and `scored` (a poll's vote is not); the
share of a partly right answer is its kind's credit, worked out again from the response
(bot/kinds: `Kind.credit`), since the credit is a pure function of the question and the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bot.domain.records import AnswerRow


class Verdict(StrEnum):
    RIGHT = "right"
    PARTIAL = "partial"  # some credit, not all: a select-all or ordering question scored `partial`
    WRONG = "wrong"
    UNANSWERED = "not_answered"  # asked while the player played the run, not answered
    VOTE = "vote"  # a poll's answer: nothing is right, it scores nothing
    SKIPPED = "skipped_by_host"  # its host skipped the question: scored for nobody, answered by none

    @property
    def counts(self) -> bool:
        """It counts in accuracy: a scored question asked of the player (a poll's vote does not,
        nor a question its host skipped)."""
        return self not in (Verdict.VOTE, Verdict.SKIPPED)


@dataclass(frozen=True, slots=True)
class Worth:
    verdict: Verdict
    # the credit, 0 to 1: 1 right; 0 wrong, not answered or a vote; between for partly right;
    # None for a partly right answer whose question is gone (its share cannot be worked out)
    share: float | None

    @property
    def credit(self) -> float:
        """The share as accuracy sums it (a partly right answer of a question gone: half)."""
        return 0.5 if self.share is None else self.share


NOT_ANSWERED = Worth(Verdict.UNANSWERED, 0.0)
VOTED = Worth(Verdict.VOTE, 0.0)
SKIPPED = Worth(Verdict.SKIPPED, 0.0)
RIGHT = Worth(Verdict.RIGHT, 1.0)
WRONG = Worth(Verdict.WRONG, 0.0)


def worth_of(answer: AnswerRow | None, share: float | None) -> Worth:
    """The verdict on a stored answer (None: not answered) given its kind's credit for it (None
    when its question is gone). The stored row decides right, wrong and vote; partly right is
    an answer that earned points or credit without full credit."""
    if answer is None:
        return NOT_ANSWERED
    return scored_worth(answer.correct, answer.points, share) if answer.scored else VOTED


def scored_worth(correct: bool, points: int, share: float | None) -> Worth:
    """The verdict on a scored answer from what is stored of it (full credit, points) and its
    kind's credit for it (None when unknown). The run's points decide whether it was partly
    right (a partly right answer always earns some: bot/domain/scoring.py), so a question whose
    scoring changed since keeps the verdict the run gave; its share is then unknown."""
    if correct:
        return RIGHT
    if points <= 0:
        return WRONG
    return Worth(Verdict.PARTIAL, share if share is not None and 0 < share < 1 else None)


@dataclass(frozen=True)
class Record:
    """One player's answers to the scored questions a run asked them: what "n/N right" and
    accuracy say (a question they did not answer counts as asked)."""

    asked: int
    right: int = 0
    partly: int = 0
    answered: int = 0
    credit: float = 0.0
    late: bool = False  # they joined after the first scored question: `asked` counts those since

    @property
    def accuracy(self) -> float:
        return self.credit / self.asked if self.asked else 0.0

    @property
    def not_answered(self) -> int:
        return self.asked - self.answered


def record_of(worths: Iterable[Worth], asked: int) -> Record:
    """A player's record from the worths of their answers (votes and not-answered ones are
    skipped) over the `asked` scored questions."""
    counted = [w for w in worths if w.verdict.counts and w.verdict is not Verdict.UNANSWERED]
    return Record(
        max(asked, len(counted)),
        sum(w.verdict is Verdict.RIGHT for w in counted),
        sum(w.verdict is Verdict.PARTIAL for w in counted),
        len(counted),
        sum(w.credit for w in counted),
    )
