"""Presses taken by a worker that does not run the quiz, checked against the database.

Any worker may take a press (behind a load balancer, a press lands anywhere). The owner of the
run keeps its state; another worker checks the press against the run's row, under a share
lock on that row, and commits the answer before the press is acknowledged: the run open, that
question asked, its deadline not passed, one answer per player (the answers' key). The owner,
closing the question, first seals it (its deadline set to 0 under the row's lock, so no other
worker's press can land after) and then reads the question's stored answers, its own and
everyone else's: the reveal and the boards count each acknowledged press once. A stored press
may wake the owner (storage/pg_wakeups.py): it may be the last answer the owner waits for.
"""
from __future__ import annotations

import time

import asyncpg

from bot.records import AnswerRow
from storage.pg_wakeups import NOTIFY
from storage.pg_writer import ANSWER_COLUMNS, UPSERT_PLAYER

_STILL_ASKING = ("SELECT 1 FROM runs WHERE id = $1 AND status = 'open' AND phase = 'asking' AND idx = $2 "
                 "AND due > $3 FOR SHARE")
_INSERT = (f"INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) VALUES "
           f"({', '.join(f'${n}' for n in range(1, len(ANSWER_COLUMNS) + 1))}) ON CONFLICT DO NOTHING RETURNING 1")
_SEAL = "UPDATE runs SET due = 0 WHERE id = $1 AND idx = $2 AND phase = 'asking' AND owner = $3"
QUESTION_ANSWERS = (f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE run_id = $1 AND idx = $2 "
                     "ORDER BY answered_at")


async def insert_if_asking(pool: asyncpg.Pool, answer: AnswerRow, player: tuple[str, str, str, str],
                           wake_owner: bool = True) -> bool | None:
    """True stored, False this player had answered already, None the question is not open (any more)."""
    a = answer
    async with pool.acquire() as conn, conn.transaction():
        if await conn.fetchval(_STILL_ASKING, a.run_id, a.index, a.answered_at) is None:
            return None
        await conn.execute(UPSERT_PLAYER, *player, time.time())
        landed = await conn.fetchval(_INSERT, a.run_id, a.index, a.question_id, a.player_key, a.chat_key, a.quiz_id,
                                     a.option, int(a.correct), a.elapsed, a.points, a.streak, a.answered_at)
        # delivered at the commit, so the owner reads a stored answer. Only when asked: each NOTIFY
        # takes a database-wide lock at its commit, and most presses cannot complete a question
        if landed is not None and wake_owner:
            await conn.execute(NOTIFY, a.run_id)
    return landed is not None


async def question_answers(pool: asyncpg.Pool, run_id: int, index: int) -> list[AnswerRow]:
    return [AnswerRow.from_values(r) for r in await pool.fetch(QUESTION_ANSWERS, run_id, index)]


async def seal(pool: asyncpg.Pool, owner: str, run_id: int, index: int) -> list[AnswerRow]:
    """Close the question to other workers' presses, then read every stored answer to it."""
    async with pool.acquire() as conn:
        async with conn.transaction():  # waits for presses holding the row's share lock to commit
            await conn.execute(_SEAL, run_id, index, owner)
        rows = await conn.fetch(QUESTION_ANSWERS, run_id, index)
    return [AnswerRow.from_values(r) for r in rows]
