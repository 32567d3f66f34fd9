"""Teams (bot/engine/teams.py, storage/shared/teams.py): a chat's line-up of teams and who joined
which, adopted by the chat's next run at its first question."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.domain.teams import Lineup, TeamScoring


class TeamRecords(Protocol):
    """Line-ups: at most one open (not adopted by a run) per chat; an adopted one stays its run's."""

    async def new_lineup(self, chat_key: str, names: tuple[str, ...], scoring: TeamScoring, now: float) -> int:
        """Store a new open line-up for the chat, in place of its open one (members and all); its id."""

    async def lineup(self, lineup_id: int) -> Lineup | None:
        """The line-up with its members (by team, then as they joined); None for an id never stored
        or one dropped."""

    async def open_lineup(self, chat_key: str) -> Lineup | None:
        """The chat's open line-up; None when it has none."""

    async def run_lineup(self, run_id: int) -> Lineup | None:
        """The line-up `run_id` adopted; None when it played without teams."""

    async def lineup_message(self, lineup_id: int, message_id: str) -> None:
        """Where its message with the join buttons is (for the edits as players join)."""

    async def join_team(self, lineup_id: int, player_key: str, name: str, team: int, late: bool, now: float) -> bool:
        """Put the player in `team` (moving them from another); False, and nothing changed, when
        the line-up is adopted already (`late` places a player in an adopted one: True)."""

    async def place_teams(self, lineup_id: int, teams: Mapping[str, int]) -> None:
        """Move each player named to their team (`/teams balanced`); the others stay."""

    async def drop_lineup(self, chat_key: str) -> bool:
        """Forget the chat's open line-up; False when it had none. Adopted ones stay their runs'."""

    async def adopt_lineup(self, chat_key: str, run_id: int) -> Lineup | None:
        """The run takes the chat's open line-up, which locks it; None when there was none (or the
        run has one already: then that one)."""
