"""Extra time (bot/domain/extra_time.py): the rules admins gave, shared by both stores.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters, as
storage/shared/teams.py. One row per chat, player and assignment (0: the chat's standing rule);
a rule set again replaces the last, "off" deletes it.
"""

from __future__ import annotations

from bot.domain.extra_time import EVERY_ASSIGNMENT, ExtraTime
from storage.shared.statements import Statements

# the migration of both stores ({real}: a float's type); written to run again, as teams.py's
TABLE = """
    CREATE TABLE IF NOT EXISTS extra_time (
        chat_key TEXT NOT NULL,
        player_key TEXT NOT NULL,
        assignment_id BIGINT NOT NULL DEFAULT 0,
        factor {real} NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (chat_key, player_key, assignment_id)
    );
"""

# a chat that changes its id (storage/*/moves.py): its members' extra time goes with it
MOVES = ("UPDATE extra_time SET chat_key = :new WHERE chat_key = :old",)


class ExtraTimeQueries(Statements):
    async def set_extra_time(self, rule: ExtraTime) -> None:
        args = {
            "chat": rule.chat_key,
            "player": rule.player_key,
            "id": rule.assignment_id,
            "factor": rule.factor,
            "name": rule.name,
        }
        if rule.factor == 1.0:
            await self._change(
                "DELETE FROM extra_time WHERE chat_key = :chat AND player_key = :player AND assignment_id = :id", args
            )
            return
        await self._change(
            "INSERT INTO extra_time(chat_key, player_key, assignment_id, factor, name) "
            "VALUES (:chat, :player, :id, :factor, :name) "
            "ON CONFLICT (chat_key, player_key, assignment_id) "
            "DO UPDATE SET factor = excluded.factor, name = excluded.name",
            args,
        )

    async def extra_times(self, chat_key: str, assignment_id: int = EVERY_ASSIGNMENT) -> list[ExtraTime]:
        rows = await self._fetch(
            "SELECT player_key, factor, name FROM extra_time WHERE chat_key = :chat AND assignment_id = :id "
            "ORDER BY player_key",
            {"chat": chat_key, "id": assignment_id},
        )
        return [ExtraTime(chat_key, player, float(factor), assignment_id, name) for player, factor, name in rows]

    async def player_extra_times(self, chat_key: str, player_key: str) -> list[ExtraTime]:
        rows = await self._fetch(
            "SELECT assignment_id, factor, name FROM extra_time WHERE chat_key = :chat AND player_key = :player "
            "ORDER BY assignment_id",
            {"chat": chat_key, "player": player_key},
        )
        return [ExtraTime(chat_key, player_key, float(factor), int(number), name) for number, factor, name in rows]
