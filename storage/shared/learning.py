"""Schedules: the queries, shared by both stores (statistics: storage/shared/statistics.py; review
decks: storage/shared/review.py).

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters
(PostgreSQL's store numbers them, as for the boards). Each store supplies the three ways
to run a statement (storage/shared/statements.py).
"""

from __future__ import annotations

import json

from bot.domain.model import ChatRef
from bot.domain.schedule import Cadence, Rule, ScheduleRow, ScheduleStatus
from storage.shared.statements import Statements

ACTIVE = ScheduleStatus.ACTIVE.value
_SCHEDULE_COLUMNS = (
    "id, chat_key, platform, chat_id, is_private, quiz_id, cadence, weekday, hour, minute, "
    "questions, hours, status, next_due, asked, seed, created_by"
)


class LearningQueries(Statements):
    # schedules ---------------------------------------------------------------------------

    async def add_schedule(self, s: ScheduleRow) -> int:
        columns = _SCHEDULE_COLUMNS.removeprefix("id, ")
        values = ", ".join(f":{name.strip()}" for name in columns.split(","))
        return await self._insert_id(
            f"INSERT INTO schedules({columns}) VALUES ({values})",
            dict(
                chat_key=s.chat.key,
                platform=s.chat.platform,
                chat_id=s.chat.chat_id,
                is_private=int(s.chat.is_private),
                quiz_id=s.quiz_id,
                cadence=s.rule.cadence.value,
                weekday=s.rule.weekday,
                hour=s.rule.hour,
                minute=s.rule.minute,
                questions=s.questions,
                hours=s.hours,
                status=s.status.value,
                next_due=s.next_due,
                asked=json.dumps(sorted(s.asked)),
                seed=s.seed,
                created_by=s.created_by,
            ),
        )

    async def chat_schedules(self, chat_key: str) -> list[ScheduleRow]:
        rows = await self._fetch(
            f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE chat_key = :chat ORDER BY id", {"chat": chat_key}
        )
        return [_schedule(row) for row in rows]

    async def due_schedules(self, now: float) -> list[ScheduleRow]:
        rows = await self._fetch(
            f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE status = :status "
            "AND next_due <= :now ORDER BY next_due, id",
            {"status": ACTIVE, "now": now},
        )
        return [_schedule(row) for row in rows]

    async def next_schedule_due(self) -> float | None:
        rows = await self._fetch("SELECT MIN(next_due) FROM schedules WHERE status = :status", {"status": ACTIVE})
        return rows[0][0] if rows else None

    async def claim_schedule(self, schedule_id: int, due: float, next_due: float, asked: frozenset[str]) -> bool:
        """Move an active schedule from `due` to `next_due`; True for the one caller that did.

        The compare-and-set is the claim: engines sharing a database may all find the
        schedule due, and only the one whose update still sees `due` fires it.
        """
        changed = await self._change(
            "UPDATE schedules SET next_due = :next, asked = :asked WHERE id = :id AND next_due = :due "
            "AND status = :status",
            {"next": next_due, "asked": json.dumps(sorted(asked)), "id": schedule_id, "due": due, "status": ACTIVE},
        )
        return changed == 1

    async def set_schedule_status(self, schedule_id: int, status: ScheduleStatus) -> None:
        await self._change(
            "UPDATE schedules SET status = :status WHERE id = :id", {"status": status.value, "id": schedule_id}
        )

    async def pause_chat_schedules(self, chat_key: str) -> int:
        """Pause every active schedule of the chat (the platform refuses the bot there); how many."""
        return await self._change(
            "UPDATE schedules SET status = :paused WHERE chat_key = :chat AND status = :active",
            {"paused": ScheduleStatus.PAUSED.value, "chat": chat_key, "active": ACTIVE},
        )

    async def resume_schedule(self, schedule_id: int, next_due: float) -> bool:
        """Make a paused schedule active again, due at `next_due`; False if it was not paused."""
        return (
            await self._change(
                "UPDATE schedules SET status = :active, next_due = :next WHERE id = :id AND status = :paused",
                {"active": ACTIVE, "next": next_due, "id": schedule_id, "paused": ScheduleStatus.PAUSED.value},
            )
            == 1
        )

    async def remove_schedules(self, chat_key: str, schedule_id: int | None = None) -> int:
        """Delete one schedule of the chat (or all of them); how many went."""
        if schedule_id is None:
            return await self._change("DELETE FROM schedules WHERE chat_key = :chat", {"chat": chat_key})
        return await self._change(
            "DELETE FROM schedules WHERE chat_key = :chat AND id = :id", {"chat": chat_key, "id": schedule_id}
        )


def _schedule(row: tuple) -> ScheduleRow:
    (
        sid,
        _chat_key,
        platform,
        chat_id,
        is_private,
        quiz_id,
        cadence,
        weekday,
        hour,
        minute,
        questions,
        hours,
        status,
        next_due,
        asked,
        seed,
        created_by,
    ) = row
    return ScheduleRow(
        chat=ChatRef(platform, chat_id, bool(is_private)),
        quiz_id=quiz_id,
        rule=Rule(Cadence(cadence), hour, minute, weekday),
        next_due=next_due,
        seed=seed,
        created_by=created_by,
        questions=questions,
        hours=hours,
        status=ScheduleStatus(status),
        asked=frozenset(json.loads(asked)),
        id=sid,
    )


# A chat that changes its id (storage/sqlite/moves.py, storage/postgres/moves.py): its schedules follow it
# (its statistics: storage/shared/statistics.py). Parameters :old, :new and :chat_id.
MOVE_STATEMENTS: tuple[str, ...] = (
    "UPDATE schedules SET chat_key = :new, chat_id = :chat_id WHERE chat_key = :old",
    "UPDATE chats SET time_zone = (SELECT o.time_zone FROM chats o WHERE o.key = :old) "
    "WHERE key = :new AND time_zone IS NULL",
)
