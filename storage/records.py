"""Rows the store reads and writes: plain values, no SQL and no chat library."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatSettings:
    language: str | None = None  # set with /language; None: decide per user/default
    question_seconds: int | None = None  # None: the bot's default
    pause_seconds: float | None = None


@dataclass(slots=True)  # slots: one per open run, thousands at once
class RunRow:
    """Everything needed to continue a run after a restart."""

    chat_key: str
    chat_id: str
    platform: str
    is_private: bool
    quiz_id: str
    language: str
    seed: int
    question_ids: tuple[str, ...]
    seconds: int
    pause: float
    started_by: str
    started_at: float
    phase: str = "pausing"  # pausing: next question at `due`; asking: closes at `due`
    index: int = -1  # the current question, 0-based into question_ids
    asked_at: float = 0.0
    due: float = 0.0
    message_id: str | None = None
    silent: int = 0
    status: str = "open"  # open | finished | stopped | silent
    id: int = 0


@dataclass(frozen=True, slots=True)  # slots: every open question holds one per player
class AnswerRow:
    run_id: int
    index: int
    question_id: str
    player_key: str
    chat_key: str
    quiz_id: str
    option: int  # authoring-order index of the chosen option
    correct: bool
    elapsed: float
    points: int
    streak: int  # consecutive right answers in this run, this one included (0 if wrong)
    answered_at: float
