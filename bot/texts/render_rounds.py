"""A trivia night's round messages: the round's name before its first question, the run's
standings after its last (standings are shown between rounds only)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.model import Reply, Standing
from bot.domain.rounds import RoundPlace
from bot.domain.teams import TeamStanding
from bot.texts import render_teams
from bot.texts.message import t, tn
from bot.texts.render import standing_line

STANDINGS_SHOWN = 5  # between rounds: the top five, and how many more play


def round_start(lang: str, place: RoundPlace) -> Reply:
    """ "Round 2 of 3: Science · points ×2" before the round's first question."""
    name = place.round.name.get(lang)
    title = t(lang, "Round {number} of {count}: {name}", number=place.number, count=place.count, name=name)
    if place.round.multiplier != 1:
        title += " · " + t(lang, "points ×{multiplier}", multiplier=f"{place.round.multiplier:g}")
    return Reply(title, language=lang)


def round_standings(
    lang: str, place_name: str, standings: Sequence[Standing], teams: Sequence[TeamStanding] = ()
) -> Reply:
    """The run's standings so far, after a round that another follows: the teams first, if any."""
    lines = [standing_line(lang, s) for s in standings[:STANDINGS_SHOWN]] or [t(lang, "Nobody scored this time.")]
    more = len(standings) - STANDINGS_SHOWN
    if more > 0:
        lines.append(tn(lang, "…and {n} more player", "…and {n} more players", more))
    if teams:
        lines = [*render_teams.podium_lines(lang, teams), *lines]
    title = t(lang, "📊 Standings after {name}", name=place_name)
    return Reply("\n".join(lines), title=title, language=lang, kind="leaderboard")
