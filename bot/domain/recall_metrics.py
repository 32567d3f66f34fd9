"""How well a model predicted recall, scored on graded reviews: log loss and calibration.

Log loss is the mean of -log p over what happened (p the probability the model gave it): lower is
better, 0.693 is a coin's. Calibration sorts the predictions into bins of width 0.1 and sets each
bin's mean prediction against the share actually recalled; the calibration error is the gap
averaged over the reviews (each bin weighted by its size).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CLAMP = 1e-4  # predictions are kept within [CLAMP, 1 - CLAMP]: a sure prediction proved wrong is not infinitely bad
BINS = 10

Pair = tuple[float, bool]  # (predicted recall, recalled)


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    predicted: float  # mean prediction in the bin
    observed: float  # share recalled in the bin


@dataclass(frozen=True)
class Score:
    name: str
    log_loss: float
    calibration_error: float
    bins: tuple[Bin, ...]


def log_loss(pairs: Sequence[Pair]) -> float:
    total = 0.0
    for p, recalled in pairs:
        p = min(max(p, CLAMP), 1 - CLAMP)
        total -= math.log(p if recalled else 1 - p)
    return total / len(pairs)


def calibration(pairs: Sequence[Pair], bins: int = BINS) -> tuple[Bin, ...]:
    """The non-empty bins, lowest first; a prediction of 1 falls in the top bin."""
    grouped: dict[int, list[Pair]] = {}
    for pair in pairs:
        grouped.setdefault(min(int(pair[0] * bins), bins - 1), []).append(pair)
    return tuple(
        Bin(
            i / bins,
            (i + 1) / bins,
            len(group),
            math.fsum(p for p, _ in group) / len(group),
            sum(r for _, r in group) / len(group),
        )
        for i, group in sorted(grouped.items())
    )


def calibration_error(bins: Sequence[Bin]) -> float:
    count = sum(b.count for b in bins)
    return math.fsum(b.count * abs(b.predicted - b.observed) for b in bins) / count


def score(name: str, pairs: Sequence[Pair]) -> Score:
    bins = calibration(pairs)
    return Score(name, log_loss(pairs), calibration_error(bins), bins)
