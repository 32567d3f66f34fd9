"""Review decks and open reviews: the queries, shared by both stores (as storage/shared/learning.py's).

A card's key is the player, the chat whose own quiz it comes from ('' for a shipped quiz),
the quiz and the question. A player has at most one open review, stored whole at each step
(one row: the cards it asks as JSON), so a press after a restart finds where it stood.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.domain.leitner import ReviewCard, ReviewSessionRow
from bot.domain.model import ChatRef
from storage.shared.statements import Statements

_CARD_COLUMNS = "player_key, quiz_id, question_id, box, due, quiz_chat"  # ReviewCard's order
_SESSION_COLUMNS = (
    "player_key, session_id, platform, chat_id, language, cards, number, right_count, "
    "option_order, message_id, answered"
)


class ReviewQueries(Statements):
    # review decks ------------------------------------------------------------------------

    async def put_review_cards(self, cards: Iterable[ReviewCard]) -> None:
        """Store cards as given (a new card, or an existing one's new box and due time)."""
        args: dict[str, Any] = {}
        rows = []
        for i, c in enumerate(cards):
            args.update(
                {
                    f"p{i}": c.player_key,
                    f"q{i}": c.quiz_id,
                    f"k{i}": c.question_id,
                    f"b{i}": c.box,
                    f"d{i}": c.due,
                    f"c{i}": c.quiz_chat,
                }
            )
            rows.append(f"(:p{i}, :q{i}, :k{i}, :b{i}, :d{i}, :c{i})")
        if not rows:
            return
        await self._change(
            f"INSERT INTO review_cards({_CARD_COLUMNS}) VALUES {', '.join(rows)} "
            "ON CONFLICT (player_key, quiz_chat, quiz_id, question_id) "
            "DO UPDATE SET box = excluded.box, due = excluded.due",
            args,
        )

    async def review_deck(self, player_key: str) -> list[ReviewCard]:
        rows = await self._fetch(
            f"SELECT {_CARD_COLUMNS} FROM review_cards WHERE player_key = :player "
            "ORDER BY due, quiz_chat, quiz_id, question_id",
            {"player": player_key},
        )
        return [ReviewCard(*row) for row in rows]

    async def remove_review_card(self, card: ReviewCard) -> None:
        await self._change(
            "DELETE FROM review_cards WHERE player_key = :player AND quiz_chat = :chat "
            "AND quiz_id = :quiz AND question_id = :question",
            {"player": card.player_key, "chat": card.quiz_chat, "quiz": card.quiz_id, "question": card.question_id},
        )

    # open reviews ------------------------------------------------------------------------

    async def save_review_session(self, row: ReviewSessionRow) -> None:
        """Store the player's open review as it stands now, in place of any other of theirs."""
        values = ", ".join(f":{name.strip()}" for name in _SESSION_COLUMNS.split(","))
        updates = ", ".join(
            f"{n} = excluded.{n}" for n in (c.strip() for c in _SESSION_COLUMNS.split(",")) if n != "player_key"
        )
        cards = [[c.quiz_chat, c.quiz_id, c.question_id, c.box, c.due] for c in row.cards]
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


def _session(row: tuple) -> ReviewSessionRow:
    player_key, session, platform, chat_id, language, cards, number, right, order, message_id, answered = row
    deck = tuple(
        ReviewCard(player_key, quiz_id, question_id, box, due, quiz_chat)
        for quiz_chat, quiz_id, question_id, box, due in json.loads(cards)
    )
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
    f"INSERT INTO review_cards({_CARD_COLUMNS}) SELECT {_CARD_COLUMNS.replace('quiz_chat', ':new')} "
    "FROM review_cards WHERE quiz_chat = :old AND true ON CONFLICT DO NOTHING",
    "DELETE FROM review_cards WHERE quiz_chat = :old",
)
