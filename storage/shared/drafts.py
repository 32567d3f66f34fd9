"""Quizzes written in the chat: each author's draft, the share codes of saved quizzes, and the
questions members suggest to a group (bot/ports/store/chats.py QuizDrafts, SuggestionRecords).
Plain SQL both databases read alike, with SQLite's
`:name` parameters (PostgreSQL's store numbers them); each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

from typing import Any

from bot.domain.records import DraftRow, QuizShare, Suggestion, SuggestionStatus

# both databases' words (`time`: a double); IF NOT EXISTS: a test that puts a database back
# before an older migration runs this one again
DRAFT_TABLES = """
    CREATE TABLE IF NOT EXISTS quiz_drafts (
        owner_key TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        content TEXT NOT NULL,  -- the questions so far, as JSON
        replacing INTEGER NOT NULL DEFAULT 0,
        updated_at {time} NOT NULL,
        target TEXT NOT NULL DEFAULT ''  -- a group's chat key: a suggestion to it is being written
    );
    CREATE TABLE IF NOT EXISTS quiz_shares (
        code TEXT PRIMARY KEY,
        chat_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        UNIQUE (chat_key, quiz_id)
    );
    CREATE TABLE IF NOT EXISTS suggestions (
        chat_key TEXT NOT NULL,
        number INTEGER NOT NULL,  -- the group's own numbering
        player_key TEXT NOT NULL,
        player_name TEXT NOT NULL,
        content TEXT NOT NULL,  -- the question, as JSON
        created_at {time} NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        PRIMARY KEY (chat_key, number)
    );
    CREATE INDEX IF NOT EXISTS suggestions_by_player ON suggestions(chat_key, player_key, created_at);
"""
# a chat that changes its id (a Telegram group made a supergroup) keeps its suggestions (when the new
# id has none yet), its quizzes' share codes, and the drafts suggesting to it (storage/*/moves.py)
DRAFT_MOVES = (
    "UPDATE suggestions SET chat_key = :new WHERE chat_key = :old "
    "AND NOT EXISTS (SELECT 1 FROM suggestions s WHERE s.chat_key = :new)",
    "UPDATE quiz_shares SET chat_key = :new WHERE chat_key = :old "
    "AND quiz_id NOT IN (SELECT q.quiz_id FROM quiz_shares q WHERE q.chat_key = :new)",
    "UPDATE quiz_drafts SET target = :new WHERE target = :old",
)
_DRAFT = "owner_key, title, content, replacing, updated_at, target"
_SUGGESTION = "chat_key, number, player_key, player_name, content, created_at, status"


class DraftQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        raise NotImplementedError

    async def save_draft(self, draft: DraftRow) -> None:
        await self._change(
            f"INSERT INTO quiz_drafts({_DRAFT}) "
            "VALUES (:owner, :title, :content, :replacing, :at, :target) ON CONFLICT (owner_key) DO UPDATE SET "
            "title = excluded.title, content = excluded.content, replacing = excluded.replacing, "
            "updated_at = excluded.updated_at, target = excluded.target",
            _values(draft),
        )

    async def change_draft(self, draft: DraftRow, before: DraftRow | None) -> bool:
        values = _values(draft)
        if before is None:
            sql = (
                f"INSERT INTO quiz_drafts({_DRAFT}) VALUES (:owner, :title, :content, :replacing, :at, :target) "
                "ON CONFLICT (owner_key) DO NOTHING"
            )
            return await self._change(sql, values) == 1
        was = {
            "was_title": before.title,
            "was_content": before.content,
            "was_replacing": before.replacing,
            "was_at": before.updated_at,
            "was_target": before.target,
        }
        sql = (
            "UPDATE quiz_drafts SET title = :title, content = :content, replacing = :replacing, "
            "updated_at = :at, target = :target WHERE owner_key = :owner AND title = :was_title "
            "AND content = :was_content AND replacing = :was_replacing AND updated_at = :was_at "
            "AND target = :was_target"
        )
        return await self._change(sql, values | was) == 1

    async def draft(self, owner_key: str) -> DraftRow | None:
        rows = await self._fetch(
            f"SELECT {_DRAFT} FROM quiz_drafts WHERE owner_key = :owner",
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

    # suggestions ------------------------------------------------------------------------

    async def add_suggestion(self, suggestion: Suggestion) -> int:
        args = {
            "chat": suggestion.chat_key,
            "player": suggestion.player_key,
            "name": suggestion.player_name,
            "content": suggestion.content,
            "at": suggestion.created_at,
        }
        # numbered in the statement itself: one writer at a time on SQLite, the key refuses a twin on PostgreSQL
        await self._change(
            f"INSERT INTO suggestions({_SUGGESTION}) SELECT :chat, COALESCE(MAX(number), 0) + 1, :player, :name, "
            ":content, :at, 'open' FROM suggestions WHERE chat_key = :chat",
            args,
        )
        rows = await self._fetch(
            "SELECT MAX(number) FROM suggestions WHERE chat_key = :chat AND player_key = :player AND created_at = :at",
            args,
        )
        return int(rows[0][0])

    async def suggestion(self, chat_key: str, number: int) -> Suggestion | None:
        rows = await self._fetch(
            f"SELECT {_SUGGESTION} FROM suggestions WHERE chat_key = :chat AND number = :number",
            {"chat": chat_key, "number": number},
        )
        return _suggestion(rows[0]) if rows else None

    async def open_suggestions(self, chat_key: str) -> list[Suggestion]:
        rows = await self._fetch(
            f"SELECT {_SUGGESTION} FROM suggestions WHERE chat_key = :chat AND status = 'open' ORDER BY number",
            {"chat": chat_key},
        )
        return [_suggestion(row) for row in rows]

    async def decide_suggestion(self, chat_key: str, number: int, status: SuggestionStatus, content: str) -> bool:
        changed = await self._change(
            "UPDATE suggestions SET status = :status, content = :content "
            "WHERE chat_key = :chat AND number = :number AND status = 'open'",
            {"chat": chat_key, "number": number, "status": status.value, "content": content},
        )
        return changed > 0

    async def suggested_since(self, chat_key: str, player_key: str, since: float) -> int:
        rows = await self._fetch(
            "SELECT COUNT(*) FROM suggestions WHERE chat_key = :chat AND player_key = :player AND created_at >= :since",
            {"chat": chat_key, "player": player_key, "since": since},
        )
        return int(rows[0][0])


def _suggestion(row: tuple) -> Suggestion:
    chat_key, number, player_key, name, content, created_at, status = row
    return Suggestion(chat_key, int(number), player_key, name, content, float(created_at), SuggestionStatus(status))


def _values(draft: DraftRow) -> dict[str, Any]:
    """A draft's row as the named parameters of its INSERT."""
    return {
        "owner": draft.owner_key,
        "title": draft.title,
        "content": draft.content,
        "replacing": draft.replacing,
        "at": draft.updated_at,
        "target": draft.target,
    }
