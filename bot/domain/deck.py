"""A player's review deck as values: the questions they missed, each with its FSRS memory
state, the log of every grade given to a card, and an open /review. Pure: times are passed in.

The scheduling itself (which state and due time a grade leads to) is the `fsrs` package's,
wrapped in bot/engine/recall.py; the domain only keeps what it computed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import overload

from bot.domain.model import ChatRef

DAY = 86_400.0


class CardState(IntEnum):
    """FSRS's card states (fsrs.State has the same numbers, which the stores keep)."""

    LEARNING = 1  # new, or missed and not yet right once since
    REVIEW = 2  # remembered: due again after days
    RELEARNING = 3  # forgotten after it was remembered


class Grade(IntEnum):
    """The two of FSRS's four ratings the bot can give: it only knows right and wrong."""

    AGAIN = 1
    GOOD = 3


@dataclass(frozen=True)
class ReviewCard:
    """One missed question in one player's deck, with the memory state FSRS keeps for it."""

    player_key: str
    quiz_id: str
    question_id: str
    due: float  # unix time from which /review asks it
    quiz_chat: str = ""  # the chat whose own (uploaded) quiz it is; "" for a shipped quiz
    state: CardState = CardState.LEARNING
    step: int | None = 0  # the learning or relearning step; None in REVIEW
    stability: float | None = None  # days until predicted recall falls to 90%; None before any grade
    difficulty: float | None = None  # 1 (easy) to 10 (hard)
    last_review: float | None = None  # unix time of the last grade

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.player_key, self.quiz_chat, self.quiz_id, self.question_id)


@dataclass(frozen=True)
class ReviewLogRow:
    """One grade given to a card, enough to replay the deck's history (`quizhost stats --review`).
    A miss in a quiz is logged too: it is the card's first grade (Again), and a row without
    `elapsed_days` marks where a card (re)entered the deck with no memory state."""

    player_key: str
    quiz_chat: str
    quiz_id: str
    question_id: str
    reviewed_at: float  # unix time
    grade: Grade
    elapsed_days: float | None  # since the card's previous grade; None: its first since it entered
    recall: float | None  # the recall FSRS predicted just before; None without a previous grade

    @property
    def card_key(self) -> tuple[str, str, str, str]:
        return (self.player_key, self.quiz_chat, self.quiz_id, self.question_id)

    @property
    def correct(self) -> bool:
        return self.grade is not Grade.AGAIN


# a question missed in a quiz: the player's card for it, due at once, and the miss's log row
Miss = tuple[ReviewCard, ReviewLogRow]


@dataclass(frozen=True)
class Misses(Sequence[Miss]):
    """The misses of one close, held once: every player who missed the question gets the same
    card (as the miss left it, due at once) and the same log row, all but their key alike. A
    close of 50 players made some 200 objects on the event loop, one card and one row each,
    that lived until their commit and that the garbage collector walked; the stores take the
    keys and the two shared rows instead (storage/shared/group_commit.py `review_ops`)."""

    card: ReviewCard  # each player's card, with player_key ""
    log: ReviewLogRow  # each player's log row, with player_key ""
    players: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.players)

    @overload
    def __getitem__(self, i: int) -> Miss: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Miss]: ...

    def __getitem__(self, i: int | slice) -> Miss | Sequence[Miss]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        key = self.players[i]
        return replace(self.card, player_key=key), replace(self.log, player_key=key)


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
