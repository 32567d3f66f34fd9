"""What one chat platform needs of the database, and nothing else does: only that platform's
adapter (and the wiring, which opens the store) is typed with these; the engine never sees them."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol


class TelegramUpdates(Protocol):
    """Telegram's updates among the processes on one database (bot/adapters/telegram/, bot/app/wiring.py)."""

    async def claim_update(self, update_id: int, now: float) -> bool:
        """Record that the platform update `update_id` is being handled here (at `now`): True the
        first time it is claimed by any process on this database, and for a repeat of a claim
        not finished whose process is gone or whose lease (storage/shared/updates.py
        CLAIM_SECONDS) ran out; False for a repeat of a finished claim (also when its handling
        failed) or of one a live process holds. Claims older than a day may be forgotten
        (Telegram repeats an update for at most 24 hours); the store prunes them itself."""

    async def finish_update(self, update_id: int) -> None:
        """The claimed update was handled (the platform has its answer): never taken again."""

    def finish_update_soon(self, update_id: int) -> None:
        """`finish_update` in the background, before any claim made after this call; a failure
        is logged (a repeat may then be handled again once the claim's lease ran out)."""

    async def claimed_elsewhere(self, update_id: int, now: float) -> bool:
        """Whether another live process holds an unfinished claim of the update whose lease runs
        at `now` (a repeat should wait for it rather than be dropped); False on a one-process store."""

    async def hold_polling(self) -> bool:
        """Become the one process that long-polls the platform's updates (getUpdates) among all
        on this database: True when this store holds it now (until it is closed, or its process
        dies), False when another process holds it. A one-process store always holds it."""


class PlatformMedia(Protocol):
    """The ids a platform gave files the bot uploaded (Telegram's file_id of a question's picture),
    so every process on this database, and the next start, sends the id instead of the file."""

    async def media_file_id(self, platform: str, media_key: str) -> str | None:
        """The id the platform gave the file `media_key` names (its content's digest); None if none yet."""

    async def keep_media_file_id(self, platform: str, media_key: str, file_id: str) -> None:
        """Remember the platform's id of that file, replacing an older one."""


class TelegramStore(TelegramUpdates, PlatformMedia, Protocol):
    """What the Telegram adapter reads and writes: its updates' claims and its pictures' file_ids."""


class DiscordIdentify(Protocol):
    """Discord's gateway logins among the processes that share a bot's shards (bot/adapters/discord/)."""

    def identify_lock(self, bucket: int) -> AbstractAsyncContextManager[None]:
        """Held by one holder at a time, per `bucket`, among every process on this database (on
        a one-process store: in this process): Discord's one identify per bucket every 5 s,
        across the processes that share a bot's shards. Let go when the block ends or the
        holder dies."""


class DiscordInteractions(Protocol):
    """Discord's interactions posted to the endpoint, among the processes on one database."""

    async def claim_interaction(self, interaction_id: int, now: float) -> bool:
        """Record that the interaction `interaction_id` is taken here (at `now`): True the first
        time any process on this database claims it, False for every repeat. An id is kept for
        at least 15 minutes (longer than the endpoint takes a signed request's timestamp, either
        side of its clock); the store prunes older ones itself."""


class DiscordStore(DiscordIdentify, DiscordInteractions, Protocol):
    """What the Discord adapter reads and writes: its identify turns and its interactions' claims."""
