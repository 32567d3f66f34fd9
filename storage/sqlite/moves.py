"""A chat that changes its id: Telegram gives a group upgraded to a supergroup a new one.

Its settings, runs, answers and boards move to the new key in one transaction, so the
leaderboard and a quiz in progress carry on where the group left them.
"""

from __future__ import annotations

from storage.shared import ranks
from storage.shared.chat_settings import MOVED_COLUMNS
from storage.shared.drafts import DRAFT_MOVES
from storage.shared.extra_time import MOVES as EXTRA_TIME_MOVES
from storage.shared.learning import MOVE_STATEMENTS
from storage.shared.review import REVIEW_MOVE_STATEMENTS
from storage.shared.statistics import MOVE_STATEMENTS as STATISTICS_MOVES
from storage.shared.teams import MOVES as TEAM_MOVES
from storage.shared.web import REVOCATION_MOVES
from storage.sqlite.connection import SqliteConnection

_BOARD_SUMS = (
    "points = points + excluded.points, correct = correct + excluded.correct, "
    "answered = answered + excluded.answered, first_at = MIN(first_at, excluded.first_at)"
)


async def move_chat(db: SqliteConnection, old_key: str, new_key: str, new_chat_id: str) -> None:
    """One transaction: all or nothing. Moving a chat twice changes nothing."""
    async with db.transaction() as (conn, _):
        # the new chat row first: runs reference it (foreign keys are on)
        await conn.execute(
            f"INSERT OR IGNORE INTO chats(key, platform, chat_id, {MOVED_COLUMNS}) "
            f"SELECT ?, platform, ?, {MOVED_COLUMNS} FROM chats WHERE key = ?",
            (new_key, new_chat_id, old_key),
        )
        # a run already open in the new chat keeps it; the old chat's open run then stays behind
        await conn.execute("UPDATE OR IGNORE runs SET chat_key = ? WHERE chat_key = ?", (new_key, old_key))
        await conn.execute("UPDATE answers SET chat_key = ? WHERE chat_key = ?", (new_key, old_key))
        # the chat's own quizzes go too; one the new chat already has by that id stays its own
        await conn.execute("UPDATE OR IGNORE chat_quizzes SET chat_key = ? WHERE chat_key = ?", (new_key, old_key))
        await conn.execute("DELETE FROM chat_quizzes WHERE chat_key = ?", (old_key,))
        await conn.execute("UPDATE OR IGNORE public_boards SET chat_key = ? WHERE chat_key = ?", (new_key, old_key))
        await conn.execute("DELETE FROM public_boards WHERE chat_key = ?", (old_key,))
        await conn.execute(
            "INSERT INTO board_days(chat_key, day, player_key, quiz_id, points, correct, answered, first_at) "
            "SELECT ?, day, player_key, quiz_id, points, correct, answered, first_at FROM board_days "
            f"WHERE chat_key = ? AND true ON CONFLICT DO UPDATE SET {_BOARD_SUMS}",
            (new_key, old_key),
        )
        await conn.execute(
            "INSERT INTO board_totals(chat_key, player_key, quiz_id, points, correct, answered, first_at, "
            "best_streak) SELECT ?, player_key, quiz_id, points, correct, answered, first_at, best_streak "
            f"FROM board_totals WHERE chat_key = ? AND true ON CONFLICT DO UPDATE SET {_BOARD_SUMS}, "
            "best_streak = MAX(best_streak, excluded.best_streak)",
            (new_key, old_key),
        )
        # statistics, schedules, time zone, review cards, revoked links, suggestions and share codes
        for statement in (
            *STATISTICS_MOVES,
            *MOVE_STATEMENTS,
            *REVIEW_MOVE_STATEMENTS,
            *REVOCATION_MOVES,
            *DRAFT_MOVES,
            *ranks.MOVES,
            *TEAM_MOVES,
            *EXTRA_TIME_MOVES,
        ):
            await conn.execute(statement, {"old": old_key, "new": new_key, "chat_id": new_chat_id})
        await conn.execute("DELETE FROM board_days WHERE chat_key = ?", (old_key,))
        await conn.execute("DELETE FROM board_totals WHERE chat_key = ?", (old_key,))
        if not await conn.execute_fetchall("SELECT 1 FROM runs WHERE chat_key = ? LIMIT 1", (old_key,)):
            await conn.execute("DELETE FROM chats WHERE key = ?", (old_key,))
