"""The move from Leitner boxes to FSRS: a deck of boxed cards keeps every card, each due when it
was, with a memory state under which FSRS agrees with that due time; an open review ends."""

from __future__ import annotations

import pytest

from bot.domain import leitner
from bot.domain.deck import DAY, CardState
from bot.engine import recall
from tests.contract.stores.test_review_decks import database_at

NOW = 1_800_000_000.0
# (question, box, due): box 1 due at once (a fresh miss, overdue since yesterday), boxes 2 to 6 due
# around now, one overdue, one still weeks ahead
DECK = [
    ("fresh", 1, NOW - DAY),
    ("box2", 2, NOW - 3600),
    ("box3", 3, NOW + 2 * DAY),
    ("box4", 4, NOW - 10 * DAY),
    ("box5", 5, NOW + 20 * DAY),
    ("box6", 6, NOW),
]


def _before_fsrs(migrations: tuple[str, ...]) -> int:
    return next(i for i, script in enumerate(migrations) if "review_cards_fsrs" in script)


def _leitner_deck() -> list[str]:
    cards = [
        "INSERT INTO review_cards(player_key, quiz_chat, quiz_id, question_id, box, due) "
        f"VALUES ('tg:1', '{'tg:-5' if box == 3 else ''}', 'pipeline', '{question}', {box}, {due})"
        for question, box, due in DECK
    ]
    cards.append(
        "INSERT INTO review_cards(player_key, quiz_chat, quiz_id, question_id, box, due) "
        f"VALUES ('tg:2', '', 'pipeline', 'fresh', 1, {NOW})"
    )
    session = (
        "INSERT INTO review_sessions VALUES ('tg:1', 7, 'telegram', '1', 'en', "
        f"'[[\"\", \"pipeline\", \"box2\", 2, {NOW}]]', 1, 0, '[1, 0]', '55', 0)"
    )
    return [*cards, session]


async def test_every_leitner_card_becomes_an_fsrs_card_due_when_it_was(store_factory):
    await database_at(store_factory, _before_fsrs, _leitner_deck())
    store = await store_factory.open()
    deck = {c.question_id: c for c in await store.review_deck("tg:1")}
    assert sorted(deck) == sorted(q for q, _, _ in DECK)  # not a card lost
    assert [c.question_id for c in await store.review_deck("tg:2")] == ["fresh"]
    assert deck["box3"].quiz_chat == "tg:-5"
    for question, box, due in DECK:
        card = deck[question]
        assert card.due == due, question
        if box == leitner.FIRST_BOX:  # as a miss leaves a card now: learning, due at once
            assert (card.state, card.step, card.last_review) == (CardState.LEARNING, 0, due)
            continue
        wait = leitner.wait_days(box)
        assert (card.state, card.step, card.stability) == (CardState.REVIEW, None, wait), question
        assert card.last_review == due - wait * DAY
        # FSRS predicts the 90% recall it schedules for at the very time the box made the card due
        assert recall.recall(card, due) == pytest.approx(0.9)
    assert await store.review_session("tg:1") is None  # its cards had boxes: the next /review starts afresh


async def test_migrated_cards_are_scheduled_by_fsrs_from_there(store_factory):
    await database_at(store_factory, _before_fsrs, _leitner_deck())
    store = await store_factory.open()
    deck = {c.question_id: c for c in await store.review_deck("tg:1")}
    fresh, _ = recall.answered(deck["fresh"], True, NOW)
    # missed a day ago, right now: FSRS's second interval after a miss (a day when right on the same day)
    assert fresh is not None and fresh.state is CardState.REVIEW and fresh.due == NOW + 2 * DAY
    box4, _ = recall.answered(deck["box4"], True, NOW)  # 17 days since its last review, 10 overdue
    assert box4 is not None and box4.due > NOW + leitner.wait_days(4) * DAY  # remembered late: further
    again, log = recall.answered(deck["box6"], False, NOW)
    assert again is not None and again.state is CardState.RELEARNING and again.due == NOW + 60
    assert log.elapsed_days == 30 and log.recall == pytest.approx(0.9)
    await store.put_review_cards([fresh, box4, again])
    stored = {c.question_id: c for c in await store.review_deck("tg:1")}
    assert (stored["fresh"], stored["box4"], stored["box6"]) == (fresh, box4, again)
