"""Review decks and open reviews in the store: a card is keyed by the chat whose own quiz it
comes from too, a player has one open review, and cards stored before chats were recorded
stay valid after the migration."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable

import asyncpg

from bot.domain.deck import DAY, CardState, Grade, ReviewCard, ReviewLogRow, ReviewSessionRow
from bot.domain.model import ChatRef
from bot.engine import recall
from storage.postgres import schema as pg_schema
from storage.sqlite import schema
from tests.contract.stores.conftest import IMPLEMENTATIONS
from tests.contract.stores.rows import stored_run

DM = ChatRef("test", "u1", is_private=True)


def remembered(player: str, quiz: str, question: str, due: float, chat: str = "", stability: float = 3.0) -> ReviewCard:
    """A card answered right in its last review, due `stability` days after it."""
    return ReviewCard(player, quiz, question, due, chat, CardState.REVIEW, None, stability, 5.5, due - stability * DAY)


async def test_one_card_per_question_and_source_chat_and_removed_ones_go(store):
    await store.put_review_cards(
        [
            ReviewCard("tg:1", "pipeline", "q1", 100.0),
            ReviewCard("tg:1", "pipeline", "q2", 100.0),
            ReviewCard("tg:2", "pipeline", "q1", 100.0),
        ]
    )
    await store.put_review_cards([remembered("tg:1", "pipeline", "q1", 500.0, "", 6.0)])
    await store.remove_review_card(ReviewCard("tg:1", "pipeline", "q2", 100.0))
    assert await store.review_deck("tg:1") == [remembered("tg:1", "pipeline", "q1", 500.0, "", 6.0)]
    assert len(await store.review_deck("tg:2")) == 1


async def test_two_chats_quizzes_of_one_id_are_two_cards(store):
    a = ReviewCard("tg:1", "capitals", "q1", 10.0, "tg:-1")
    b = ReviewCard("tg:1", "capitals", "q1", 20.0, "tg:-2")
    await store.put_review_cards([a, b])
    assert await store.review_deck("tg:1") == [a, b]
    await store.put_review_cards([remembered("tg:1", "capitals", "q1", 90.0, "tg:-1", 4.0)])
    await store.remove_review_card(b)
    assert await store.review_deck("tg:1") == [remembered("tg:1", "capitals", "q1", 90.0, "tg:-1", 4.0)]


async def test_a_moved_chat_takes_the_cards_of_its_own_quizzes_along(store):
    card = remembered("test:1", "capitals", "q1", 10.0, "test:old", 4.0)
    await store.put_review_cards([card, ReviewCard("test:1", "pipeline", "q1", 10.0)])
    await store.ensure_chat(ChatRef("test", "old"))
    await store.move_chat("test:old", ChatRef("test", "new"))
    assert sorted((c.quiz_chat, c.quiz_id) for c in await store.review_deck("test:1")) == [
        ("", "pipeline"),
        ("test:new", "capitals"),
    ]


def session(number: int = 0, **changes) -> ReviewSessionRow:
    cards = (ReviewCard("test:1", "pipeline", "q1", 5.0), remembered("test:1", "capitals", "q2", 6.5, "test:g", 6.0))
    return ReviewSessionRow("test:1", 123456789, DM, "hi", cards, number, **changes)


async def test_an_open_review_survives_a_restart_and_a_new_one_replaces_it(store_factory):
    store = await store_factory.open()
    assert await store.review_session("test:1") is None
    await store.save_review_session(session())
    asked = session(2, right=1, order=(2, 0, 1, 3), message_id="77", answered=True)
    await store.save_review_session(asked)
    store = await store_factory.restart(store)
    assert await store.review_session("test:1") == asked
    newer = ReviewSessionRow("test:1", 5, DM, "en", (), 0)
    await store.save_review_session(newer)
    await store.end_review_session("test:1", 123456789)  # the old one ending leaves the new one
    assert await store.review_session("test:1") == newer
    assert await store.review_session("test:2") is None
    await store.end_review_session("test:1", 5)
    assert await store.review_session("test:1") is None


def _before_review_sessions(migrations: tuple[str, ...]) -> int:
    """How many migrations ran before the one that keyed cards by chat."""
    return next(i for i, script in enumerate(migrations) if "review_sessions" in script)


async def database_at(store_factory, before: Callable[[tuple[str, ...]], int], statements: list[str]) -> None:
    """The store's empty database with the migrations before `before(its migrations)` run, then `statements`."""
    database = store_factory.database
    if store_factory.implementation is IMPLEMENTATIONS["sqlite"]:
        count = before(schema.MIGRATIONS)
        with sqlite3.connect(database) as db:
            for script in schema.MIGRATIONS[:count]:
                db.executescript(script)
            for sql in statements:
                db.execute(sql)
            db.execute(f"PRAGMA user_version={count}")
        return
    count = before(pg_schema.MIGRATIONS)
    conn = await asyncpg.connect(database)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(pg_schema.MIGRATIONS[:count], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_version(version) VALUES ($1)", number)
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


async def test_cards_stored_before_the_migration_stay_in_the_deck(store_factory):
    """The schema just before cards named their chat, with one card in it (in box 2: the FSRS
    migration after it gives it a day's stability, a day before its due time)."""
    card = (
        "INSERT INTO review_cards(player_key, quiz_id, question_id, box, due) VALUES ('tg:1', 'pipeline', 'q1', 2, 9.5)"
    )
    await database_at(store_factory, _before_review_sessions, [card])
    store = await store_factory.open()
    assert await store.review_deck("tg:1") == [
        ReviewCard("tg:1", "pipeline", "q1", 9.5, "", CardState.REVIEW, None, 1.0, 6.4133, 9.5 - DAY)
    ]


async def test_the_log_keeps_every_grade_in_order_and_follows_a_moved_chat(store):
    rows = [
        ReviewLogRow("test:1", "test:old", "capitals", "q1", 100.0, Grade.AGAIN, None, None),
        ReviewLogRow("test:1", "", "pipeline", "q1", 50.0, Grade.AGAIN, None, None),
        ReviewLogRow("test:1", "test:old", "capitals", "q1", 100.0 + DAY, Grade.GOOD, 1.0, 0.62),
    ]
    await store.add_review_log(rows[:2])
    await store.add_review_log(rows[2:])
    await store.add_review_log([])
    assert await store.review_log() == [rows[1], rows[0], rows[2]]
    await store.ensure_chat(ChatRef("test", "old"))
    await store.move_chat("test:old", ChatRef("test", "new"))
    assert [r.quiz_chat for r in await store.review_log()] == ["", "test:new", "test:new"]


async def test_a_close_stores_its_misses_cards_and_log_with_its_state_and_a_later_miss_restarts_a_card(store):
    row = await stored_run(store)
    known = remembered("test:2", "pipeline", "q1", 500.0)
    await store.put_review_cards([known])
    first = recall.misses(["test:1", "test:2"], "pipeline", "q1", 1000.0)
    second = recall.misses(["test:1"], "pipeline", "q2", 1030.0)
    row.index = 1
    # two closes queued together ride in one transaction, the later state winning
    await asyncio.gather(store.save_run(row, missed=first), store.save_run(row, missed=second))
    assert (await store.open_runs())[0].index == 1
    assert await store.review_deck("test:1") == [first[0][0], second[0][0]]
    # the remembered card starts over: due at once, the miss its first grade
    assert await store.review_deck("test:2") == [first[1][0]]
    assert await store.review_log() == [first[0][1], first[1][1], second[0][1]]
    # the same card missed twice in one batch (one player in two chats playing one quiz): the later wins
    again = [recall.misses(["test:1"], "pipeline", "q2", at) for at in (1060.0, 1090.0)]
    await asyncio.gather(*(store.save_run(row, missed=misses) for misses in again))
    assert [c.due for c in await store.review_deck("test:1")] == [1000.0, 1090.0]
    assert [r.reviewed_at for r in await store.review_log()][-2:] == [1060.0, 1090.0]


async def test_a_close_s_misses_held_once_store_each_player_s_card_and_log_row_as_one_by_one(store):
    """The engine hands a close's misses as one `Misses` (one card and log row for all, and the
    keys): each player's card and row are stored as `recall.missed` would make them."""
    row = await stored_run(store)
    await store.put_review_cards([remembered("test:2", "pipeline", "q1", 500.0)])
    first = recall.misses(["test:1", "test:2"], "pipeline", "q1", 1000.0)
    second = recall.misses(["test:1"], "pipeline", "q2", 1030.0, "test:c")
    assert list(first) == [recall.missed(p, "pipeline", "q1", 1000.0) for p in ("test:1", "test:2")]
    row.index = 1
    await asyncio.gather(store.save_run(row, missed=first), store.save_run(row, missed=second))
    assert (await store.open_runs())[0].index == 1
    assert await store.review_deck("test:1") == [first[0][0], second[0][0]]
    assert await store.review_deck("test:2") == [first[1][0]]  # the remembered card starts over
    assert await store.review_log() == [first[0][1], first[1][1], second[0][1]]
    # the same card missed twice in one batch (one player in two chats playing one quiz): the later wins
    again = [recall.misses(["test:1"], "pipeline", "q1", at) for at in (1060.0, 1090.0)]
    await asyncio.gather(*(store.save_run(row, missed=misses) for misses in again))
    await store.save_run(row, missed=recall.misses([], "pipeline", "q3", 1100.0))  # nobody missed it
    assert [c.due for c in await store.review_deck("test:1")] == [1030.0, 1090.0]
    assert [r.reviewed_at for r in await store.review_log()][-2:] == [1060.0, 1090.0]
