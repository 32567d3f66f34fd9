"""The Leitner boxes /review scheduled with before FSRS, kept as a predictor so `quizhost stats
--review` can measure both on an installation's own review log (bot/engine/recall_replay.py), and
for the migration that turned each boxed card into an FSRS card (storage/shared/review.py).

The rule: a card entered box 1 when missed, due at once. A right answer moved it up one box, due
again after that box's wait: 1, 3, 7, 14 and 30 days for boxes 2 to 6 (a right answer in box 6
took it out of the deck); a wrong answer sent it back to box 1, due at once.
"""

from __future__ import annotations

WAIT_DAYS: tuple[int, ...] = (0, 1, 3, 7, 14, 30)  # box 1 .. box 6
FIRST_BOX = 1
LAST_BOX = len(WAIT_DAYS)
TARGET_RECALL = 0.9  # the recall a due card is read to have, the same target FSRS schedules for


def next_box(box: int, correct: bool) -> int:
    """The box after an answer (a card in the last box stays there: the replay has no end)."""
    return min(box + 1, LAST_BOX) if correct else FIRST_BOX


def wait_days(box: int) -> int:
    return WAIT_DAYS[box - FIRST_BOX]


def predicted_recall(box: int, elapsed_days: float) -> float:
    """The rule read as a prediction: a card comes due when its recall has fallen to
    TARGET_RECALL, exponentially, so its box's wait is that recall's time (at least a day: box 1
    asks at once and claims nothing shorter)."""
    return float(TARGET_RECALL ** (max(elapsed_days, 0.0) / max(wait_days(box), 1)))
