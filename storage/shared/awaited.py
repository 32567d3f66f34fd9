"""What a player's next private message answers, after a typed question's "Answer" deep link
(bot/ports/store/runs.py AwaitedAnswers): one row per player, kept in the database so any
process on it takes the message. Plain SQL both databases read alike, with SQLite's `:name`
parameters (PostgreSQL's store numbers them); each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

from typing import Any

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


class AwaitedQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        raise NotImplementedError

    async def await_answer(self, player_key: str, run_id: int, number: int, now: float, until: float) -> None:
        await self._change("DELETE FROM awaited_answers WHERE expires_at <= :now", {"now": now})
        await self._change(
            "INSERT INTO awaited_answers(player_key, run_id, number, expires_at) "
            "VALUES (:player, :run, :number, :until) "
            "ON CONFLICT (player_key) DO UPDATE SET run_id = excluded.run_id, number = excluded.number, "
            "expires_at = excluded.expires_at",
            {"player": player_key, "run": run_id, "number": number, "until": until},
        )

    async def awaited_answer(self, player_key: str, now: float) -> tuple[int, int] | None:
        rows = await self._fetch(
            "SELECT run_id, number FROM awaited_answers WHERE player_key = :player AND expires_at > :now",
            {"player": player_key, "now": now},
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def forget_awaited_answer(self, player_key: str, run_id: int, number: int) -> bool:
        return (
            await self._change(
                "DELETE FROM awaited_answers WHERE player_key = :player AND run_id = :run AND number = :number",
                {"player": player_key, "run": run_id, "number": number},
            )
            > 0
        )
