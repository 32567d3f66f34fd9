"""Question statistics on a hand-built answer set; every figure below is worked out by hand."""

import pytest

from bot.domain.questionstats import (
    AnswerFact,
    Flag,
    FlagNote,
    Marking,
    flags,
    groups,
    median_seconds,
    question_stats,
    tally,
)

PLAYERS = [f"p{i}" for i in range(1, 11)]  # p1 has the highest total score, p10 the lowest
TOTALS = dict(zip(PLAYERS, (5000, 4000, 3500, 3000, 2500, 2000, 1500, 1000, 500, 100)))
A, B, C, D = range(4)


def answer(qid: str, player: str, option: int, right: int, seconds: float) -> AnswerFact:
    return AnswerFact(qid, player, option, option == right, seconds, 600 if option == right else 0)


def facts() -> list[AnswerFact]:
    q1 = [
        answer("q1", p, o, B, s)
        for p, o, s in zip(PLAYERS, (B, B, C, B, C, C, B, C, C, D), (2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
    ]
    q2 = [answer("q2", p, o, A, 3.0) for p, o in zip(PLAYERS, (C, C, A, A, A, A, A, B, B, A))]
    q4 = [answer("q4", p, A, A, 1.0) for p in PLAYERS for _ in range(3)]
    q4[-2:] = [answer("q4", "p10", B, A, 1.0)] * 2  # p10: one right, two wrong; 28 of 30 right
    q5 = [answer("q5", p, o, A, s) for p, o, s in zip(PLAYERS[:5], (A, B, B, B, B), (5, 4, 3, 2, 1))]
    given = q1 + q2 + q4 + q5
    # one more fact per player on a question of its own sets the totals above exactly
    fill = [
        AnswerFact("fill", p, 0, True, 1.0, TOTALS[p] - sum(f.points for f in given if f.player_key == p))
        for p in PLAYERS
    ]
    return given + fill


@pytest.fixture(scope="module")
def quiz_tally():
    return tally(facts())


def test_totals_rank_the_players(quiz_tally):
    assert dict(quiz_tally.totals) == TOTALS


def test_a_middling_question_with_a_clear_discrimination(quiz_tally):
    s = question_stats("q1", Marking.one_right(B, 4), quiz_tally)
    assert (s.attempts, s.right, s.split) == (10, 4, (0, 4, 5, 1))
    assert s.share_right == 0.4
    assert s.median_seconds == 6.5  # ten times 2..11 s: the mean of the 5th and 6th, 6 and 7
    # 10 players: groups of round(2.7) = 3. top p1 p2 p3 answered B B C (2/3); bottom p8 p9 p10 C C D (0/3)
    assert s.discrimination == pytest.approx(2 / 3)
    assert s.flags == ()  # option A was never chosen, but over 10 attempts only


def test_check_the_key_when_the_top_group_prefers_a_wrong_option(quiz_tally):
    s = question_stats("q2", Marking.one_right(A, 4), quiz_tally)
    assert (s.attempts, s.right, s.split, s.median_seconds) == (10, 6, (6, 2, 2, 0), 3.0)
    # top p1 p2 p3 chose C C A (1/3 right); bottom p8 p9 p10 chose B B A (1/3 right)
    assert s.discrimination == pytest.approx(0.0)
    assert s.flags == (FlagNote(Flag.CHECK_KEY, C),)


def test_too_easy_and_dead_options_over_30_attempts(quiz_tally):
    s = question_stats("q4", Marking.one_right(A, 4), quiz_tally)
    assert (s.attempts, s.right, s.split) == (30, 28, (28, 2, 0, 0))
    # top p1 p2 p3: 9/9 right; bottom p8 p9 3/3 each and p10 1/3: 7/9
    assert s.discrimination == pytest.approx(1 - 7 / 9)
    assert s.flags == (FlagNote(Flag.TOO_EASY), FlagNote(Flag.DEAD_OPTION, C), FlagNote(Flag.DEAD_OPTION, D))


def test_too_hard_at_20_percent_with_groups_of_one(quiz_tally):
    s = question_stats("q5", Marking.one_right(A, 4), quiz_tally)
    assert (s.attempts, s.right, s.median_seconds) == (5, 1, 3.0)
    # 5 players answered: groups of round(1.35) = 1, p1 (right) against p5 (wrong)
    assert s.discrimination == 1.0
    assert s.flags == () and s.too_few_to_flag, "5 players prove nothing: no flag shown"
    assert flags(s, ()) == (FlagNote(Flag.TOO_HARD),), "the rule itself: too hard at 20%"


def test_an_unanswered_question_has_no_figures_and_no_flags(quiz_tally):
    s = question_stats("q6", Marking.one_right(A, 4), quiz_tally)
    assert (s.attempts, s.share_right, s.median_seconds, s.discrimination, s.flags) == (0, None, None, None, ())
    assert s.split == (0, 0, 0, 0)


def test_groups_need_two_players_and_ties_go_by_key():
    assert groups(["p1"], {"p1": 10}) == ([], [])
    assert groups(["b", "a", "c"], {"a": 5, "b": 5, "c": 1}) == (["a"], ["c"])


def test_median_is_kept_in_tenths_of_a_second():
    assert median_seconds({20: 1, 35: 2}) == 3.5
    assert median_seconds({}) is None
    one = tally([AnswerFact("q", "p", 0, True, 2.04, 900)])
    assert dict(one.questions["q"].tenths) == {20: 1}
