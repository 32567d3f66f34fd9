"""The quiz a command names: the chat's own quiz of that id, else the shared one a topic names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.domain.model import ChatRef, Quiz, Reply
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes


class QuizFinder:
    def __init__(self, catalog: Catalog, chat_quizzes: ChatQuizzes) -> None:
        self.catalog, self.chat_quizzes = catalog, chat_quizzes

    async def named(self, chat: ChatRef, topic: str, lang: str) -> Quiz | Reply:
        """The chat's own quiz of that id, else the shared quiz a topic names (the only one
        installed when none is named), or why not."""
        own = await self.chat_quizzes.get(chat.key, topic.strip().casefold()) if topic.strip() else None
        if own is not None:
            return own
        matches = self.catalog.match(topic) if topic.strip() else self.catalog.all()
        quiz = self.catalog.get(matches[0].id) if len(matches) == 1 else None
        if quiz is not None:
            return quiz
        names = ", ".join(q.id for q in self.catalog.all()) or "-"
        return Reply(t(lang, "Name one quiz: {names}.", names=names), language=lang, kind="error")

    async def of_row(self, chat: ChatRef, quiz_id: str) -> Quiz | None:
        """A stored row's quiz: the shared one of that id, else the chat's own."""
        return await self.chat_quizzes.find(chat.key, quiz_id)
