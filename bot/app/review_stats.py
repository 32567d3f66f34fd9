"""`quizhost stats --review`: the review log replayed (bot/engine/recall_replay.py) and printed as
a table for whoever runs the installation: log loss and calibration of FSRS, the old Leitner rule
and a constant, on the newer part of the log."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.domain import leitner
from bot.domain.recall_metrics import Score
from bot.engine.recall_replay import MIN_REVIEWS, TRAIN_SHARE, Comparison, TooLittle


def _day(timestamp: float) -> str:
    return f"{datetime.fromtimestamp(timestamp, UTC):%Y-%m-%d %H:%M} UTC"


def too_little(result: TooLittle) -> str:
    return (
        f"Too little review history to compare schedulers: {result.replayable} reviews follow an earlier grade "
        f"of their card ({result.grades} grades logged); at least {MIN_REVIEWS} are needed, the older "
        f"{TRAIN_SHARE:.0%} to train on and the newer rest to test. Run it again once players have used /review "
        "for a while."
    )


def report(c: Comparison) -> str:
    train, test = c.train, c.test
    lines = [
        f"Review log: {c.grades} grades of {c.cards} cards by {c.players} players; "
        f"{len(train) + len(test)} reviews follow an earlier grade of their card and are replayed"
        + (f" ({c.unreplayable} grades of cards boxed before the log began are not)" if c.unreplayable else ""),
        f"Train: the older {len(train)} reviews ({_day(train[0].at)} to {_day(train[-1].at)}); "
        f"test: the newer {len(test)} reviews ({_day(test[0].at)} to {_day(test[-1].at)})",
        "FSRS: the fsrs package's default parameters (its optimizer needs PyTorch, which quizhost does not install)",
        f"Leitner: the old boxes, a card due when its recall falls to {leitner.TARGET_RECALL:.0%} "
        f"(waits {', '.join(str(d) for d in leitner.WAIT_DAYS if d)} days)",
        f"constant: {c.constant:.3f} for every review, the training part's share recalled",
        "",
        f"On the test part ({len(test)} reviews, {sum(r.recalled for r in test) / len(test):.1%} recalled):",
        f"{'model':<10}{'log loss':>10}{'calibration error':>20}",
    ]
    lines += [f"{s.name:<10}{s.log_loss:>10.4f}{s.calibration_error:>20.4f}" for s in c.scores]
    best = min(c.scores, key=lambda s: s.log_loss)
    lines += ["", f"Lowest log loss: {best.name}.", "", "Calibration (predicted recall → share recalled, reviews):"]
    for s in c.scores:
        lines += ["", s.name, *_bins(s)]
    return "\n".join(lines)


def _bins(s: Score) -> list[str]:
    return [
        f"  {b.low:.1f}–{b.high:.1f}: predicted {b.predicted:.3f}, recalled {b.observed:.3f}, {b.count} reviews"
        for b in s.bins
    ]
