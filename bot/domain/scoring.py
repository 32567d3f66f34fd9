"""The scoring rule of PRODUCT.md, in one place."""

from __future__ import annotations

STREAK_STEP = 100
STREAK_CAP = 500


def speed_points(elapsed: float, limit: float) -> int:
    """round(1000 * (1 - (t/T)/2)): 1000 at once, 500 at the deadline, never outside that."""
    t = min(max(elapsed, 0.0), limit)
    return round(1000 * (1 - (t / limit) / 2))


def streak_bonus(streak: int) -> int:
    """100 per consecutive right answer after the first, at most 500."""
    return min(STREAK_STEP * max(streak - 1, 0), STREAK_CAP)


def points_for(correct: bool, elapsed: float, limit: float, streak: int) -> int:
    """Points for one answer; `streak` counts this answer when it is right."""
    if not correct:
        return 0
    return speed_points(elapsed, limit) + streak_bonus(streak)
