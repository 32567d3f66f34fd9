"""Teams: a chat's line-up of named teams, who plays in which, and what a team scores.

Pure rules (no I/O): a team's score from its members' points (the mean by default, as Kahoot
scores teams, so a team of 2 and a team of 5 that play alike score alike), the standings of the
teams, where a player who turns up after the teams locked goes (the smallest team), and the
snake draft of `/teams balanced`. The store keeps the line-ups (storage/shared/teams.py); the
engine adopts a chat's line-up into its next run (bot/engine/teams.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

MIN_TEAMS, MAX_TEAMS = 2, 8
NAME_CHARS = 24  # a team's name as an admin typed it, cut to this
TOP = 3  # TeamScoring.TOP3: the best three of a team count


class TeamScoring(StrEnum):
    """How a team's score comes from its members' points."""

    MEAN = "mean"  # the mean over the members; a member who did not answer counts 0
    SUM = "sum"
    TOP3 = "top3"  # the sum of its three best members' points


@dataclass(frozen=True)
class Member:
    player_key: str
    name: str
    team: int  # 1-based, as the buttons number them
    late: bool = False  # placed by the bot: first answered after the teams locked


@dataclass(frozen=True)
class Lineup:
    """A chat's teams: open to joining until a run adopts it (`run_id`) at its first question."""

    id: int
    chat_key: str
    names: tuple[str, ...]
    scoring: TeamScoring = TeamScoring.MEAN
    members: tuple[Member, ...] = ()
    message_id: str | None = None  # the message with the join buttons, edited as players join
    run_id: int | None = None

    @property
    def locked(self) -> bool:
        return self.run_id is not None

    def team_of(self, player_key: str) -> int | None:
        return next((m.team for m in self.members if m.player_key == player_key), None)

    def in_team(self, team: int) -> tuple[Member, ...]:
        return tuple(m for m in self.members if m.team == team)


@dataclass(frozen=True)
class Played:
    """A player's part in a run: what the team standings add up."""

    points: int
    correct: int
    answered: int


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: int
    name: str
    score: float
    members: int
    correct: int
    answered: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


def team_score(points: Sequence[int], scoring: TeamScoring) -> float:
    """A team's score from its members' points (one entry per member, 0 for one who did not answer)."""
    if not points:
        return 0.0
    if scoring is TeamScoring.SUM:
        return float(sum(points))
    if scoring is TeamScoring.TOP3:
        return float(sum(sorted(points, reverse=True)[:TOP]))
    return sum(points) / len(points)


def standings(lineup: Lineup, played: Mapping[str, Played]) -> list[TeamStanding]:
    """The teams ranked by score (ties share a rank, then by team number)."""
    nobody = Played(0, 0, 0)
    rows = []
    for team, name in enumerate(lineup.names, 1):
        parts = [played.get(m.player_key, nobody) for m in lineup.in_team(team)]
        score = team_score([p.points for p in parts], lineup.scoring)
        rows.append((score, team, name, len(parts), sum(p.correct for p in parts), sum(p.answered for p in parts)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    ranked: list[TeamStanding] = []
    for score, team, name, members, correct, answered in rows:
        rank = ranked[-1].rank if ranked and ranked[-1].score == score else len(ranked) + 1
        ranked.append(TeamStanding(rank, team, name, score, members, correct, answered))
    return ranked


TeamScores = dict[str, tuple[str, float]]  # player key -> (their team's name, its score)


def team_scores(lineup: Lineup, played: Mapping[str, Played]) -> TeamScores:
    """Each member's team and that team's score: what a run's results say beside each answer."""
    scores = {s.team: s.score for s in standings(lineup, played)}
    return {m.player_key: (lineup.names[m.team - 1], scores[m.team]) for m in lineup.members}


def smallest_team(lineup: Lineup) -> int:
    """Where a late player goes: the team with the fewest members, the lowest number on a tie."""
    sizes = [len(lineup.in_team(team)) for team in range(1, len(lineup.names) + 1)]
    return sizes.index(min(sizes)) + 1


def snake_draft(best_first: Iterable[str], teams: int) -> dict[str, int]:
    """Teams for players ranked best first: the best to team 1, the next to team 2, ..., then
    back from the last team (1, 2, 3, 3, 2, 1, 1, 2, ...), so no team gets all the strong."""
    placed: dict[str, int] = {}
    for i, key in enumerate(best_first):
        lap, step = divmod(i, teams)
        placed[key] = (step if lap % 2 == 0 else teams - 1 - step) + 1
    return placed


def shown_score(score: float) -> str:
    """A team's score as the chat reads it: whole points stay whole, a mean keeps one decimal."""
    return str(int(score)) if score == int(score) else f"{score:.1f}"
