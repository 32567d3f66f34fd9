"""`quizhost stats --review`: a review log made with a fixed seed (FSRS scheduling, a hidden memory
answering) is replayed, and the command prints log loss and calibration of FSRS, the old Leitner
rule and a constant on its newer part, or says plainly that there is too little to tell."""

from __future__ import annotations

import asyncio
import math
import re

import pytest

from bot.cli import main
from bot.domain.deck import DAY, Grade, ReviewLogRow
from bot.domain.recall_metrics import score
from bot.engine.recall_replay import CONSTANT, MIN_REVIEWS, TRAIN_SHARE, Comparison, compare, constant_pairs
from tests.support.review_history import history, write


@pytest.fixture(scope="module")
def log() -> list[ReviewLogRow]:
    return history(seed=7, players=8, days=60)


def stats(capsys, path) -> str:
    capsys.readouterr()
    assert main(["stats", "--review", "--db", str(path)]) == 0
    return capsys.readouterr().out


def test_the_replayed_log_scores_all_three_on_its_newer_part(tmp_path, capsys, log):
    path = tmp_path / "reviews.db"
    asyncio.run(write(str(path), log))
    out = stats(capsys, path)
    result = compare(log)
    assert isinstance(result, Comparison)
    train, test = len(result.train), len(result.test)
    assert train == round((train + test) * TRAIN_SHARE) and test >= MIN_REVIEWS * (1 - TRAIN_SHARE)
    assert f"Train: the older {train} reviews" in out and f"test: the newer {test} reviews" in out
    table = dict(re.findall(r"^(FSRS|Leitner|constant) +([\d.]+) +[\d.]+$", out, re.MULTILINE))
    assert sorted(table) == ["FSRS", "Leitner", "constant"]
    assert all(math.isfinite(float(loss)) and float(loss) > 0 for loss in table.values())
    assert float(table["FSRS"]) == pytest.approx(result.scores[0].log_loss, abs=1e-4)
    assert "default parameters" in out and "Calibration (predicted recall → share recalled, reviews):" in out
    assert f"constant: {result.constant:.3f} for every review" in out


def test_the_constant_is_perfectly_calibrated_on_the_part_it_was_trained_on(log):
    result = compare(log)
    assert isinstance(result, Comparison)
    trained = score(CONSTANT, constant_pairs(result.constant, result.train))
    (only,) = trained.bins
    assert only.count == len(result.train) and only.predicted == pytest.approx(only.observed)
    assert trained.calibration_error == pytest.approx(0.0, abs=1e-12)
    recalled = result.constant
    assert trained.log_loss == pytest.approx(-(recalled * math.log(recalled) + (1 - recalled) * math.log(1 - recalled)))


def test_too_little_history_is_said_plainly(tmp_path, capsys, log):
    path = tmp_path / "few.db"
    asyncio.run(write(str(path), log[:30]))
    out = stats(capsys, path)
    assert out.startswith("Too little review history to compare schedulers:") and f"at least {MIN_REVIEWS}" in out
    assert "(30 grades logged)" in out
    assert main(["stats", "--review", "--chat", "test:1", "--db", str(path)]) == 1
    assert "takes no quiz, --chat or --json" in capsys.readouterr().err


def test_grades_of_cards_boxed_before_the_log_are_left_out():
    """A card migrated from the boxes has no entry in the log: where it stood is unknown."""
    rows = [ReviewLogRow("test:1", "", "pipeline", "old", DAY * n, Grade.GOOD, 3.0, 0.9) for n in range(1, 4)]
    rows.append(ReviewLogRow("test:1", "", "pipeline", "new", 0.0, Grade.AGAIN, None, None))
    result = compare(rows)
    assert not isinstance(result, Comparison) and (result.replayable, result.grades) == (0, 4)
