"""Extra time's rules: the words an admin may give, a limit stretched, whose rule a run takes."""

from __future__ import annotations

import pytest

from bot.commands.extra import split_extra
from bot.domain.extra_time import ExtraTime, factor_for, factor_word, read_factor, stretched
from bot.domain.scoring import points_for


@pytest.mark.parametrize(
    ("word", "factor"),
    [("2x", 2.0), ("×2", 2.0), ("x2", 2.0), ("2", 2.0), ("1.5x", 1.5), ("X1.5", 1.5), ("OFF", 1.0), ("off", 1.0)],
)
def test_the_factors_an_admin_may_give(word, factor):
    assert read_factor(word) == factor


@pytest.mark.parametrize("word", ["3x", "1x", "2.0x", "1,5x", "0.5x", "", "x", "double", "1.25"])
def test_anything_else_is_refused(word):
    assert read_factor(word) is None


def test_a_limit_is_stretched_to_the_second_above():
    assert (stretched(20, 2.0), stretched(20, 1.5), stretched(15, 1.5), stretched(0, 2.0)) == (40, 30, 23, 0)
    assert (factor_word(2.0), factor_word(1.5)) == ("×2", "×1.5")


def test_the_same_share_of_the_window_earns_the_same_points():
    for share in (0.1, 0.25, 0.5, 0.875, 1.0):
        assert points_for(True, share * 40, 40, 0) == points_for(True, share * 20, 20, 0)


def test_an_assignments_own_rule_wins_over_the_standing_one():
    standing, own = ExtraTime("g", "p", 1.5), ExtraTime("g", "p", 2.0, assignment_id=4)
    assert factor_for([]) == 1.0
    assert (factor_for([standing, own], 4), factor_for([standing, own], 5), factor_for([standing, own])) == (
        2.0,
        1.5,
        1.5,
    )
    assert factor_for([own], 5) == 1.0


def test_the_clause_of_assign_comes_after_until():
    words = ["extra", "until", "fri", "extra", "Ann", "2x"]
    assert split_extra(words, after="until") == (["extra", "until", "fri"], ["Ann", "2x"])
    assert split_extra(["extra", "until", "fri"], after="until") == (["extra", "until", "fri"], None)
