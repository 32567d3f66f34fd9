"""What an outbox message carries, as JSON a store keeps without reading it.

A message is stored whole (the card, the reveal, the rendered podium) at the moment it
becomes due, so a restart sends exactly what the run meant to send, even after the quiz
file or the standings changed. The process that made a message sends the objects it made it
from (`OutboxMessage.made`, `card_of` and the rest): reading a 50-answer reveal back took 106 µs
of the loop a close. Pure functions: no I/O.

Dumped field by field from each object's own attributes (`vars`), not with
`dataclasses.asdict`, which walks and deep-copies every value: a close's reveal names every
answerer, and at 50 of them `asdict` took 0.8 ms of the event loop per close, a stall for
every press when many questions close at one deadline (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import json
from typing import Any

from bot.domain.model import (
    DEFAULT_KIND,
    Button,
    ChatRef,
    MediaKind,
    MediaView,
    MessageRef,
    OptionView,
    QuestionCard,
    QuestionKind,
    Reply,
    Reveal,
    Scorer,
)
from bot.domain.records import OutboxMessage


def card_of(message: OutboxMessage) -> QuestionCard:
    """A question message's card: as this process made it, else read from its payload."""
    return message.made if message.made is not None else load_card(message.payload)


def close_of(message: OutboxMessage) -> tuple[MessageRef | None, Reveal]:
    return message.made if message.made is not None else load_close(message.payload)


def reply_of(message: OutboxMessage) -> tuple[ChatRef, Reply]:
    return message.made if message.made is not None else load_reply(message.payload)


def dump_card(card: QuestionCard) -> str:
    return json.dumps(_plain_card(card), ensure_ascii=False)


def load_card(payload: str) -> QuestionCard:
    return _card(json.loads(payload))


def dump_close(message: MessageRef | None, reveal: Reveal) -> str:
    where = {**vars(message), "chat": vars(message.chat)} if message is not None else None
    plain = {
        **vars(reveal),
        "card": _plain_card(reveal.card),
        "answers": [vars(s) for s in reveal.answers],
        "explanation_media": _plain_media(reveal.explanation_media),
    }
    return json.dumps({"message": where, "reveal": plain}, ensure_ascii=False)


def load_close(payload: str) -> tuple[MessageRef | None, Reveal]:
    data = json.loads(payload)
    where, r = data["message"], data["reveal"]
    message = MessageRef(ChatRef(**where["chat"]), where["message_id"]) if where else None
    reveal = Reveal(
        _card(r["card"]),
        r["right_letter"],
        r["right_text"],
        r["explanation"],
        tuple(r["counts"]),
        tuple(Scorer(**s) for s in r["answers"]),
        r.get("note", ""),
        QuestionKind(r.get("kind", DEFAULT_KIND)),  # messages stored before the kinds have none
        tuple((text, count) for text, count in r.get("responses", ())),
        _media(r.get("explanation_media")),
        tuple(r.get("teams", ())),  # messages stored before teams have none
        r.get("timed", True),  # messages stored before accuracy scoring were all timed
    )
    return message, reveal


def dump_reply(chat: ChatRef, reply: Reply) -> str:
    plain = {**vars(reply), "buttons": [vars(b) for b in reply.buttons]}
    return json.dumps({"chat": vars(chat), "reply": plain}, ensure_ascii=False)


def load_reply(payload: str) -> tuple[ChatRef, Reply]:
    data = json.loads(payload)
    reply = dict(data["reply"], buttons=tuple(Button(**b) for b in data["reply"]["buttons"]))
    return ChatRef(**data["chat"]), Reply(**reply)


def _plain_card(card: QuestionCard) -> dict[str, Any]:
    return {
        **vars(card),
        "chat": vars(card.chat),
        "options": [vars(o) for o in card.options],
        "media": _plain_media(card.media),
    }


def _plain_media(media: MediaView | None) -> dict[str, Any] | None:
    return vars(media) if media is not None else None


def _card(c: dict[str, Any]) -> QuestionCard:
    return QuestionCard(
        **dict(
            c,
            chat=ChatRef(**c["chat"]),
            options=tuple(OptionView(**o) for o in c["options"]),
            kind=QuestionKind(c.get("kind", DEFAULT_KIND)),
            media=_media(c.get("media")),
        )
    )


def _media(m: dict[str, Any] | None) -> MediaView | None:
    return MediaView(MediaKind(m["kind"]), m["location"], m.get("alt", "")) if m else None
