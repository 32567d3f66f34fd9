"""PostgreSQL's claims of webhook updates (storage/shared/updates.py): a claim names the
backend pid of its worker's presence connection (storage/postgres/presence.py), so a repeat
takes it again at once when that worker is gone."""

from __future__ import annotations

import asyncpg

from storage.postgres.presence import ALIVE, Presence
from storage.shared.updates import CLAIM_SECONDS, claim_sql

FINISH = "UPDATE seen_updates SET until = NULL WHERE update_id = ANY($1::bigint[])"
# a round's finishes ($5) and claims in one statement (when no id is in both)
CLAIM = "WITH finished AS (UPDATE seen_updates SET until = NULL WHERE update_id = ANY($5::bigint[])) " + claim_sql(
    ALIVE.format(holder="seen_updates.holder")
)
ELSEWHERE = (
    "SELECT EXISTS (SELECT 1 FROM seen_updates s WHERE update_id = $1 AND until >= $2 AND holder <> $3 AND "
    + ALIVE.format(holder="s.holder")
    + ")"
)


async def claim_round(
    pool: asyncpg.Pool, presence: Presence, update_ids: list[int], now: float, finished: list[int]
) -> set[int]:
    """Finish `finished`, then claim `update_ids`: those taken."""
    if finished and (not update_ids or not set(finished).isdisjoint(update_ids)):
        await pool.execute(FINISH, finished)  # first: one statement may not change a row twice
        finished = []
    if not update_ids:
        return set()
    holder = await presence.holder()
    return {row[0] for row in await pool.fetch(CLAIM, update_ids, now, holder, now + CLAIM_SECONDS, finished)}


async def claimed_elsewhere(pool: asyncpg.Pool, presence: Presence, update_id: int, now: float) -> bool:
    return bool(await pool.fetchval(ELSEWHERE, update_id, now, await presence.holder()))
