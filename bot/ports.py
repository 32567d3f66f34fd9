"""The port an adapter fills: how the engine reaches a chat platform."""
from __future__ import annotations

from typing import Protocol

from bot.model import ChatRef, MessageRef, QuestionCard, Reply, Reveal


class ChatAdapter(Protocol):
    platform: str

    async def post_question(self, card: QuestionCard) -> MessageRef:
        """Post the question with one button per option; the buttons carry the option tokens."""

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Take the live buttons off the question and reply with the right answer and why."""

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        """Post a message the engine decides on its own (the podium, an ended run)."""
