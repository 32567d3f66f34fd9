"""Which platform updates were taken already: Telegram's webhook is at-least-once, and behind a
load balancer a repeated update_id may reach any worker, so the database remembers the ids.

Claims are made in rounds, as answers are committed in groups (storage/shared/group_commit.py): every
id waiting when a round starts is inserted by one statement and one commit, and the next round
gathers while one is in flight (no timer: a lone update is claimed at once). A commit per
update had doubled a webhook press's cost. Telegram repeats an update for at most a day, so
ids older than KEEP_SECONDS are deleted: every PRUNE_EVERY claims, and at the first round after
a start. Each store supplies `_claim_round` (which ids of a round were new) and `_change`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

KEEP_SECONDS = 86_400.0  # Telegram keeps an unconfirmed update for 24 hours
PRUNE_EVERY = 1_000

CLAIM_MANY = (
    "INSERT INTO seen_updates(update_id, seen_at) SELECT unnest($1::bigint[]), $2 "
    "ON CONFLICT (update_id) DO NOTHING RETURNING update_id"
)  # PostgreSQL's one statement
CLAIM_MANY_SQLITE = (  # SQLite's: the ids as one JSON array; WHERE: its rule for an upsert after a SELECT
    "INSERT INTO seen_updates(update_id, seen_at) SELECT value, ? FROM json_each(?) WHERE true "
    "ON CONFLICT (update_id) DO NOTHING RETURNING update_id"
)
_PRUNE = "DELETE FROM seen_updates WHERE seen_at < :before"

# the table, in each database's words: `key` an integer primary key, `time` a double
TABLE = """
    CREATE TABLE seen_updates (
        update_id {key} PRIMARY KEY,
        seen_at {time} NOT NULL
    );
    CREATE INDEX seen_updates_by_time ON seen_updates(seen_at);
"""


class ClaimRounds:
    """Claims waiting for the next round, and the rounds themselves, one at a time."""

    def __init__(self, claim_round: Callable[[list[int], float], Awaitable[set[int]]]) -> None:
        self._claim_round = claim_round
        self._waiting: dict[int, list[asyncio.Future[bool]]] = {}  # id -> its claims, the first may win
        self._now = 0.0  # the latest `now` of the waiting claims: when the round's ids were seen
        self._task: asyncio.Task[None] | None = None

    async def claim(self, update_id: int, now: float) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(update_id, []).append(future)
        self._now = max(self._now, now)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._serve())
        return await future

    async def _serve(self) -> None:
        try:
            while self._waiting:
                round_, self._waiting = self._waiting, {}
                await self._one_round(round_, self._now)
        finally:
            self._task = None

    async def _one_round(self, round_: dict[int, list[asyncio.Future[bool]]], now: float) -> None:
        try:
            new = await self._claim_round(list(round_), now)
        except Exception as exc:  # each claim raises it: the webhook handles those updates anyway
            for futures in round_.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(exc)
            return
        for update_id, futures in round_.items():
            for nth, future in enumerate(futures):  # the same id twice in one round: the first takes it
                if not future.done():
                    future.set_result(nth == 0 and update_id in new)


class UpdateClaims:
    _claims: int = 0  # ids claimed by this store object: a round that reaches a PRUNE_EVERY-th prunes first
    _rounds: ClaimRounds | None = None

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def _insert_new(self, update_ids: list[int], now: float) -> set[int]:
        """Insert the ids in one commit; those that were not there yet."""
        raise NotImplementedError

    async def claim_update(self, update_id: int, now: float) -> bool:
        if self._rounds is None:
            self._rounds = ClaimRounds(self._claim_round)
        return await self._rounds.claim(update_id, now)

    async def _claim_round(self, update_ids: list[int], now: float) -> set[int]:
        first, self._claims = self._claims, self._claims + len(update_ids)
        if first % PRUNE_EVERY == 0 or first // PRUNE_EVERY != (self._claims - 1) // PRUNE_EVERY:
            await self._change(_PRUNE, {"before": now - KEEP_SECONDS})
        return await self._insert_new(update_ids, now)
