"""What an outbox message carries, as JSON a store keeps without reading it.

A message is stored whole (the card, the reveal, the rendered podium) at the moment it
becomes due, so a restart sends exactly what the run meant to send, even after the quiz
file or the standings changed. Pure functions: no I/O.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from bot.domain.model import (
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


def dump_card(card: QuestionCard) -> str:
    return json.dumps(asdict(card), ensure_ascii=False)


def load_card(payload: str) -> QuestionCard:
    return _card(json.loads(payload))


def dump_close(message: MessageRef | None, reveal: Reveal) -> str:
    where = asdict(message) if message is not None else None
    return json.dumps({"message": where, "reveal": asdict(reveal)}, ensure_ascii=False)


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
        QuestionKind(r.get("kind", QuestionKind.CHOICE)),  # messages stored before the kinds have none
        tuple((text, count) for text, count in r.get("responses", ())),
        _media(r.get("explanation_media")),
    )
    return message, reveal


def dump_reply(chat: ChatRef, reply: Reply) -> str:
    return json.dumps({"chat": asdict(chat), "reply": asdict(reply)}, ensure_ascii=False)


def load_reply(payload: str) -> tuple[ChatRef, Reply]:
    data = json.loads(payload)
    reply = dict(data["reply"], buttons=tuple(Button(**b) for b in data["reply"]["buttons"]))
    return ChatRef(**data["chat"]), Reply(**reply)


def _card(c: dict[str, Any]) -> QuestionCard:
    return QuestionCard(
        **dict(
            c,
            chat=ChatRef(**c["chat"]),
            options=tuple(OptionView(**o) for o in c["options"]),
            kind=QuestionKind(c.get("kind", QuestionKind.CHOICE)),
            media=_media(c.get("media")),
        )
    )


def _media(m: dict[str, Any] | None) -> MediaView | None:
    return MediaView(MediaKind(m["kind"]), m["location"], m.get("alt", "")) if m else None
