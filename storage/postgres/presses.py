"""Presses taken by a worker that does not run the quiz, checked against the database.

Any worker may take a press (behind a load balancer, a press lands anywhere). The owner of the
run keeps its state; another worker reads what it needs of the run in one query (`facts`: the
run row, this player's streak and answer, and how many earlier answerers are still to answer;
never the run's answer list), and stores the answer with one statement (`insert_if_asking`)
that checks the run's row under a share lock: the run open, that question asked, its stored
deadline not passed, one answer per player (the answers' key). Two round trips a press. The
owner, closing the question, first seals it (its deadline set to 0 under the row's lock, so no
other worker's press can land after) and then reads the question's stored answers, its own and
everyone else's: the reveal and the boards count each acknowledged press once. A stored press
may wake the owner (storage/postgres/wakeups.py): it may be the last answer the owner waits for.
"""

from __future__ import annotations

import time

import asyncpg

from bot.domain.records import AnswerRow, PressFacts
from storage.postgres.rows import RUN_COLUMNS, run_from_row
from storage.postgres.wakeups import CHANNEL
from storage.postgres.writer import ANSWER_COLUMNS, ANSWER_TYPES
from storage.shared.group_commit import answer_values
from storage.shared.tables import REPLACED_COLUMNS

# the run's known players are its earlier answerers and the members of the teams it adopted
_MEMBERS = "SELECT m.player_key FROM team_members m JOIN team_lineups l ON l.id = m.lineup_id WHERE l.run_id = r.id"
# $1 run id, $2 player key, $3 how far to count the unseen answerers
_FACTS = (
    f"SELECT {RUN_COLUMNS}, "
    "COALESCE((SELECT streak FROM answers WHERE run_id = r.id AND idx = r.idx - 1 AND player_key = $2), 0) AS streak, "
    "mine.option AS answered, mine.response, mine.answered_at, "
    f"EXISTS (SELECT 1 FROM answers WHERE run_id = r.id AND idx < r.idx) OR EXISTS ({_MEMBERS}) AS anyone_known, "
    "(SELECT count(*) FROM (SELECT k.player_key FROM (SELECT a.player_key FROM answers a "
    f"WHERE a.run_id = r.id AND a.idx < r.idx UNION {_MEMBERS}) k "
    "WHERE k.player_key <> $2 AND NOT EXISTS (SELECT 1 FROM answers b WHERE b.run_id = r.id AND b.idx = r.idx "
    "AND b.player_key = k.player_key) LIMIT $3) known) AS unseen "
    "FROM runs r JOIN chats c ON c.key = r.chat_key "
    # this player's answer to the open question, if any: one lookup of the answers' key
    "LEFT JOIN answers mine ON mine.run_id = r.id AND mine.idx = r.idx AND mine.player_key = $2 "
    "WHERE r.status = 'open' AND r.id = $1"
)
_N = len(ANSWER_COLUMNS)  # $1.. the answer's columns, then the player's, the time, whether to wake the owner
# one statement, so one transaction: the row's share lock is held until the answer is committed;
# the player's name is written only when it changed; the NOTIFY is delivered at the commit
_INSERT_ANY = (
    "WITH asking AS (SELECT id FROM runs WHERE id = $1 AND status = 'open' AND phase = 'asking' AND idx = $2 "
    "AND paused_left IS NULL "  # a hosted run's paused question takes no answer
    f"AND due > ${_N} FOR SHARE), "
    f"named AS (INSERT INTO players(key, platform, user_id, name, updated_at) "
    f"SELECT ${_N + 1}::text, ${_N + 2}::text, ${_N + 3}::text, ${_N + 4}::text, ${_N + 5}::float8 FROM asking "
    "ON CONFLICT (key) DO UPDATE "
    "SET name = excluded.name, updated_at = excluded.updated_at WHERE players.name IS DISTINCT FROM excluded.name), "
    f"stored AS (INSERT INTO answers({', '.join(ANSWER_COLUMNS)}) "
    f"SELECT {', '.join(f'${n}::{t}' for n, t in enumerate(ANSWER_TYPES, start=1))} FROM asking "
    "{on_conflict} RETURNING run_id) "
    "SELECT EXISTS (SELECT 1 FROM asking) AS asking, EXISTS (SELECT 1 FROM stored) AS stored, "
    f"CASE WHEN ${_N + 6}::boolean AND EXISTS (SELECT 1 FROM stored) "
    f"THEN (SELECT 1 FROM pg_notify('{CHANNEL}', $1::bigint::text)) END AS woken"
)
_INSERT = _INSERT_ANY.replace("{on_conflict}", "ON CONFLICT DO NOTHING")
# a toggle (select-all-that-apply) replaces the player's stored answer
_REPLACE = _INSERT_ANY.replace(
    "{on_conflict}",
    "ON CONFLICT (run_id, idx, player_key) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in REPLACED_COLUMNS),
)
_SEAL = "UPDATE runs SET due = 0 WHERE id = $1 AND idx = $2 AND phase = 'asking' AND owner = $3"
QUESTION_ANSWERS = (
    f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE run_id = $1 AND idx = $2 ORDER BY answered_at"
)


async def facts(pool: asyncpg.Pool, run_id: int, player_key: str, unseen_cap: int) -> PressFacts | None:
    row = await pool.fetchrow(_FACTS, run_id, player_key, unseen_cap)
    if row is None:
        return None
    return PressFacts(
        run_from_row(row),
        row["streak"],
        row["answered"],
        row["anyone_known"],
        row["unseen"],
        row["response"] or "",
        row["answered_at"] or 0.0,
    )


async def insert_if_asking(
    pool: asyncpg.Pool,
    answer: AnswerRow,
    player: tuple[str, str, str, str],
    wake_owner: bool = True,
    replace: bool = False,
) -> bool | None:
    """True stored, False this player had answered already, None the question is not open (any more).
    `replace`: a toggle, stored over the player's answer (never False).

    Only when asked does it wake the owner: each NOTIFY takes a database-wide lock at its
    commit, and most presses cannot complete a question."""
    statement = _REPLACE if replace else _INSERT
    row = await pool.fetchrow(statement, *answer_values(answer), *player, time.time(), wake_owner)
    assert row is not None
    if not row["asking"]:
        return None
    return bool(row["stored"])


async def question_answers(pool: asyncpg.Pool, run_id: int, index: int) -> list[AnswerRow]:
    return [AnswerRow.from_values(r) for r in await pool.fetch(QUESTION_ANSWERS, run_id, index)]


async def seal(pool: asyncpg.Pool, owner: str, run_id: int, index: int) -> list[AnswerRow]:
    """Close the question to other workers' presses, then read every stored answer to it."""
    async with pool.acquire() as conn:
        async with conn.transaction():  # waits for presses holding the row's share lock to commit
            await conn.execute(_SEAL, run_id, index, owner)
        rows = await conn.fetch(QUESTION_ANSWERS, run_id, index)
    return [AnswerRow.from_values(r) for r in rows]
