"""Review decks and open reviews: the queries, shared by both stores (as storage/shared/learning.py's).

A card's key is the player, the chat whose own quiz it comes from ('' for a shipped quiz),
the quiz and the question. A player has at most one open review, stored whole at each step
(one row: the cards it asks as JSON), so a press after a restart finds where it stood.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.domain import leitner
from bot.domain.deck import CardState, Grade, ReviewCard, ReviewLogRow, ReviewSessionRow
from bot.domain.model import ChatRef
from storage.shared.statements import Statements

# ReviewCard's order
CARD_COLUMNS = "player_key, quiz_id, question_id, due, quiz_chat, state, step, stability, difficulty, last_review"
CARD_KEY = "player_key, quiz_chat, quiz_id, question_id"
# a stored card's memory state and due time, as a later grade changes them
CARD_UPDATES = ", ".join(f"{n} = excluded.{n}" for n in CARD_COLUMNS.split(", ")[3:] if n != "quiz_chat")
LOG_COLUMNS = "player_key, quiz_chat, quiz_id, question_id, reviewed_at, grade, elapsed_days, recall"  # ReviewLogRow's
_SESSION_COLUMNS = (
    "player_key, session_id, platform, chat_id, language, cards, number, right_count, "
    "option_order, message_id, answered"
)


class ReviewQueries(Statements):
    # review decks ------------------------------------------------------------------------

    async def put_review_cards(self, cards: Iterable[ReviewCard]) -> None:
        """Store cards as given (a new card, or an existing one's new memory state and due time)."""
        names = [n.strip() for n in CARD_COLUMNS.split(",")]
        args, rows = _values(names, [card_values(c) for c in cards])
        if not rows:
            return
        await self._change(
            f"INSERT INTO review_cards({CARD_COLUMNS}) VALUES {rows} "
            f"ON CONFLICT ({CARD_KEY}) DO UPDATE SET {CARD_UPDATES}",
            args,
        )

    async def review_deck(self, player_key: str) -> list[ReviewCard]:
        rows = await self._fetch(
            f"SELECT {CARD_COLUMNS} FROM review_cards WHERE player_key = :player "
            "ORDER BY due, quiz_chat, quiz_id, question_id",
            {"player": player_key},
        )
        return [_card(row) for row in rows]

    async def remove_review_card(self, card: ReviewCard) -> None:
        await self._change(
            "DELETE FROM review_cards WHERE player_key = :player AND quiz_chat = :chat "
            "AND quiz_id = :quiz AND question_id = :question",
            {"player": card.player_key, "chat": card.quiz_chat, "quiz": card.quiz_id, "question": card.question_id},
        )

    async def add_review_log(self, rows: Iterable[ReviewLogRow]) -> None:
        names = [n.strip() for n in LOG_COLUMNS.split(",")]
        args, values = _values(names, [log_values(r) for r in rows])
        if values:
            await self._change(f"INSERT INTO review_log({LOG_COLUMNS}) VALUES {values}", args)

    async def review_log(self) -> list[ReviewLogRow]:
        rows = await self._fetch(f"SELECT {LOG_COLUMNS} FROM review_log ORDER BY reviewed_at, id", {})
        return [ReviewLogRow(p, c, q, k, at, Grade(grade), elapsed, r) for p, c, q, k, at, grade, elapsed, r in rows]

    # open reviews ------------------------------------------------------------------------

    async def save_review_session(self, row: ReviewSessionRow) -> None:
        """Store the player's open review as it stands now, in place of any other of theirs."""
        values = ", ".join(f":{name.strip()}" for name in _SESSION_COLUMNS.split(","))
        updates = ", ".join(
            f"{n} = excluded.{n}" for n in (c.strip() for c in _SESSION_COLUMNS.split(",")) if n != "player_key"
        )
        cards = [list(card_values(c)[1:]) for c in row.cards]
        await self._change(
            f"INSERT INTO review_sessions({_SESSION_COLUMNS}) VALUES ({values}) "
            f"ON CONFLICT (player_key) DO UPDATE SET {updates}",
            {
                "player_key": row.player_key,
                "session_id": row.session,
                "platform": row.chat.platform,
                "chat_id": row.chat.chat_id,
                "language": row.language,
                "cards": json.dumps(cards),
                "number": row.number,
                "right_count": row.right,
                "option_order": json.dumps(list(row.order)),
                "message_id": row.message_id,
                "answered": int(row.answered),
            },
        )

    async def review_session(self, player_key: str) -> ReviewSessionRow | None:
        rows = await self._fetch(
            f"SELECT {_SESSION_COLUMNS} FROM review_sessions WHERE player_key = :player", {"player": player_key}
        )
        return _session(rows[0]) if rows else None

    async def end_review_session(self, player_key: str, session: int) -> None:
        """The review is over; a newer one of the player's stays."""
        await self._change(
            "DELETE FROM review_sessions WHERE player_key = :player AND session_id = :session",
            {"player": player_key, "session": session},
        )


def card_values(c: ReviewCard) -> tuple[object, ...]:
    return (
        c.player_key,
        c.quiz_id,
        c.question_id,
        c.due,
        c.quiz_chat,
        int(c.state),
        c.step,
        c.stability,
        c.difficulty,
        c.last_review,
    )


def log_values(r: ReviewLogRow) -> tuple[object, ...]:
    return (*r.card_key, r.reviewed_at, int(r.grade), r.elapsed_days, r.recall)


def _card(row: Sequence[Any]) -> ReviewCard:
    player, quiz, question, due, chat, state, step, stability, difficulty, last_review = row
    return ReviewCard(player, quiz, question, due, chat, CardState(state), step, stability, difficulty, last_review)


def _values(names: list[str], rows: list[tuple[object, ...]]) -> tuple[dict[str, Any], str]:
    """Parameters and the VALUES list of a multi-row INSERT of `rows` into columns `names`."""
    args = {f"{name}{i}": value for i, row in enumerate(rows) for name, value in zip(names, row, strict=True)}
    values = ", ".join("(" + ", ".join(f":{name}{i}" for name in names) + ")" for i in range(len(rows)))
    return args, values


def _session(row: tuple) -> ReviewSessionRow:
    player_key, session, platform, chat_id, language, cards, number, right, order, message_id, answered = row
    deck = tuple(_card((player_key, *card)) for card in json.loads(cards))
    return ReviewSessionRow(
        player_key,
        session,
        ChatRef(platform, chat_id, True),
        language,
        deck,
        number,
        right,
        tuple(json.loads(order)),
        message_id,
        bool(answered),
    )


# A chat that changes its id (storage/sqlite/moves.py, storage/postgres/moves.py): the cards of its own
# quizzes follow them. Parameters :old and :new.
REVIEW_MOVE_STATEMENTS: tuple[str, ...] = (
    f"INSERT INTO review_cards({CARD_COLUMNS}) SELECT {CARD_COLUMNS.replace('quiz_chat', ':new')} "
    "FROM review_cards WHERE quiz_chat = :old AND true ON CONFLICT DO NOTHING",
    "DELETE FROM review_cards WHERE quiz_chat = :old",
    "UPDATE review_log SET quiz_chat = :new WHERE quiz_chat = :old",
)


# The move from Leitner boxes to FSRS (storage/sqlite/schema.py, storage/postgres/schema.py): every card
# stays, due when it was, with the memory state FSRS would give a card so scheduled. Every card entered
# the deck through a miss, so its difficulty is FSRS's first difficulty after Again (w4 = 6.4133 in
# FSRS-6's default parameters). Box 1 (just missed, or wrong in its last review: due at once) becomes
# what a miss makes now (bot/engine/recall.py): learning step 0, stability w0 = 0.212 days, last
# reviewed when it fell due. Boxes 2 to 6 (right in their last review, due after 1 to 30 days) become
# REVIEW cards last reviewed that wait before their due time, with the wait as their stability: the
# days until FSRS predicts 90% recall, the retention it schedules for, so FSRS would have set the
# same due time. Open reviews end (their stored cards had boxes): the next /review starts afresh.
FIRST_STABILITY_AFTER_AGAIN = 0.212
FIRST_DIFFICULTY_AFTER_AGAIN = 6.4133
_WAITS = " ".join(f"WHEN {box} THEN {days}" for box, days in enumerate(leitner.WAIT_DAYS, start=1) if days)
_LOG = """
    CREATE TABLE review_log (
        id {id},
        player_key {key} NOT NULL,
        quiz_chat {key} NOT NULL,
        quiz_id {key} NOT NULL,
        question_id {key} NOT NULL,
        reviewed_at {real} NOT NULL,
        grade INTEGER NOT NULL,  -- FSRS's rating: 1 Again (wrong, or a miss in a quiz), 3 Good (right)
        elapsed_days {real},  -- since the card's previous grade; NULL: its first since it entered the deck
        recall {real}  -- the recall FSRS predicted just before; NULL without a previous grade
    );
    CREATE INDEX review_log_by_time ON review_log(reviewed_at);
"""


def fsrs_migration(key: str, real: str, log_id: str, table_options: str = "") -> str:
    """The migration in one database's types; `log_id` the log's id column type and key."""
    return f"""
    CREATE TABLE review_cards_fsrs (
        player_key {key} NOT NULL,
        quiz_chat {key} NOT NULL DEFAULT '',
        quiz_id {key} NOT NULL,
        question_id {key} NOT NULL,
        due {real} NOT NULL,
        state INTEGER NOT NULL,  -- 1 learning, 2 review, 3 relearning (fsrs.State)
        step INTEGER,  -- the learning or relearning step; NULL in review
        stability {real},  -- days until predicted recall falls to 90%
        difficulty {real},  -- 1 to 10
        last_review {real},
        PRIMARY KEY (player_key, quiz_chat, quiz_id, question_id)
    ){table_options};
    INSERT INTO review_cards_fsrs
        SELECT player_key, quiz_chat, quiz_id, question_id, due,
            CASE WHEN box <= {leitner.FIRST_BOX} THEN {int(CardState.LEARNING)} ELSE {int(CardState.REVIEW)} END,
            CASE WHEN box <= {leitner.FIRST_BOX} THEN 0 END,
            CASE box {_WAITS} ELSE {FIRST_STABILITY_AFTER_AGAIN} END,
            {FIRST_DIFFICULTY_AFTER_AGAIN},
            due - 86400 * CASE box {_WAITS} ELSE 0 END
        FROM review_cards;
    DROP TABLE review_cards;
    ALTER TABLE review_cards_fsrs RENAME TO review_cards;
    DELETE FROM review_sessions;
    {_LOG.format(id=log_id, key=key, real=real)}
    """
