"""A quiz written in the chat, saved and shared (issue #23): /done stores the draft as the chat's
own quiz through the door an uploaded file goes through (ChatQuizzes: checked, stored, exported as
a file would be), and gives it a share code; a share link opened in a chat adds the quiz there."""

from __future__ import annotations

import secrets
import string
from typing import TYPE_CHECKING, Protocol

from bot.commands.authoring_replies import error
from bot.content import drafts
from bot.content.drafts import Draft
from bot.content.reading import UploadStatus
from bot.domain import tokens
from bot.domain.model import Button, ChatRef, Reply
from bot.domain.records import QuizShare
from bot.ports.store import ChatQuizRecords, QuizDrafts
from bot.texts.i18n import shown
from bot.texts.render import t, tn

if TYPE_CHECKING:
    from bot.commands.authoring import Author
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes

SHARE_PREFIX = "add_"  # /start add_<code>: the "Play in a group" and share links
_CODE_LETTERS = string.ascii_lowercase + string.digits
CODE_LENGTH = 12  # 36^12 codes: a link is not guessed


class ShelfStore(QuizDrafts, ChatQuizRecords, Protocol):
    """The share codes of saved quizzes, and the chat's quizzes whose ids are taken."""


class Shelf:
    def __init__(self, store: ShelfStore, catalog: Catalog, chat_quizzes: ChatQuizzes) -> None:
        self.store, self.catalog, self.chat_quizzes = store, catalog, chat_quizzes

    async def save(self, draft: Draft, who: Author) -> Reply:
        """The draft stored as the chat's own quiz (an error reply: nothing stored)."""
        quiz_id = await self._free_id(who.chat, draft.title)
        about = t(who.lang, "A quiz {name} wrote in the chat.", name=who.player.name)
        data = drafts.quiz_bytes(quiz_id, draft.title, draft.saved_questions(), about, who.lang, draft.saved_rounds())
        outcome = await self.chat_quizzes.upload(who.chat, who.player, f"{quiz_id}.yaml", data)
        if outcome.status is not UploadStatus.STORED:  # checked question by question: not expected
            found = "; ".join(f"{p.where}: {shown(who.lang, p.why, t)}" for p in outcome.problems)
            return error(
                who.lang, t(who.lang, "The quiz could not be saved, the draft is kept: {problems}", problems=found)
            )
        code = "".join(secrets.choice(_CODE_LETTERS) for _ in range(CODE_LENGTH))
        share = await self.store.share_quiz(QuizShare(code, who.chat.key, quiz_id))
        text = tn(
            who.lang,
            "Saved “{title}”: {n} question. /quiz {id} plays it here; forward this message to share it.",
            "Saved “{title}”: {n} questions. /quiz {id} plays it here; forward this message to share it.",
            len(draft.questions),
            title=draft.title,
            id=quiz_id,
        )
        here = Button(t(who.lang, "Play here"), tokens.quiz_pick(quiz_id))
        if not who.chat.is_private:  # saved into the group itself: it plays here
            return Reply(text, buttons=(here,), language=who.lang)
        group = Button(t(who.lang, "Play in a group"), SHARE_PREFIX + share.code, in_group=True)
        copy = Button(t(who.lang, "Copy to my chats"), SHARE_PREFIX + share.code, in_private=True)
        return Reply(text, buttons=(group, here, copy), language=who.lang)

    async def opened(self, code: str, who: Author) -> Reply:
        """A share link opened in a chat: its quiz added there (a group's admins only)."""
        if not (who.chat.is_private or who.is_admin):
            return error(who.lang, t(who.lang, "Only chat admins can add or remove quizzes."))
        share = await self.store.shared_quiz(code)
        row = await self.store.chat_quiz(share.chat_key, share.quiz_id) if share else None
        gone = error(who.lang, t(who.lang, "This link's quiz is not there any more."))
        if share is None or row is None:
            return gone
        outcome = await self.chat_quizzes.upload(who.chat, who.player, f"{share.quiz_id}.yaml", row.content.encode())
        if outcome.quiz is None or outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED):
            return gone
        title = outcome.quiz.title.get(who.lang)
        text = t(
            who.lang, "Added “{title}” to this chat's quizzes: /quiz {id} starts it.", title=title, id=share.quiz_id
        )
        start = Button(t(who.lang, "Start it now"), tokens.quiz_pick(share.quiz_id))
        return Reply(text, buttons=(start,), language=who.lang)

    async def _free_id(self, chat: ChatRef, title: str) -> str:
        """The title's slug, numbered when the catalog or the chat's quizzes have it already."""
        base = drafts.slug(title)
        for n in range(1, 1000):
            candidate = base if n == 1 else f"{base}-{n}"
            taken = self.catalog.named(candidate) or await self.store.chat_quiz(chat.key, candidate)
            if not taken:
                return candidate
        return f"{base}-{secrets.token_hex(4)}"
