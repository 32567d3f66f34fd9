"""Review decks and schedules: the queries, shared by both stores (statistics: storage/stat_queries.py).

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters
(PostgreSQL's store numbers them, as for the boards). Each store supplies the three ways
to run a statement (`_fetch`, `_change`, `_insert_id`); the summary tables are kept by
each schema's triggers (storage/schema.py, storage/pg_schema.py).
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.leitner import ReviewCard
from bot.model import ChatRef
from bot.schedule import Cadence, Rule, ScheduleRow, ScheduleStatus

ACTIVE = ScheduleStatus.ACTIVE.value
_SCHEDULE_COLUMNS = ("id, chat_key, platform, chat_id, is_private, quiz_id, cadence, weekday, hour, minute, "
                     "questions, hours, status, next_due, asked, seed, created_by")


class LearningQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def _insert_id(self, sql: str, args: dict[str, Any]) -> int:
        """Run an INSERT of one row; its new `id`."""
        raise NotImplementedError

    # review decks ------------------------------------------------------------------------

    async def put_review_cards(self, cards: Iterable[ReviewCard]) -> None:
        """Store cards as given (a new card, or an existing one's new box and due time)."""
        args: dict[str, Any] = {}
        for i, c in enumerate(cards):
            args.update({f"p{i}": c.player_key, f"q{i}": c.quiz_id, f"k{i}": c.question_id, f"b{i}": c.box,
                         f"d{i}": c.due})
        if not args:
            return
        values = ", ".join(f"(:p{i}, :q{i}, :k{i}, :b{i}, :d{i})" for i in range(len(args) // 5))
        await self._change(
            f"INSERT INTO review_cards(player_key, quiz_id, question_id, box, due) VALUES {values} "
            "ON CONFLICT (player_key, quiz_id, question_id) DO UPDATE SET box = excluded.box, due = excluded.due",
            args)

    async def review_deck(self, player_key: str) -> list[ReviewCard]:
        rows = await self._fetch("SELECT player_key, quiz_id, question_id, box, due FROM review_cards "
                                 "WHERE player_key = :player ORDER BY due, quiz_id, question_id",
                                 {"player": player_key})
        return [ReviewCard(*row) for row in rows]

    async def remove_review_card(self, player_key: str, quiz_id: str, question_id: str) -> None:
        await self._change("DELETE FROM review_cards WHERE player_key = :player AND quiz_id = :quiz "
                           "AND question_id = :question",
                           {"player": player_key, "quiz": quiz_id, "question": question_id})

    # schedules ---------------------------------------------------------------------------

    async def add_schedule(self, s: ScheduleRow) -> int:
        columns = _SCHEDULE_COLUMNS.removeprefix("id, ")
        values = ", ".join(f":{name.strip()}" for name in columns.split(","))
        return await self._insert_id(f"INSERT INTO schedules({columns}) VALUES ({values})", dict(
            chat_key=s.chat.key, platform=s.chat.platform, chat_id=s.chat.chat_id, is_private=int(s.chat.is_private),
            quiz_id=s.quiz_id, cadence=s.rule.cadence.value, weekday=s.rule.weekday, hour=s.rule.hour,
            minute=s.rule.minute, questions=s.questions, hours=s.hours, status=s.status.value, next_due=s.next_due,
            asked=json.dumps(sorted(s.asked)), seed=s.seed, created_by=s.created_by))

    async def chat_schedules(self, chat_key: str) -> list[ScheduleRow]:
        rows = await self._fetch(f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE chat_key = :chat ORDER BY id",
                                 {"chat": chat_key})
        return [_schedule(row) for row in rows]

    async def due_schedules(self, now: float) -> list[ScheduleRow]:
        rows = await self._fetch(f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE status = :status "
                                 "AND next_due <= :now ORDER BY next_due, id", {"status": ACTIVE, "now": now})
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
            {"next": next_due, "asked": json.dumps(sorted(asked)), "id": schedule_id, "due": due, "status": ACTIVE})
        return changed == 1

    async def set_schedule_status(self, schedule_id: int, status: ScheduleStatus) -> None:
        await self._change("UPDATE schedules SET status = :status WHERE id = :id",
                           {"status": status.value, "id": schedule_id})

    async def remove_schedules(self, chat_key: str, schedule_id: int | None = None) -> int:
        """Delete one schedule of the chat (or all of them); how many went."""
        if schedule_id is None:
            return await self._change("DELETE FROM schedules WHERE chat_key = :chat", {"chat": chat_key})
        return await self._change("DELETE FROM schedules WHERE chat_key = :chat AND id = :id",
                                  {"chat": chat_key, "id": schedule_id})


def _schedule(row: tuple) -> ScheduleRow:
    (sid, _chat_key, platform, chat_id, is_private, quiz_id, cadence, weekday, hour, minute, questions, hours,
     status, next_due, asked, seed, created_by) = row
    return ScheduleRow(
        chat=ChatRef(platform, chat_id, bool(is_private)), quiz_id=quiz_id,
        rule=Rule(Cadence(cadence), hour, minute, weekday), next_due=next_due, seed=seed, created_by=created_by,
        questions=questions, hours=hours, status=ScheduleStatus(status), asked=frozenset(json.loads(asked)), id=sid)


# A chat that changes its id (storage/moves.py, storage/pg_moves.py): its schedules follow it
# (its statistics: storage/stat_queries.py). Parameters :old, :new and :chat_id.
MOVE_STATEMENTS: tuple[str, ...] = (
    "UPDATE schedules SET chat_key = :new, chat_id = :chat_id WHERE chat_key = :old",
    "UPDATE chats SET time_zone = (SELECT o.time_zone FROM chats o WHERE o.key = :old) "
    "WHERE key = :new AND time_zone IS NULL",
)
