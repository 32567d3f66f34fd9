"""A chat that changes its id, on PostgreSQL: the same moves as storage/sqlite/moves.py, in one transaction."""

from __future__ import annotations

import re

import asyncpg

from storage.shared import ranks
from storage.shared.chat_settings import MOVED_COLUMNS
from storage.shared.drafts import DRAFT_MOVES
from storage.shared.extra_time import MOVES as EXTRA_TIME_MOVES
from storage.shared.learning import MOVE_STATEMENTS
from storage.shared.review import REVIEW_MOVE_STATEMENTS
from storage.shared.statistics import MOVE_STATEMENTS as STATISTICS_MOVES
from storage.shared.teams import MOVES as TEAM_MOVES
from storage.shared.web import REVOCATION_MOVES

_BOARD_SUMS = (
    "points = b.points + excluded.points, correct = b.correct + excluded.correct, "
    "answered = b.answered + excluded.answered, first_at = LEAST(b.first_at, excluded.first_at)"
)

STATEMENTS = (
    # the new chat row first: runs reference it
    f"INSERT INTO chats(key, platform, chat_id, {MOVED_COLUMNS}) SELECT $2, platform, $3, {MOVED_COLUMNS} "
    "FROM chats WHERE key = $1 ON CONFLICT (key) DO NOTHING",
    # a run already open in the new chat keeps it; the old chat's open run then stays behind
    "UPDATE runs SET chat_key = $2 WHERE chat_key = $1 AND NOT (status = 'open' AND EXISTS "
    "(SELECT 1 FROM runs o WHERE o.chat_key = $2 AND o.status = 'open'))",
    "UPDATE answers SET chat_key = $2 WHERE chat_key = $1",
    # the chat's own quizzes go too; one the new chat already has by that id stays its own
    "UPDATE chat_quizzes SET chat_key = $2 WHERE chat_key = $1 AND quiz_id NOT IN "
    "(SELECT quiz_id FROM chat_quizzes WHERE chat_key = $2)",
    "DELETE FROM chat_quizzes WHERE chat_key = $1",
    # a public leaderboard stays public
    "INSERT INTO public_boards(chat_key) SELECT $2 FROM public_boards WHERE chat_key = $1 ON CONFLICT DO NOTHING",
    "DELETE FROM public_boards WHERE chat_key = $1",
    "INSERT INTO board_days AS b(chat_key, day, player_key, quiz_id, points, correct, answered, first_at) "
    "SELECT $2, day, player_key, quiz_id, points, correct, answered, first_at FROM board_days "
    f"WHERE chat_key = $1 ON CONFLICT (chat_key, day, player_key, quiz_id) DO UPDATE SET {_BOARD_SUMS}",
    "INSERT INTO board_totals AS b(chat_key, player_key, quiz_id, points, correct, answered, first_at, "
    "best_streak) SELECT $2, player_key, quiz_id, points, correct, answered, first_at, best_streak "
    f"FROM board_totals WHERE chat_key = $1 ON CONFLICT (chat_key, player_key, quiz_id) DO UPDATE SET "
    f"{_BOARD_SUMS}, best_streak = GREATEST(b.best_streak, excluded.best_streak)",
    *(
        s.replace(":old", "$1").replace(":new", "$2").replace(":chat_id", "$3")
        for s in (
            *STATISTICS_MOVES,
            *MOVE_STATEMENTS,
            *REVIEW_MOVE_STATEMENTS,
            *REVOCATION_MOVES,
            *DRAFT_MOVES,
            *ranks.MOVES,
            *TEAM_MOVES,
            *EXTRA_TIME_MOVES,
        )
    ),
    "DELETE FROM board_days WHERE chat_key = $1",
    "DELETE FROM board_totals WHERE chat_key = $1",
    "DELETE FROM chats WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM runs WHERE chat_key = $1)",
)


async def move_chat(
    conn: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy, old_key: str, new_key: str, new_chat_id: str
) -> None:
    """All or nothing. Moving a chat twice changes nothing."""
    async with conn.transaction():
        for statement in STATEMENTS:
            used = max(int(n) for n in re.findall(r"\$(\d)", statement))  # asyncpg wants exactly those
            await conn.execute(statement, *(old_key, new_key, new_chat_id)[:used])
