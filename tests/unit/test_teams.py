"""Team scores and placements (bot/domain/teams.py) and the join buttons' data (tokens.py)."""

from __future__ import annotations

import pytest

from bot.domain import tokens
from bot.domain.teams import (
    Lineup,
    Member,
    Played,
    TeamScoring,
    shown_score,
    smallest_team,
    snake_draft,
    standings,
    team_score,
)


def lineup(sizes: tuple[int, ...], scoring: TeamScoring = TeamScoring.MEAN) -> Lineup:
    members = tuple(
        Member(f"p:{team}-{n}", f"P{team}{n}", team) for team, size in enumerate(sizes, 1) for n in range(size)
    )
    return Lineup(1, "c", tuple(f"T{team}" for team in range(1, len(sizes) + 1)), scoring, members)


def test_teams_of_two_and_of_five_that_play_alike_score_alike_under_the_mean():
    teams = lineup((2, 5))
    # every player answers the same three questions alike, at the same speed: the same points
    played = {m.player_key: Played(2650, 3, 3) for m in teams.members}
    first, second = standings(teams, played)
    assert first.score == second.score == 2650
    assert first.rank == second.rank == 1  # a tie shares the place
    assert (first.team, second.team) == (1, 2)  # then by number


def test_a_member_who_did_not_answer_counts_zero_in_the_mean():
    teams = lineup((2, 2))
    played = {"p:1-0": Played(1000, 1, 1), "p:1-1": Played(1000, 1, 1), "p:2-0": Played(2000, 1, 1)}
    assert [(s.team, s.score) for s in standings(teams, played)] == [(1, 1000.0), (2, 1000.0)]


@pytest.mark.parametrize(
    ("scoring", "expected"),
    [(TeamScoring.MEAN, 400.0), (TeamScoring.SUM, 2000.0), (TeamScoring.TOP3, 1800.0)],
)
def test_the_three_ways_to_score_a_team(scoring, expected):
    assert team_score([800, 600, 400, 200, 0], scoring) == expected


def test_an_empty_team_scores_nothing_and_ranks_last():
    teams = lineup((1, 0))
    ranked = standings(teams, {"p:1-0": Played(10, 1, 1)})
    assert [(s.team, s.score, s.members) for s in ranked] == [(1, 10.0, 1), (2, 0.0, 0)]


def test_a_late_player_goes_to_the_smallest_team_the_lowest_number_on_a_tie():
    assert smallest_team(lineup((3, 2, 2))) == 2
    assert smallest_team(lineup((2, 2))) == 1
    assert smallest_team(lineup((0, 0, 0))) == 1


def test_the_snake_draft_turns_at_each_end():
    players = [f"p{n}" for n in range(8)]
    assert list(snake_draft(players, 3).values()) == [1, 2, 3, 3, 2, 1, 1, 2]


def test_scores_read_whole_or_with_one_decimal():
    assert (shown_score(1500.0), shown_score(2033.3333)) == ("1500", "2033.3")


def test_join_buttons_round_trip_and_refuse_what_is_not_theirs():
    data = tokens.team_join(42, 3)
    assert data == "tj:42:3" and tokens.is_valid(data) and tokens.kind_of(data) is tokens.Kind.TEAM
    assert tokens.team_joined(data) == (42, 3)
    for forged in ("tj:0:1", "tj:42:0", "tj:42:12", "tj:x:1", "tj:42:1:extra", "qa:1:1:1"):
        assert tokens.team_joined(forged) is None
    with pytest.raises(ValueError):
        tokens.team_join(42, 0)
