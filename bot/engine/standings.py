"""The boards a chat asks for: its top players over a calendar period, a player's own figures."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.domain.model import ChatRef, Player, PlayerStats, Standing
from bot.ports.clock import Clock
from bot.ports.store import Boards, PlayerNames

TOP = 10


class StandingsStore(Boards, PlayerNames, Protocol):
    """The boards, and the caller's display name kept current."""


class Standings:
    """A chat's boards on the store's clock: what /leaderboard and /stats show."""

    def __init__(self, store: StandingsStore, clock: Clock) -> None:
        self._store, self._clock = store, clock

    async def leaderboard(
        self, chat: ChatRef, period: str, quiz_id: str | None, player: Player | None = None
    ) -> tuple[list[Standing], Standing | None]:
        return await leaderboard(self._store, self._clock, chat, period, quiz_id, player)

    async def player_stats(self, chat: ChatRef, player: Player) -> PlayerStats:
        return await player_stats(self._store, chat, player)


async def leaderboard(
    store: StandingsStore, clock: Clock, chat: ChatRef, period: str, quiz_id: str | None, player: Player | None = None
) -> tuple[list[Standing], Standing | None]:
    """The top 10 of the chat for the period, and the caller's own standing."""
    if player is not None:
        await store.ensure_player(player)  # keep the caller's display name current
    key = player.key if player else None
    board = await store.leaderboard(chat.key, period_start(period, clock.now()), quiz_id, TOP, key)
    mine = next((s for s in board if s.player_key == key), None)
    return board[:TOP], mine


async def player_stats(store: StandingsStore, chat: ChatRef, player: Player) -> PlayerStats:
    await store.ensure_player(player)
    return await store.player_stats(chat.key, player)


def period_start(period: str, now: float) -> float | None:
    """Calendar periods in UTC: the week starts on Monday, the month on the 1st."""
    if period == "all":
        return None
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return (day - timedelta(days=day.weekday())).timestamp()
    if period == "month":
        return day.replace(day=1).timestamp()
    raise ValueError(f"unknown period {period!r}")
