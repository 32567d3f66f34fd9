"""`quizhost stats --review`: the stored review log replayed, and three predictors of recall scored
on it (bot/domain/recall_metrics.py), so each installation measures on its own data whether FSRS
schedules its players' reviews better than the old Leitner rule or a constant.

Every card's grades are replayed in time order from where it entered the deck (a log row without
elapsed days: the miss that put it there). Each later grade is a review to predict: FSRS with the
fsrs package's default parameters (its optimizer needs PyTorch, which quizhost does not install),
the Leitner rule from the box it would be in (bot/domain/leitner.py), and a constant, the share
recalled in the older part. The older TRAIN_SHARE of those reviews is the training part (the
constant is all that trains on it), the newer rest the test, where the three are scored. Grades of
a card with no entry in the log (boxed before the log began: storage/shared/review.py's migration)
are left out until its next miss: where it stood is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import fsrs

from bot.domain import leitner
from bot.domain.deck import DAY, ReviewCard, ReviewLogRow
from bot.domain.recall_metrics import Pair, Score, score
from bot.engine import recall

TRAIN_SHARE = 0.7
MIN_REVIEWS = 50  # replayable reviews: fewer, and the test part is too small to tell models apart
FSRS, LEITNER, CONSTANT = "FSRS", "Leitner", "constant"


@dataclass(frozen=True)
class Replayed:
    """One review that follows an earlier grade of its card, with each model's prediction."""

    at: float
    recalled: bool
    fsrs: float
    leitner: float


@dataclass(frozen=True)
class Comparison:
    grades: int  # log rows
    cards: int
    players: int
    unreplayable: int  # grades of cards with no entry in the log
    train: tuple[Replayed, ...]
    test: tuple[Replayed, ...]
    constant: float  # the training part's share recalled
    scores: tuple[Score, ...]  # FSRS, Leitner, constant on the test part


def replay(log: Sequence[ReviewLogRow], scheduler: fsrs.Scheduler = recall.SCHEDULER) -> tuple[list[Replayed], int]:
    """The replayable reviews in time order, and how many grades could not be replayed."""
    cards: dict[tuple[str, str, str, str], tuple[ReviewCard, int]] = {}  # the FSRS card and its Leitner box
    replayed, unreplayable = [], 0
    for row in sorted(log, key=lambda r: r.reviewed_at):
        key, at = row.card_key, row.reviewed_at
        if row.elapsed_days is None:  # entered the deck: a new card
            card, box = ReviewCard(row.player_key, row.quiz_id, row.question_id, at, row.quiz_chat), leitner.FIRST_BOX
        elif key in cards:
            card, box = cards[key]
            fsrs_p = recall.recall(card, at, scheduler) or 0.0  # every card here has been graded: never None
            elapsed = (at - (card.last_review or at)) / DAY
            replayed.append(Replayed(at, row.correct, fsrs_p, leitner.predicted_recall(box, elapsed)))
        else:
            unreplayable += 1
            continue
        cards[key] = (recall.grade(card, row.correct, at, scheduler)[0], leitner.next_box(box, row.correct))
    return replayed, unreplayable


@dataclass(frozen=True)
class TooLittle:
    replayable: int  # fewer than MIN_REVIEWS
    grades: int


def compare(log: Sequence[ReviewLogRow]) -> Comparison | TooLittle:
    """The three models scored on the newer part of the log, if it has MIN_REVIEWS to replay."""
    replayed, unreplayable = replay(log)
    if len(replayed) < MIN_REVIEWS:
        return TooLittle(len(replayed), len(log))
    cut = round(len(replayed) * TRAIN_SHARE)
    train, test = tuple(replayed[:cut]), tuple(replayed[cut:])
    constant = sum(r.recalled for r in train) / len(train)
    return Comparison(
        len(log),
        len({r.card_key for r in log}),
        len({r.player_key for r in log}),
        unreplayable,
        train,
        test,
        constant,
        (
            score(FSRS, [(r.fsrs, r.recalled) for r in test]),
            score(LEITNER, [(r.leitner, r.recalled) for r in test]),
            score(CONSTANT, constant_pairs(constant, test)),
        ),
    )


def constant_pairs(constant: float, reviews: Sequence[Replayed]) -> list[Pair]:
    return [(constant, r.recalled) for r in reviews]
