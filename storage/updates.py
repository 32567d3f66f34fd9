"""Which platform updates were taken already: Telegram's webhook is at-least-once, and behind a
load balancer a repeated update_id may reach any worker, so the database remembers the ids.

One INSERT per update says whether it is new. Telegram repeats an update for at most a day, so
ids older than KEEP_SECONDS are deleted: every PRUNE_EVERY claims, and at the first claim after
a start. Plain SQL both stores read the same way (SQLite's `:name` parameters; PostgreSQL's
store numbers them); each store supplies `_change`.
"""
from __future__ import annotations

from typing import Any

KEEP_SECONDS = 86_400.0  # Telegram keeps an unconfirmed update for 24 hours
PRUNE_EVERY = 1_000

_CLAIM = "INSERT INTO seen_updates(update_id, seen_at) VALUES (:id, :at) ON CONFLICT (update_id) DO NOTHING"
_PRUNE = "DELETE FROM seen_updates WHERE seen_at < :before"

# the table, in each database's words: `key` an integer primary key, `time` a double
TABLE = """
    CREATE TABLE seen_updates (
        update_id {key} PRIMARY KEY,
        seen_at {time} NOT NULL
    );
    CREATE INDEX seen_updates_by_time ON seen_updates(seen_at);
"""


class UpdateClaims:
    _claims: int = 0  # claims made by this store object: every PRUNE_EVERY-th prunes first

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def claim_update(self, update_id: int, now: float) -> bool:
        if self._claims % PRUNE_EVERY == 0:
            await self._change(_PRUNE, {"before": now - KEEP_SECONDS})
        self._claims += 1
        return await self._change(_CLAIM, {"id": update_id, "at": now}) == 1
