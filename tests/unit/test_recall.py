"""FSRS scheduling of review cards (bot/engine/recall.py): right answers space a card further each
time until it leaves the deck, a wrong one brings it back at the next /review, a new miss starts it
over, and every grade is logged with the recall FSRS predicted for it."""

import itertools

import pytest

from bot.domain.deck import DAY, CardState, Grade, ReviewCard, due_now, is_due
from bot.engine import recall

START = 1_800_000_000.0  # a fixed instant; reviews happen an hour after the miss, every day


def review_days(answers: dict[int, bool], days: int = 400) -> tuple[list[int], ReviewCard | None]:
    """Review every day for `days` days; each due card is answered as `answers` says (right by
    default). Returns the days the card was asked and the card at the end (None: learned)."""
    card: ReviewCard | None = recall.missed("tg:1", "pipeline", "bubble", START)[0]
    asked = []
    for day in range(days):
        now = START + day * DAY + 3600
        if card is not None and is_due(card, now):
            asked.append(day)
            card = recall.answered(card, answers.get(day, True), now)[0]
    return asked, card


def test_all_right_the_waits_grow_until_the_card_leaves_the_deck():
    asked, card = review_days({})
    waits = [b - a for a, b in itertools.pairwise(asked)]
    assert asked[0] == 0 and waits == sorted(waits) and waits[-1] > 3 * waits[1]
    assert card is None and asked[-1] < 200  # learned: FSRS would wait LEARNED_DAYS or more


def test_a_wrong_answer_brings_the_card_back_at_the_next_review_and_shortens_the_waits():
    right, _ = review_days({}, days=60)
    asked, card = review_days({right[3]: False}, days=60)
    assert asked[:5] == [*right[:4], right[3] + 1]  # wrong on its 4th review: asked the next day
    assert card is not None and card.state is CardState.REVIEW
    assert len(asked) > len(right)


def test_a_new_miss_in_a_group_restarts_a_card_that_was_far_up():
    card, log = recall.missed("tg:1", "pipeline", "bubble", START + 50 * DAY)
    assert (card.state, card.step, card.due, card.last_review) == (CardState.LEARNING, 0, START + 50 * DAY, card.due)
    assert (log.grade, log.elapsed_days, log.recall) == (Grade.AGAIN, None, None)


def test_the_log_names_the_grade_the_days_since_and_the_predicted_recall():
    card, _ = recall.missed("tg:1", "pipeline", "bubble", START)
    moved, log = recall.answered(card, True, START + DAY / 2)
    assert moved is not None and moved.due == START + DAY / 2 + DAY
    assert (log.grade, log.elapsed_days) == (Grade.GOOD, 0.5) and 0.5 < (log.recall or 0) < 0.95
    assert recall.recall(card, START) == pytest.approx(1.0)


def test_due_now_asks_the_longest_overdue_first_and_nothing_early():
    a = ReviewCard("tg:1", "pipeline", "a", START - 50)
    b = ReviewCard("tg:1", "pipeline", "b", START - 100)
    later = ReviewCard("tg:1", "pipeline", "c", START + 1)
    assert due_now([a, later, b], START) == [b, a]
