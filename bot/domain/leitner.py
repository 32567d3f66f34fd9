"""Spaced repetition of a player's misses in Leitner boxes. Pure rules: time is passed in.

A question the player missed (wrong or unanswered, in any chat) enters box 1, due at once.
A right answer in review moves the card up one box, due again after that box's wait: 1, 3,
7, 14 and 30 days for boxes 2 to 6; a right answer in the last box takes the card out of the
deck. A wrong answer sends it back to box 1, due at once, like a fresh miss: the next /review
asks it again (a review session asks each card at most once, so it does not loop).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.domain.model import ChatRef

DAY = 86_400.0
WAIT_DAYS: tuple[int, ...] = (0, 1, 3, 7, 14, 30)  # box 1 .. box 6
FIRST_BOX = 1
LAST_BOX = len(WAIT_DAYS)


@dataclass(frozen=True)
class ReviewCard:
    """One missed question in one player's deck."""

    player_key: str
    quiz_id: str
    question_id: str
    box: int
    due: float  # unix time from which /review asks it
    quiz_chat: str = ""  # the chat whose own (uploaded) quiz it is; "" for a shipped quiz


def wait_seconds(box: int) -> float:
    return WAIT_DAYS[box - FIRST_BOX] * DAY


def missed(player_key: str, quiz_id: str, question_id: str, now: float, quiz_chat: str = "") -> ReviewCard:
    """A miss in a quiz: the card starts over in box 1 (new, or wherever it was)."""
    return ReviewCard(player_key, quiz_id, question_id, FIRST_BOX, now, quiz_chat)


def answered(card: ReviewCard, correct: bool, now: float) -> ReviewCard | None:
    """The card after a review answer; None when it leaves the deck."""
    if not correct:
        return replace(card, box=FIRST_BOX, due=now)
    if card.box >= LAST_BOX:
        return None
    box = card.box + 1
    return replace(card, box=box, due=now + wait_seconds(box))


def is_due(card: ReviewCard, now: float) -> bool:
    return card.due <= now


def due_now(cards: Iterable[ReviewCard], now: float) -> list[ReviewCard]:
    """The cards to ask, the longest overdue first (ties in a fixed order)."""
    due = [c for c in cards if is_due(c, now)]
    return sorted(due, key=lambda c: (c.due, c.quiz_chat, c.quiz_id, c.question_id))


@dataclass(frozen=True)
class ReviewSessionRow:
    """A player's open /review as stored, so that a press on its card still answers after a
    restart: the cards it asks, which one is out, in which option order, in which message."""

    player_key: str
    session: int  # the random number its buttons carry (bot/domain/tokens.py ReviewToken)
    chat: ChatRef  # the private chat it runs in
    language: str
    cards: tuple[ReviewCard, ...]  # as they were when the session started
    number: int = 0  # 1-based number of the card out now; 0 before the first
    right: int = 0  # right answers so far
    order: tuple[int, ...] = ()  # the card out now: displayed position -> authoring index
    message_id: str | None = None  # where that card was posted
    answered: bool = False  # the card out now has its answer
