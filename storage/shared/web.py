"""What the web pages keep: the secret their links are signed with, which chats show their
leaderboard publicly, and the list of a chat's runs.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters
(PostgreSQL's store numbers them, as for the boards). Each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

from typing import Any

from bot.domain.records import RunStatus, RunSummary

SECRET_NAME = "web_links"


class WebQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def web_secret(self, candidate: str) -> str:
        # the first process to store one wins; every later one (and every worker) reads it back
        await self._change(
            "INSERT INTO secrets(name, value) VALUES (:name, :value) ON CONFLICT (name) DO NOTHING",
            {"name": SECRET_NAME, "value": candidate},
        )
        rows = await self._fetch("SELECT value FROM secrets WHERE name = :name", {"name": SECRET_NAME})
        return str(rows[0][0])

    async def set_board_public(self, chat_key: str, public: bool) -> None:
        if public:
            await self._change(
                "INSERT INTO public_boards(chat_key) VALUES (:chat) ON CONFLICT (chat_key) DO NOTHING",
                {"chat": chat_key},
            )
        else:
            await self._change("DELETE FROM public_boards WHERE chat_key = :chat", {"chat": chat_key})

    async def board_public(self, chat_key: str) -> bool:
        return bool(await self._fetch("SELECT 1 FROM public_boards WHERE chat_key = :chat", {"chat": chat_key}))

    async def chat_runs(self, chat_key: str, limit: int = 50) -> list[RunSummary]:
        rows = await self._fetch(
            "SELECT id, quiz_id, started_at, status FROM runs WHERE chat_key = :chat "
            "ORDER BY started_at DESC, id DESC LIMIT :limit",
            {"chat": chat_key, "limit": limit},
        )
        return [RunSummary(int(r[0]), str(r[1]), float(r[2]), RunStatus(r[3])) for r in rows]
