"""Who runs which open run, when several workers share one PostgreSQL database.

Each open run has one owner at a time: `owner` (a worker id) and `lease_until`, set by the
database's clock so the workers' clocks never matter. The owner renews its leases every few
seconds; a run whose lease ran out (its worker died) or was let go (its worker stopped
cleanly) is claimed by a live worker with FOR UPDATE SKIP LOCKED, so two workers claiming at
once never take the same run and never wait for each other. Run states are written only by
their owner (storage/postgres/writer.py adds the owner to its UPDATE), so a worker that lost a run
and does not know it yet cannot overwrite what the new owner stored.

The outbox (messages owed to chats) is held the same way, so that two live workers never both
send a message and a dead worker's are sent by a live one: a message is held by the worker
that made it (storage/shared/outbox.py), moves with its run when the run is claimed, and once its run
has ended is renewed with that worker's leases; when they run out, a live worker claims it.
"""

from __future__ import annotations

import os
import socket

import asyncpg

from bot.domain.records import OutboxMessage
from storage.shared import outbox

LEASE_SECONDS = 15.0  # a dead worker's runs move to a live one within this (plus one renewal period)
CLAIM_LIMIT = 500  # runs claimed per round: a big takeover spreads over rounds and workers

_EXPIRES = "now() + make_interval(secs => $2)"

CLAIM = (  # the runs, and the messages they owe with them
    f"WITH free AS (SELECT id FROM runs WHERE status = 'open' "
    f"AND (lease_until IS NULL OR lease_until < now() OR owner = $1) "
    f"ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED), "
    f"claimed AS (UPDATE runs r SET owner = $1, lease_until = {_EXPIRES} FROM free WHERE r.id = free.id "
    f"RETURNING r.id, r.lease_until), "
    f"owed AS (UPDATE outbox o SET owner = $1, lease_until = c.lease_until FROM claimed c WHERE o.run_id = c.id) "
    f"SELECT id FROM claimed"
)
RENEW = (
    f"UPDATE runs SET lease_until = {_EXPIRES} WHERE id = ANY($3::bigint[]) AND owner = $1 "
    "AND status = 'open' RETURNING id"
)
RENEW_OUTBOX = f"UPDATE outbox SET lease_until = {_EXPIRES} WHERE owner = $1"
CLAIM_OUTBOX = (  # the messages of ended runs whose worker is gone; $4: this worker's own too
    f"WITH free AS (SELECT o.id FROM outbox o WHERE (o.lease_until IS NULL OR o.lease_until < now() "
    f"OR (o.owner = $1 AND $4)) AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = o.run_id AND r.status = 'open') "
    f"ORDER BY o.id LIMIT $3 FOR UPDATE OF o SKIP LOCKED) "
    f"UPDATE outbox o SET owner = $1, lease_until = {_EXPIRES} FROM free WHERE o.id = free.id "
    f"RETURNING o.id, {outbox.COLUMNS}"
)
RELEASE = "UPDATE runs SET lease_until = NULL WHERE owner = $1 AND status = 'open'"
RELEASE_OUTBOX = "UPDATE outbox SET lease_until = NULL WHERE owner = $1"


def worker_id(chosen: str = "") -> str:
    """This worker's name in the runs table: QUIZHOST_WORKER, else `host:pid`, unique while the
    process lives (two live workers never share a name: `quizhost run` holds it, presence.py).
    A worker restarted under its QUIZHOST_WORKER takes its own runs back at once (theirs are
    claimable whatever their lease); one named by default waits for its old leases to run out."""
    return chosen.strip() or f"{socket.gethostname()}:{os.getpid()}"


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


async def renew_outbox(pool: asyncpg.Pool, owner: str, seconds: float) -> None:
    """Extend our hold on every message we owe (our runs', and those of runs that ended here)."""
    await pool.execute(RENEW_OUTBOX, owner, seconds)


async def claim_outbox(
    pool: asyncpg.Pool, owner: str, seconds: float, own_too: bool, limit: int = CLAIM_LIMIT
) -> list[OutboxMessage]:
    """Take the messages of ended runs that nobody holds (their worker died or stopped), and
    with `own_too` ours from before a restart; oldest first."""
    rows = sorted(await pool.fetch(CLAIM_OUTBOX, owner, seconds, limit, own_too), key=lambda row: row["id"])
    return [outbox.message(tuple(row)[1:]) for row in rows]


async def release(pool: asyncpg.Pool, owner: str) -> None:
    """Let every open run of ours, and every message we owe, go at once (a clean stop):
    another worker claims them now."""
    await pool.execute(RELEASE, owner)
    await pool.execute(RELEASE_OUTBOX, owner)
