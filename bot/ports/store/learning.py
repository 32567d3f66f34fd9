"""Review decks, question statistics and schedules (storage/shared/learning.py,
storage/shared/review.py, storage/shared/statistics.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from bot.domain.deck import ReviewCard, ReviewLogRow, ReviewSessionRow
from bot.domain.questionstats import QuizTally
from bot.domain.schedule import ScheduleRow, ScheduleStatus


class ReviewDecks(Protocol):
    """/review (bot/engine/review.py): the questions each player missed, and their open review."""

    # review decks: one card per player and question, however often it was missed
    async def put_review_cards(self, cards: Iterable[ReviewCard]) -> None:
        """Store the cards as given: new ones, or new memory states and due times of existing ones."""

    async def review_deck(self, player_key: str) -> list[ReviewCard]:
        """Every card of the player, the earliest due first."""

    async def remove_review_card(self, card: ReviewCard) -> None:
        """The card leaves the deck (learned, or its question is gone); a missing card is no error."""

    # the review log: every grade given to a card, kept when the card leaves (quizhost stats --review)
    async def add_review_log(self, rows: Iterable[ReviewLogRow]) -> None:
        """Append the grades to the log."""

    async def review_log(self) -> list[ReviewLogRow]:
        """Every logged grade of every player, the oldest first (ties in a fixed order)."""

    # open reviews: at most one per player (storage/shared/review.py)
    async def save_review_session(self, row: ReviewSessionRow) -> None:
        """Store the player's open review as it stands, replacing any other review of theirs."""

    async def review_session(self, player_key: str) -> ReviewSessionRow | None:
        """The player's open review as last saved; None when they have none."""

    async def end_review_session(self, player_key: str, session: int) -> None:
        """Forget that review of the player's; a newer one (another session number) stays."""


class QuestionTallies(Protocol):
    """Question statistics (/quizstats, the web pages, `quizhost stats`): summed as questions
    close, so reading them costs the same however many answers are stored (a row per player
    and question, per question and answer time)."""

    async def quiz_tally(self, quiz_id: str, chat_key: str | None = None) -> QuizTally:
        """The closed questions' answers of a quiz summed per player and question (answers per
        option), per tenth of a second, and each player's total points in it; in one chat, or
        in all chats (None)."""

    async def stats_chats(self, quiz_id: str) -> list[str]:
        """The keys of the chats that answered the quiz."""

    async def quiz_responses(self, quiz_id: str, chat_key: str) -> dict[str, dict[str, int]]:
        """What the chat's players answered besides one option (a multi question's picks "0,2",
        a typed text, a number as typed), per question id: each distinct answer with how often it
        was given. Read from the answers (a row per distinct answer and question)."""


class ScheduleRecords(Protocol):
    """/schedule and the scheduler (bot/engine/scheduler.py): quizzes a chat asked for at set times."""

    async def add_schedule(self, schedule: ScheduleRow) -> int:
        """Store a new schedule; its id, a positive integer."""

    async def chat_schedules(self, chat_key: str) -> list[ScheduleRow]:
        """The chat's schedules (active and paused), oldest first."""

    async def due_schedules(self, now: float) -> list[ScheduleRow]:
        """Active schedules whose `next_due` is at or before `now`, the earliest first."""

    async def next_schedule_due(self) -> float | None:
        """The earliest `next_due` of any active schedule."""

    async def claim_schedule(self, schedule_id: int, due: float, next_due: float, asked: frozenset[str]) -> bool:
        """Move an active schedule whose `next_due` is still `due` on to `next_due` (and the
        questions asked in this round), atomically: True for exactly one of any number of
        callers (stores on one database included), who then fires it."""

    async def set_schedule_status(self, schedule_id: int, status: ScheduleStatus) -> None:
        """Pause or resume a schedule."""

    async def pause_chat_schedules(self, chat_key: str) -> int:
        """Pause every active schedule of the chat at once; how many were active."""

    async def resume_schedule(self, schedule_id: int, next_due: float) -> bool:
        """Make a paused schedule active again, due at `next_due`; False if it was not paused."""

    async def remove_schedules(self, chat_key: str, schedule_id: int | None = None) -> int:
        """Delete one schedule of the chat (or all); how many were deleted."""
