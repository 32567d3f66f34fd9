"""Quizzes written in the chat: each author's draft and the share codes of saved quizzes
(bot/ports/store/chats.py QuizDrafts). Plain SQL both databases read alike, with SQLite's
`:name` parameters (PostgreSQL's store numbers them); each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

from typing import Any

from bot.domain.records import DraftRow, QuizShare

# both databases' words (`time`: a double); IF NOT EXISTS: a test that puts a database back
# before an older migration runs this one again
DRAFT_TABLES = """
    CREATE TABLE IF NOT EXISTS quiz_drafts (
        owner_key TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        content TEXT NOT NULL,  -- the questions so far, as JSON
        replacing INTEGER NOT NULL DEFAULT 0,
        updated_at {time} NOT NULL
    );
    CREATE TABLE IF NOT EXISTS quiz_shares (
        code TEXT PRIMARY KEY,
        chat_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        UNIQUE (chat_key, quiz_id)
    );
"""


class DraftQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        raise NotImplementedError

    async def save_draft(self, draft: DraftRow) -> None:
        await self._change(
            "INSERT INTO quiz_drafts(owner_key, title, content, replacing, updated_at) "
            "VALUES (:owner, :title, :content, :replacing, :at) ON CONFLICT (owner_key) DO UPDATE SET "
            "title = excluded.title, content = excluded.content, replacing = excluded.replacing, "
            "updated_at = excluded.updated_at",
            {
                "owner": draft.owner_key,
                "title": draft.title,
                "content": draft.content,
                "replacing": draft.replacing,
                "at": draft.updated_at,
            },
        )

    async def draft(self, owner_key: str) -> DraftRow | None:
        rows = await self._fetch(
            "SELECT owner_key, title, content, replacing, updated_at FROM quiz_drafts WHERE owner_key = :owner",
            {"owner": owner_key},
        )
        return DraftRow(*rows[0]) if rows else None

    async def delete_draft(self, owner_key: str) -> bool:
        return await self._change("DELETE FROM quiz_drafts WHERE owner_key = :owner", {"owner": owner_key}) > 0

    async def share_quiz(self, share: QuizShare) -> QuizShare:
        args = {"code": share.code, "chat": share.chat_key, "quiz": share.quiz_id}
        await self._change(
            "INSERT INTO quiz_shares(code, chat_key, quiz_id) VALUES (:code, :chat, :quiz) ON CONFLICT DO NOTHING",
            args,
        )
        rows = await self._fetch(
            "SELECT code, chat_key, quiz_id FROM quiz_shares WHERE chat_key = :chat AND quiz_id = :quiz", args
        )
        return QuizShare(*rows[0])

    async def shared_quiz(self, code: str) -> QuizShare | None:
        rows = await self._fetch("SELECT code, chat_key, quiz_id FROM quiz_shares WHERE code = :code", {"code": code})
        return QuizShare(*rows[0]) if rows else None
