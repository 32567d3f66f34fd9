"""Assignments (bot/engine/assignments.py, storage/shared/assignments.py): a quiz a group's members
play each in private until a deadline, and who started it."""

from __future__ import annotations

from typing import Protocol

from bot.domain.assignment import AssignmentRow, AssignmentStatus, AssignmentSummary, Attempt, Place
from bot.domain.extra_time import EVERY_ASSIGNMENT, ExtraTime
from bot.domain.records import RunSummary


class AssignmentRecords(Protocol):
    """Assignments and their plays. Workers sharing a database may all find the same work due:
    `hold_assignment` and `end_assignment` are compare-and-sets that exactly one of them wins."""

    async def add_assignment(self, assignment: AssignmentRow) -> int:
        """Store a new open assignment (its chat was ensured); its id, a positive integer."""

    async def assignment(self, assignment_id: int) -> AssignmentRow | None:
        """The assignment as stored, whatever its status; None for an id never stored."""

    async def open_assignments(self, chat_key: str | None = None) -> list[AssignmentRow]:
        """Open assignments (of one chat, or of all), the earliest deadline first."""

    async def hold_assignment(self, assignment_id: int, now: float, until: float) -> bool:
        """Hold an open assignment until `until` if nobody holds it at `now`: True for exactly one
        of any number of callers, who then posts or edits its group message and releases it."""

    async def release_assignment(self, assignment: AssignmentRow) -> None:
        """Store its group message's id and what it shows (`shown`, `shown_at`); the hold ends.
        Its status is left as stored (only `end_assignment` changes it)."""

    async def end_assignment(self, assignment_id: int, status: AssignmentStatus) -> bool:
        """Move an open assignment to `status` (closed, cancelled): True for exactly one caller;
        False when it was not open (any more)."""

    async def join_assignment(self, assignment_id: int, player_key: str, now: float) -> bool:
        """Note that the player starts the assignment: True the first time, False ever after."""

    async def set_play_run(self, assignment_id: int, player_key: str, run_id: int | None) -> None:
        """The run the player plays it in; None forgets the player's start (the run could not start)."""

    async def assignment_places(self, assignment_id: int) -> list[Place]:
        """Everyone who started it, with the points and right answers of their run so far and
        whether it ended: the most points first, then the most right, then the earliest start."""

    async def assignment_attempts(self, assignment_id: int) -> list[Attempt]:
        """Everyone whose run of it started, with that run's status, last answer and points: the
        earliest start first (its web page)."""

    async def chat_history(
        self, chat_key: str, limit: int = 50, offset: int = 0
    ) -> list[RunSummary | AssignmentSummary]:
        """The chat's run history, the latest first: its own runs, and each of its assignments
        once (from when it was assigned, with how many attempts started) in place of the runs
        members played for it in private; at most `limit` after skipping `offset`."""

    async def history_size(self, chat_key: str) -> int:
        """How many lines `chat_history` has for the chat."""

    async def members_seen(self, chat_key: str) -> dict[str, str]:
        """The group's members the store knows of, key -> name: everyone with an answer counted
        for the chat (played in it, or an assignment of it in private) or who started a quiz in it."""


class ExtraTimeRecords(Protocol):
    """Extra time admins gave members (bot/domain/extra_time.py): a standing rule of a chat
    (assignment id 0) or one assignment's."""

    async def set_extra_time(self, rule: ExtraTime) -> None:
        """Store the rule in place of the one for the same chat, player and assignment; a factor
        of 1.0 deletes it."""

    async def extra_times(self, chat_key: str, assignment_id: int = EVERY_ASSIGNMENT) -> list[ExtraTime]:
        """The chat's rules for one assignment (0: its standing rules), by player key."""

    async def player_extra_times(self, chat_key: str, player_key: str) -> list[ExtraTime]:
        """Every rule of the chat for the player: the standing one and each assignment's."""
