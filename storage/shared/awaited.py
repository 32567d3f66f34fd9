"""What a player's next private message answers, after a typed question's "Answer" deep link
(bot/ports/store/runs.py AwaitedAnswers): a row per player and run, kept in the database so any
process on it takes the message. Plain SQL both databases read alike, with SQLite's `:name`
parameters (PostgreSQL's store numbers them); each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

from typing import Any

from bot.domain.records import AwaitedAnswer

# both databases' words (`id`: a run's id, `time`: a double); IF NOT EXISTS: a test that puts
# a database back before an older migration runs this one again
TABLE = """
    CREATE TABLE IF NOT EXISTS awaited_answers (
        player_key TEXT PRIMARY KEY,
        run_id {id} NOT NULL,
        number INTEGER NOT NULL,
        expires_at {time} NOT NULL
    );
    CREATE INDEX IF NOT EXISTS awaited_answers_by_expiry ON awaited_answers(expires_at);
"""
# A player who opened two groups' questions has two to answer: a row per player and run, the
# group named so the player can be told where their answer went. The rows of the table before
# came from links without a proof, which no longer count: they go with it.
BY_RUN = """
    DROP TABLE IF EXISTS awaited_answers;
    CREATE TABLE awaited_answers (
        player_key TEXT NOT NULL,
        run_id {id} NOT NULL,
        number INTEGER NOT NULL,
        chat_key TEXT NOT NULL,
        opened_at {time} NOT NULL,
        expires_at {time} NOT NULL,
        PRIMARY KEY (player_key, run_id)
    );
    CREATE INDEX awaited_answers_by_expiry ON awaited_answers(expires_at);
"""


class AwaitedQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        raise NotImplementedError

    async def await_answer(self, awaited: AwaitedAnswer, now: float, until: float) -> None:
        await self._change("DELETE FROM awaited_answers WHERE expires_at <= :now", {"now": now})
        await self._change(
            "INSERT INTO awaited_answers(player_key, run_id, number, chat_key, opened_at, expires_at) "
            "VALUES (:player, :run, :number, :chat, :now, :until) "
            "ON CONFLICT (player_key, run_id) DO UPDATE SET number = excluded.number, "
            "chat_key = excluded.chat_key, opened_at = excluded.opened_at, expires_at = excluded.expires_at",
            {
                "player": awaited.player_key,
                "run": awaited.run_id,
                "number": awaited.number,
                "chat": awaited.chat_key,
                "now": now,
                "until": until,
            },
        )

    async def awaited_answer(self, player_key: str, now: float) -> AwaitedAnswer | None:
        rows = await self._fetch(
            "SELECT run_id, number, chat_key FROM awaited_answers WHERE player_key = :player AND expires_at > :now "
            "ORDER BY opened_at DESC, run_id DESC LIMIT 1",
            {"player": player_key, "now": now},
        )
        return AwaitedAnswer(player_key, int(rows[0][0]), int(rows[0][1]), str(rows[0][2])) if rows else None

    async def forget_awaited_answer(self, player_key: str, run_id: int, number: int) -> bool:
        return (
            await self._change(
                "DELETE FROM awaited_answers WHERE player_key = :player AND run_id = :run AND number = :number",
                {"player": player_key, "run": run_id, "number": number},
            )
            > 0
        )
