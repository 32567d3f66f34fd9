"""Who runs which open run, when several workers share one PostgreSQL database.

Each open run has one owner at a time: `owner` (a worker id) and `lease_until`, set by the
database's clock so the workers' clocks never matter. The owner renews its leases every few
seconds; a run whose lease ran out (its worker died) or was let go (its worker stopped
cleanly) is claimed by a live worker with FOR UPDATE SKIP LOCKED, so two workers claiming at
once never take the same run and never wait for each other. Run states are written only by
their owner (storage/pg_writer.py adds the owner to its UPDATE), so a worker that lost a run
and does not know it yet cannot overwrite what the new owner stored.
"""
from __future__ import annotations

import socket

import asyncpg

LEASE_SECONDS = 15.0  # a dead worker's runs move to a live one within this (plus one renewal period)
CLAIM_LIMIT = 500  # runs claimed per round: a big takeover spreads over rounds and workers

_EXPIRES = "now() + make_interval(secs => $2)"

CLAIM = (
    f"WITH free AS (SELECT id FROM runs WHERE status = 'open' "
    f"AND (lease_until IS NULL OR lease_until < now() OR owner = $1) "
    f"ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) "
    f"UPDATE runs r SET owner = $1, lease_until = {_EXPIRES} FROM free WHERE r.id = free.id RETURNING r.id"
)
RENEW = (f"UPDATE runs SET lease_until = {_EXPIRES} WHERE id = ANY($3::bigint[]) AND owner = $1 "
         "AND status = 'open' RETURNING id")
RELEASE = "UPDATE runs SET lease_until = NULL WHERE owner = $1 AND status = 'open'"


def worker_id(chosen: str = "") -> str:
    """This worker's name in the runs table: QUIZHOST_WORKER, else the host's name. The same
    after a restart, so a worker restarted on its machine takes its own runs back at once
    (theirs are claimable whatever their lease); several workers on one machine need
    QUIZHOST_WORKER each."""
    return chosen.strip() or socket.gethostname()


async def claim(pool: asyncpg.Pool, owner: str, seconds: float, limit: int = CLAIM_LIMIT) -> list[int]:
    """Take open runs nobody holds, and our own from before a restart; their ids, oldest first."""
    rows = await pool.fetch(CLAIM, owner, seconds, limit)
    return sorted(row["id"] for row in rows)


async def renew(pool: asyncpg.Pool, owner: str, seconds: float, run_ids: set[int]) -> set[int]:
    """Extend the leases still ours; the ids missing from the answer are ours no more."""
    if not run_ids:
        return set()
    rows = await pool.fetch(RENEW, owner, seconds, list(run_ids))
    return {row["id"] for row in rows}


async def release(pool: asyncpg.Pool, owner: str) -> None:
    """Let every open run of ours go at once (a clean stop): another worker claims it now."""
    await pool.execute(RELEASE, owner)
