"""FSRS scheduling of review cards, with the `fsrs` package (bot/domain/deck.py keeps the values).

Here, not in the domain, because fsrs reads the wall clock and sleeps where a card's id or a time
is left out (fsrs.card imports time): every call below passes both, the time from the injected
clock. Grades: right is Good, wrong is Again (the bot knows no Hard or Easy).

The scheduler: one learning and one relearning step of a minute, so a wrong answer brings the card
back at the player's next /review (a session asks each card once, so it does not loop), and a right
one sends it days ahead; no fuzz, so a card's due time follows from its answers alone. A card FSRS
would next ask LEARNED_DAYS or more later leaves the deck: well learned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import fsrs

from bot.domain.deck import DAY, CardState, Grade, Miss, Misses, ReviewCard, ReviewLogRow

STEP = timedelta(minutes=1)
SCHEDULER = fsrs.Scheduler(learning_steps=(STEP,), relearning_steps=(STEP,), enable_fuzzing=False)
LEARNED_DAYS = 90
DECAY_PARAMETER = 20  # FSRS-6's w20: the forgetting curve's decay


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def recall(card: ReviewCard, now: float, scheduler: fsrs.Scheduler = SCHEDULER) -> float | None:
    """The recall FSRS predicts for the card at `now`; None before its first grade.

    FSRS's forgetting curve R = (1 + f·t/S)^-d with f = 0.9^(-1/d) - 1, computed here over
    fractional days: fsrs's get_card_retrievability counts whole days, which would predict sure
    recall for every review on the day of a miss, the commonest review there is."""
    if card.last_review is None or card.stability is None:
        return None
    decay = scheduler.parameters[DECAY_PARAMETER]
    factor = 0.9 ** (-1 / decay) - 1
    elapsed = max(now - card.last_review, 0.0) / DAY
    return float((1 + factor * elapsed / card.stability) ** -decay)


def grade(
    card: ReviewCard, correct: bool, now: float, scheduler: fsrs.Scheduler = SCHEDULER
) -> tuple[ReviewCard, ReviewLogRow]:
    """The card after a right or wrong answer at `now`, and the log row of that grade."""
    rating = Grade.GOOD if correct else Grade.AGAIN
    before = fsrs.Card(
        card_id=1,  # fsrs would name a card by the wall clock (and sleep a millisecond) without one
        state=fsrs.State(int(card.state)),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_utc(card.due),
        last_review=None if card.last_review is None else _utc(card.last_review),
    )
    after, _ = scheduler.review_card(before, fsrs.Rating(int(rating)), _utc(now))
    moved = replace(
        card,
        due=after.due.timestamp(),
        state=CardState(int(after.state)),
        step=after.step,
        stability=after.stability,
        difficulty=after.difficulty,
        last_review=now,
    )
    elapsed = None if card.last_review is None else max(now - card.last_review, 0.0) / DAY
    log = ReviewLogRow(
        card.player_key,
        card.quiz_chat,
        card.quiz_id,
        card.question_id,
        now,
        rating,
        elapsed,
        recall(card, now, scheduler),
    )
    return moved, log


# A miss grades a new card Again, and FSRS's answer to that is the same for every card but for the
# time: it is worked out once here, not for every player who missed at every question's close
# (the scheduler's review_card on the event loop tripled the bench's ack p99 at 5,000 presses/s).
_MISSED, _ = grade(ReviewCard("", "", "", 0.0), False, 0.0)


def missed(player_key: str, quiz_id: str, question_id: str, now: float, quiz_chat: str = "") -> Miss:
    """A miss in a quiz: the card starts over (new, or wherever it was) with the miss as its
    first grade, Again, and is due at once."""
    # made whole rather than with dataclasses.replace, three times slower: a close makes one
    # for every player who missed, on the event loop
    card = ReviewCard(
        player_key,
        quiz_id,
        question_id,
        now,
        quiz_chat,
        _MISSED.state,
        _MISSED.step,
        _MISSED.stability,
        _MISSED.difficulty,
        now,
    )
    log = ReviewLogRow(player_key, quiz_chat, quiz_id, question_id, now, Grade.AGAIN, None, None)
    return card, log


def misses(players: Iterable[str], quiz_id: str, question_id: str, now: float, quiz_chat: str = "") -> Misses:
    """`missed` for each of the players at once: the card and log row each would get, held once."""
    card, log = missed("", quiz_id, question_id, now, quiz_chat)
    return Misses(card, log, tuple(players))


def answered(card: ReviewCard, correct: bool, now: float) -> tuple[ReviewCard | None, ReviewLogRow]:
    """The card after a review answer (None when it leaves the deck), and the log row."""
    moved, log = grade(card, correct, now)
    if correct and moved.due - now >= LEARNED_DAYS * DAY:
        return None, log
    return moved, log
