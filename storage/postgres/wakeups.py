"""Wake-ups between workers on one PostgreSQL database: LISTEN/NOTIFY on channel `quizhost_run`.

A worker that takes a press or a /stop for a run another worker owns writes it to the tables
and, in the same transaction, notifies the run's id: PostgreSQL delivers it at the commit, so
the owner never wakes before the fact is there to read. A notification carries no state and
is lost when nobody listens (the owner's listener reconnecting), so the owner also re-reads
on its lease renewal tick (bot/engine/workers.py). asyncpg resets pooled connections, which would
end their LISTEN: the listener has a connection of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import asyncpg

from storage.dburl import scrub

log = logging.getLogger("quizhost.storage")

CHANNEL = "quizhost_run"
APPLICATION = "quizhost-wakeups"  # the listener's name in pg_stat_activity, for an operator
CONNECT_SECONDS = 10.0
PROBE_SECONDS = 5.0  # a connection that died without a word (a cable, a firewall) is noticed within this
RECONNECT_FIRST = 0.5  # after a lost connection, connect again after this, doubling...
RECONNECT_MOST = 10.0  # ...up to this

NOTIFY = f"SELECT pg_notify('{CHANNEL}', $1::bigint::text)"
REQUEST_STOP = "UPDATE runs SET stop_by = $2 WHERE id = $1 AND status = 'open' RETURNING id"
STOPS_REQUESTED = "SELECT id FROM runs WHERE id = ANY($1::bigint[]) AND status = 'open' AND stop_by IS NOT NULL"

REQUEST_HOST = (
    "INSERT INTO host_requests(run_id, action, by_key) SELECT id, $2, $3 FROM runs "
    "WHERE id = $1 AND status = 'open' AND host_key = $3 RETURNING run_id"
)
TAKE_HOST_REQUESTS = "DELETE FROM host_requests WHERE run_id = ANY($1::bigint[]) RETURNING id, run_id, action, by_key"

Woken = Callable[[int | None], None]


async def request_stop(pool: asyncpg.Pool, run_id: int, by: str) -> bool:
    """Mark the open run to be stopped by its owner and wake it; False when it is not open."""
    async with pool.acquire() as conn, conn.transaction():
        if await conn.fetchval(REQUEST_STOP, run_id, by) is None:
            return False
        await conn.execute(NOTIFY, run_id)
    return True


async def stops_requested(pool: asyncpg.Pool, run_ids: set[int]) -> set[int]:
    if not run_ids:
        return set()
    return {row["id"] for row in await pool.fetch(STOPS_REQUESTED, list(run_ids))}


async def request_host(pool: asyncpg.Pool, run_id: int, action: str, by: str) -> bool:
    """Store a host's action for the open run's owner and wake it; False when it is not open,
    or `by` is not its host."""
    async with pool.acquire() as conn, conn.transaction():
        if await conn.fetchval(REQUEST_HOST, run_id, action, by) is None:
            return False
        await conn.execute(NOTIFY, run_id)
    return True


async def take_host_requests(pool: asyncpg.Pool, run_ids: set[int]) -> list[tuple[int, str, str]]:
    """The host actions stored for these runs, oldest first, taken (deleted) as they are read."""
    if not run_ids:
        return []
    rows = sorted(await pool.fetch(TAKE_HOST_REQUESTS, list(run_ids)), key=lambda r: r["id"])
    return [(row["run_id"], row["action"], row["by_key"]) for row in rows]


async def listen(url: str, woken: Woken) -> None:
    """Until cancelled: `woken(run_id)` for every notification, and `woken(None)` after each
    (re)connect, when notifications may have been missed. A lost connection is made again."""
    await listen_on(
        url, CHANNEL, APPLICATION, lambda payload: woken(None) if payload is None else _wake(woken, payload)
    )


async def listen_on(url: str, channel: str, application: str, heard: Callable[[str | None], None]) -> None:
    """Until cancelled, on a connection of its own: `heard(payload)` for every notification on
    `channel`, and `heard(None)` after each (re)connect, when notifications may have been missed.
    A lost connection is made again (the big screen's events listen so too: storage/postgres/live.py)."""
    delay = RECONNECT_FIRST
    while True:
        try:
            conn = await asyncpg.connect(
                url, timeout=CONNECT_SECONDS, server_settings={"application_name": application}
            )
        except Exception as error:  # the database away: the renewal tick still finds stops
            log.warning("%s: cannot connect (%s); trying again in %.1f s", channel, scrub(str(error), url), delay)
        else:
            delay = RECONNECT_FIRST
            try:
                await _until_lost(conn, channel, heard)
            except Exception as error:
                log.warning(
                    "%s: the listening connection was lost (%s); connecting again", channel, scrub(str(error), url)
                )
            finally:
                conn.terminate()  # gone already, or half-open: nothing to say goodbye to
        await asyncio.sleep(delay)
        delay = min(delay * 2, RECONNECT_MOST)


async def _until_lost(conn: asyncpg.Connection, channel: str, heard: Callable[[str | None], None]) -> None:
    lost = asyncio.Event()
    conn.add_termination_listener(lambda _conn: lost.set())
    await conn.add_listener(channel, lambda _conn, _pid, _channel, payload: heard(str(payload)))
    log.info("listening on %s", channel)
    heard(None)
    while not lost.is_set():
        try:
            await asyncio.wait_for(lost.wait(), PROBE_SECONDS)
        except TimeoutError:
            await conn.execute("SELECT 1")  # raises when the connection is dead
    raise ConnectionError("the server closed the connection")


def _wake(woken: Woken, payload: object) -> None:
    try:
        run_id = int(str(payload))
    except ValueError:  # not ours: anyone on the database may notify this channel
        log.warning("wake-ups: ignored a notification %r", str(payload)[:40])
        return
    woken(run_id)
