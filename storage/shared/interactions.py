"""Which Discord interactions were taken already, among every worker on this database.

The interactions endpoint (bot/adapters/discord/endpoint.py) takes any request Discord signed
whose timestamp is within FRESH_SECONDS of its clock, either side: a signed request caught on
the way could be posted again, to any worker behind the load balancer, for that long, and a
select-all-that-apply toggle would flip again each time. So each interaction's id is claimed
here: the first claim takes it, a repeat is refused everywhere.

Discord itself never posts an interaction twice (one not answered within 3 s has failed), so
a claim is only ever a first sight: no lease and no finish, unlike Telegram's updates. The
claims go in the same rounds (storage/shared/updates.py ClaimRounds): every id waiting when a
round starts in one statement and one commit. Ids are kept KEEP_SECONDS, pruned as updates are.
"""

from __future__ import annotations

from typing import Any

from storage.shared.updates import ClaimRounds, prune_due

# longer than a signed request stays fresh (600 s between the earliest clock that takes it and
# the latest), with room for workers' clocks a little apart; Discord's interaction tokens last as long
KEEP_SECONDS = 900.0

# the table, in each database's words: `key` a 64-bit integer (a snowflake), `time` a double
TABLE = """
    CREATE TABLE seen_interactions (
        interaction_id {key} PRIMARY KEY,
        seen_at {time} NOT NULL
    );
    CREATE INDEX seen_interactions_by_time ON seen_interactions(seen_at);
"""
_NEW = " ON CONFLICT (interaction_id) DO NOTHING RETURNING interaction_id"
# a round's ids: on SQLite as one JSON array (WHERE: its rule for an upsert after a SELECT), on PostgreSQL an array
CLAIM_SQLITE = (
    "INSERT INTO seen_interactions(interaction_id, seen_at) SELECT value, ? FROM json_each(?) WHERE true" + _NEW
)
CLAIM_POSTGRES = "INSERT INTO seen_interactions(interaction_id, seen_at) SELECT unnest($1::bigint[]), $2" + _NEW
_PRUNE = "DELETE FROM seen_interactions WHERE seen_at < :before"


class InteractionClaims:
    _interaction_claims: int = 0  # ids claimed by this store object: a round that reaches a PRUNE_EVERY-th prunes
    _interaction_rounds: ClaimRounds | None = None

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def _insert_interactions(self, interaction_ids: list[int], now: float) -> set[int]:
        """In one commit, record the ids not seen before (seen at `now`); those."""
        raise NotImplementedError

    async def claim_interaction(self, interaction_id: int, now: float) -> bool:
        if self._interaction_rounds is None:
            self._interaction_rounds = ClaimRounds(self._interaction_round)
        return await self._interaction_rounds.claim(interaction_id, now)

    async def _interaction_round(self, interaction_ids: list[int], now: float, finished: list[int]) -> set[int]:
        """A round of ClaimRounds (`finished` is always empty: nothing here is finished)."""
        first, self._interaction_claims = self._interaction_claims, self._interaction_claims + len(interaction_ids)
        if prune_due(first, self._interaction_claims):
            await self._change(_PRUNE, {"before": now - KEEP_SECONDS})
        return await self._insert_interactions(interaction_ids, now)
