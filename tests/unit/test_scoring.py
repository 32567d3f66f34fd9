"""The scoring rule of PRODUCT.md: speed points and the streak bonus."""

from bot.domain.scoring import points_for, speed_points, streak_bonus


def test_speed_points_at_zero_half_and_full_time():
    assert speed_points(0, 30) == 1000
    assert speed_points(15, 30) == 750
    assert speed_points(30, 30) == 500


def test_speed_points_stay_between_500_and_1000():
    assert speed_points(-2, 30) == 1000  # clock skew never pays more than an instant answer
    assert speed_points(45, 30) == 500


def test_streak_bonus_grows_by_100_and_caps_at_500():
    assert [streak_bonus(k) for k in range(1, 9)] == [0, 100, 200, 300, 400, 500, 500, 500]


def test_wrong_answer_scores_nothing_whatever_the_streak():
    assert points_for(False, 0, 30, 5) == 0
    assert points_for(True, 0, 30, 3) == 1200
