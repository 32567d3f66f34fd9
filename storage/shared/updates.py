"""Which platform updates were taken already: Telegram's webhook is at-least-once, and behind a
load balancer a repeated update_id may reach any worker, so the database remembers the ids.

A claim is a lease: the row names its holder (the claiming process's life: a random number
on SQLite, on PostgreSQL the backend of the connection that holds its presence lock,
storage/postgres/presence.py) and `until`, CLAIM_SECONDS on. Handling done (the platform got
its answer), the claim is finished: `until` NULL, and the id is never taken again. An
unfinished claim is taken again by a repeat once its lease ran out or its holder is gone (a
worker killed while it held the update): the update is handled after all.

Claims are made in rounds, as answers are committed in groups (storage/shared/group_commit.py):
every id waiting when a round starts is claimed, and every finish waiting is made (first), in
one commit; the next round gathers while one is in flight (no timer: a lone update is
claimed at once). A commit per update had doubled a webhook press's cost.
Telegram repeats an update for at most a day, so ids older than KEEP_SECONDS are deleted:
every PRUNE_EVERY claims, and at the first round after a start. Each store supplies
`_insert_new` (a round: which ids it took) and `_change`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("quizhost.storage")

KEEP_SECONDS = 86_400.0  # Telegram keeps an unconfirmed update for 24 hours
PRUNE_EVERY = 1_000
CLAIM_SECONDS = 30.0  # an unfinished claim outlives no worker: past this, a repeat takes it

_TAKE_AGAIN = (  # an unfinished claim whose lease ran out, or whose holder is not {alive}
    "ON CONFLICT (update_id) DO UPDATE SET seen_at = excluded.seen_at, holder = excluded.holder, "
    "until = excluded.until WHERE seen_updates.until IS NOT NULL "
    "AND (seen_updates.until < excluded.seen_at OR NOT ({alive}))"
)
CLAIM_SQLITE = (  # SQLite's round: the ids as one JSON array (WHERE: its rule for an upsert after a
    # SELECT); one process per file, so a holder other than this store is gone
    "INSERT INTO seen_updates(update_id, seen_at, holder, until) SELECT value, ?, ?, ? FROM json_each(?) WHERE true "
    + _TAKE_AGAIN.format(alive="seen_updates.holder = excluded.holder")
    + " RETURNING update_id"
)
FINISH = "UPDATE seen_updates SET until = NULL WHERE update_id = ?"
_PRUNE = "DELETE FROM seen_updates WHERE seen_at < :before"

# the table, in each database's words: `key` an integer primary key, `time` a double
TABLE = """
    CREATE TABLE seen_updates (
        update_id {key} PRIMARY KEY,
        seen_at {time} NOT NULL
    );
    CREATE INDEX seen_updates_by_time ON seen_updates(seen_at);
"""
# who holds each claim and until when (NULL: finished; the rows before this were all handled)
HOLDERS = """
    ALTER TABLE seen_updates ADD COLUMN holder {key};
    ALTER TABLE seen_updates ADD COLUMN until {time};
"""


def claim_sql(alive: str) -> str:
    """PostgreSQL's claim of a round's ids in one statement; `alive`: SQL true while the holder
    of the row `seen_updates` lives. $1 the ids, $2 now, $3 this holder, $4 the lease's end."""
    return (
        "INSERT INTO seen_updates(update_id, seen_at, holder, until) SELECT unnest($1::bigint[]), $2, $3, $4 "
        + _TAKE_AGAIN.format(alive=alive)
        + " RETURNING update_id"
    )


class ClaimRounds:
    """Claims and finishes waiting for the next round, and the rounds themselves, one at a time."""

    def __init__(self, one_round: Callable[[list[int], float, list[int]], Awaitable[set[int]]]) -> None:
        self._round = one_round  # (ids to claim, now, ids to finish first) -> the ids taken
        self._waiting: dict[int, list[asyncio.Future[bool]]] = {}  # id -> its claims, the first may win
        self._finishing: dict[int, list[asyncio.Future[bool]]] = {}
        self._now = 0.0  # the latest `now` of the waiting claims: when the round's ids were seen
        self._task: asyncio.Task[None] | None = None

    async def claim(self, update_id: int, now: float) -> bool:
        self._now = max(self._now, now)
        return await self._wait(self._waiting, update_id)

    async def finish(self, update_id: int) -> None:
        await self._wait(self._finishing, update_id)

    def finish_soon(self, update_id: int) -> None:
        """`finish` in the next round with nobody waiting for it (a failure is logged there):
        a webhook press's answer need not wait for it, nor cost a task of its own."""
        self._finishing.setdefault(update_id, [])
        self._serving()

    async def _wait(self, into: dict[int, list[asyncio.Future[bool]]], update_id: int) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        into.setdefault(update_id, []).append(future)
        self._serving()
        return await future

    def _serving(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._serve())

    async def _serve(self) -> None:
        try:
            while self._waiting or self._finishing:
                (claims, self._waiting), (finishes, self._finishing) = (self._waiting, {}), (self._finishing, {})
                await self._one_round(claims, finishes, self._now)
        finally:
            self._task = None

    async def _one_round(self, claims: dict[int, list[asyncio.Future[bool]]], finishes: dict, now: float) -> None:
        try:
            new = await self._round(list(claims), now, list(finishes))
        except Exception as exc:  # each waiter raises it: the webhook handles those updates anyway
            if unwaited := [update_id for update_id, futures in finishes.items() if not futures]:
                # a repeat may then be handled again once its lease ran out
                log.warning("updates %s: could not record them as handled (%s)", unwaited, exc)
            for futures in (*claims.values(), *finishes.values()):
                for future in futures:
                    if not future.done():
                        future.set_exception(exc)
            return
        for futures in finishes.values():
            for future in futures:
                if not future.done():
                    future.set_result(True)
        for update_id, futures in claims.items():
            for nth, future in enumerate(futures):  # the same id twice in one round: the first takes it
                if not future.done():
                    future.set_result(nth == 0 and update_id in new)


class UpdateClaims:
    _claims: int = 0  # ids claimed by this store object: a round that reaches a PRUNE_EVERY-th prunes first
    _rounds: ClaimRounds | None = None
    _holder: int | None = None  # this process's life, in the claims it holds (SQLite's: set at first use)

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def _insert_new(self, update_ids: list[int], now: float, finished: list[int]) -> set[int]:
        """In one commit, mark `finished` done, then claim `update_ids` (new ones, and unfinished
        ones taken again); those taken."""
        raise NotImplementedError

    def _rounds_of(self) -> ClaimRounds:
        if self._rounds is None:
            self._rounds = ClaimRounds(self._claim_round)
        return self._rounds

    async def claim_update(self, update_id: int, now: float) -> bool:
        return await self._rounds_of().claim(update_id, now)

    async def finish_update(self, update_id: int) -> None:
        await self._rounds_of().finish(update_id)

    def finish_update_soon(self, update_id: int) -> None:
        self._rounds_of().finish_soon(update_id)

    async def claimed_elsewhere(self, update_id: int, now: float) -> bool:
        return False  # one process per database: a claim not ours is a dead process's, taken again

    def sqlite_holder(self) -> int:
        """A number for this store's life (a restarted bot's claims are not the dead one's)."""
        if self._holder is None:
            self._holder = random.randrange(1, 1 << 62)
        return self._holder

    async def _claim_round(self, update_ids: list[int], now: float, finished: list[int]) -> set[int]:
        first, self._claims = self._claims, self._claims + len(update_ids)
        if prune_due(first, self._claims):
            await self._change(_PRUNE, {"before": now - KEEP_SECONDS})
        return await self._insert_new(update_ids, now, finished)


def prune_due(before: int, after: int) -> bool:
    """Whether a round that takes the claims from count `before` to `after` prunes first: the
    first round of a store, and each that reaches a PRUNE_EVERY-th claim."""
    return after > before and (before % PRUNE_EVERY == 0 or before // PRUNE_EVERY != (after - 1) // PRUNE_EVERY)
