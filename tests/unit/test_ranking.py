"""The podium's rules of issue #50 (bot/domain/ranking.py, bot/domain/scoring.py): a late joiner's
record counts the scored questions from the one they first answered; accuracy scoring ranks by
that share, ties kept in the points order; the points an answer earns by the run's rules."""

from __future__ import annotations

from bot.domain.model import Standing
from bot.domain.ranking import podium_order, since_joining, weighed_share
from bot.domain.scoring import ACCURACY_POINTS, Scoring, points_for, ruled_points, scored_elapsed
from bot.domain.worth import Record

SCORED = [0, 1, 3, 4]  # question 2 was a poll (or skipped): it counts for nobody


def test_a_record_counts_the_scored_questions_from_the_first_answered():
    record = Record(asked=4, right=2, answered=2, credit=2.0)
    assert since_joining(record, 0, SCORED) is record, "there from the start"
    assert since_joining(record, 2, SCORED) == Record(asked=2, right=2, answered=2, credit=2.0, late=True)
    assert since_joining(record, 2, SCORED).accuracy == 1.0, "the questions before are not wrong"
    assert since_joining(Record(4), 0, []) == Record(4), "nothing scored: nothing to count"


def test_a_player_who_joined_at_a_poll_before_any_scored_question_is_not_late():
    assert since_joining(Record(asked=3, right=1, answered=1, credit=1.0), 0, [1, 2, 3]).late is False


def test_accuracy_ranks_by_share_since_joining_and_keeps_the_points_order_for_ties():
    standings = [
        Standing(1, "a", "Ann", 3100, 3, 4),
        Standing(2, "b", "Bob", 3000, 3, 4),
        Standing(3, "c", "Cy", 2000, 2, 2),
    ]
    records = {
        "a": Record(4, 3, 0, 4, 3.0),
        "b": Record(4, 3, 0, 4, 3.0),
        "c": Record(2, 2, 0, 2, 2.0, late=True),
    }
    assert podium_order(standings, records, Scoring.SPEED) == tuple(standings)
    ranked = podium_order(standings, records, Scoring.ACCURACY)
    assert [(s.rank, s.name) for s in ranked] == [(1, "Cy"), (2, "Ann"), (3, "Bob")]


def test_accuracy_scores_every_right_answer_as_one_given_at_once():
    assert scored_elapsed(12.5, Scoring.SPEED) == 12.5
    assert points_for(True, scored_elapsed(29.0, Scoring.ACCURACY), 30, 1) == ACCURACY_POINTS


def test_the_rules_halve_the_speed_points_after_a_hint_and_may_drop_the_streak_bonus():
    judged = points_for(True, 0.0, 30, 3)  # 1000 and a bonus of 200
    assert ruled_points(judged, True, 3, hinted=True, streaks=True) == 700
    assert ruled_points(judged, True, 3, hinted=False, streaks=False) == 1000
    assert ruled_points(judged, True, 3, hinted=True, streaks=False) == 500
    assert ruled_points(600, False, 0, hinted=True, streaks=False) == 300, "a partly right answer: all speed"
    assert ruled_points(0, False, 0, hinted=True, streaks=False) == 0


def test_sitting_out_to_answer_one_question_does_not_win_on_accuracy():
    """Nine of ten right from the start beats one of one after sitting out nine questions; five
    of five since joining late stands beside nine of ten."""
    standings = [
        Standing(1, "a", "Ann", 9000, 9, 10),
        Standing(2, "s", "Sly", 1000, 1, 1),
        Standing(3, "l", "Lee", 5000, 5, 5),
    ]
    records = {
        "a": Record(10, 9, 0, 10, 9.0),
        "s": Record(1, 1, 0, 1, 1.0, late=True),
        "l": Record(5, 5, 0, 5, 5.0, late=True),
    }
    ranked = podium_order(standings, records, Scoring.ACCURACY)
    assert [s.name for s in ranked] == ["Ann", "Lee", "Sly"]
    assert round(weighed_share(1, 1), 2) == 0.21 and round(weighed_share(9, 10), 2) == 0.60
    assert round(weighed_share(5, 5), 2) == 0.57
