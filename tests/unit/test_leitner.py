"""Leitner boxes: a missed question comes back after 0, 1, 3, 7, 14 and 30 days, then leaves."""

from bot.domain import leitner
from bot.domain.leitner import DAY, ReviewCard

START = 1_800_000_000.0  # a fixed instant; reviews happen an hour after the miss, every day


def review_days(answers: dict[int, bool], days: int = 60) -> tuple[list[tuple[int, int]], ReviewCard | None]:
    """Review every day for `days` days; each due card is answered as `answers` says (right by
    default). Returns (day, box before the answer) for every time the card was asked."""
    card: ReviewCard | None = leitner.missed("tg:1", "pipeline", "bubble", START)
    asked = []
    for day in range(days):
        now = START + day * DAY + 3600
        if card is not None and leitner.is_due(card, now):
            asked.append((day, card.box))
            card = leitner.answered(card, answers.get(day, True), now)
    return asked, card


def test_all_right_the_card_comes_back_after_1_3_7_14_30_days_then_leaves():
    asked, card = review_days({})
    assert asked == [(0, 1), (1, 2), (4, 3), (11, 4), (25, 5), (55, 6)]
    assert card is None  # six right answers in a row: out of the deck by day 55


def test_a_wrong_answer_sends_the_card_back_to_box_1_due_at_once():
    asked, card = review_days({11: False})
    # wrong on day 11 (box 4): due again at once, asked the next day, then 1, 3, 7, 14 days later
    assert asked == [(0, 1), (1, 2), (4, 3), (11, 4), (12, 1), (13, 2), (16, 3), (23, 4), (37, 5)]
    assert card is not None and card.box == 6
    assert card.due == START + 37 * DAY + 3600 + 30 * DAY  # past the 60 simulated days


def test_a_new_miss_in_a_group_restarts_a_card_that_was_far_up():
    card = ReviewCard("tg:1", "pipeline", "bubble", box=5, due=START + 10 * DAY)
    again = leitner.missed(card.player_key, card.quiz_id, card.question_id, START)
    assert (again.box, again.due) == (1, START)


def test_due_now_asks_the_longest_overdue_first_and_nothing_early():
    a = ReviewCard("tg:1", "pipeline", "a", 1, START - 50)
    b = ReviewCard("tg:1", "pipeline", "b", 2, START - 100)
    later = ReviewCard("tg:1", "pipeline", "c", 3, START + 1)
    assert leitner.due_now([a, later, b], START) == [b, a]
