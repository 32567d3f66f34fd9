"""Typed and numeric answers as messages: to the chat's quiz, to a question the player was sent
to answer in private, or to the player's open /review card.

Telegram cannot ask for text in a group without reading the group (privacy mode), so a typed
question's "Answer" button is a deep link into the private chat with the bot
(`/start answer_<run>_<n>`, tokens.answer_start): the next message the player sends there is
the answer. Which question that is, is kept in the database (AwaitedAnswers): behind a load
balancer the deep link and the message may reach different workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.domain import session
from bot.domain.model import Ack, Reply
from bot.domain.session import Refusal
from bot.domain.tokens import QuestionToken
from bot.engine.review import ReviewDesk
from bot.ports.store import AwaitedAnswers
from bot.texts import render
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.core import Engine

# how long a player sent to answer in private has their next message taken as that answer: past
# the question's close it is refused politely (once), past this it is ordinary chat again
AWAITED_SECONDS = 24 * 3600


class TypedAnswers:
    def __init__(self, engine: Engine, review: ReviewDesk) -> None:
        self.engine, self.review = engine, review

    @property
    def _store(self) -> AwaitedAnswers:
        return self.engine.store

    async def sent_to_answer(self, token: QuestionToken, caller: Caller, lang: str) -> Reply:
        """`/start answer_<run>_<n>` in the private chat: say what to answer; remember it."""
        run = self.engine.run_by_id(token.run_id)
        now = self.engine.clock.now()
        if run is not None and session.check_open(run, token.number, now) is not None:  # over already
            return Reply(render.ack_refused(lang, Refusal.CLOSED), language=lang)
        await self._store.await_answer(caller.player.key, token.run_id, token.number, now, now + AWAITED_SECONDS)
        if run is None:  # another worker's run (or one over): that worker, or the answer, will tell
            text = t(lang, "Send your answer to question {number} as your next message.", number=token.number)
            return Reply(text, language=lang)
        card = session.card(run)  # the question as its card says it, without buttons
        body = render.question_body(card, render.AnswerWay.MESSAGE)  # shown in the private chat
        return Reply(body, title=render.question_title(card), language=card.language)

    async def answer(
        self, caller: Caller, text: str, run_id: int | None, number: int | None, reply_to: str | None
    ) -> Ack | None:
        """The message's answer, or None when it is ordinary chat."""
        key, private = caller.player.key, caller.chat.is_private
        if private and run_id is None:
            awaited = await self._store.awaited_answer(key, self.engine.clock.now())
            if awaited is not None:
                return await self._awaited(caller, text, *awaited)
        ack = await self.engine.answer_text(
            caller.chat, caller.player, text, run_id=run_id, number=number, reply_to=reply_to
        )
        if ack is None and run_id is None and private:
            ack = await self.review.answer_text(caller.player, text)
        return ack

    async def _awaited(self, caller: Caller, text: str, run_id: int, number: int) -> Ack | None:
        """The answer to the question the player was sent to answer here: taken, or refused with
        why (over, answered already: then forgotten, and a review card may take the text; not a
        number: kept, to correct)."""
        ack = await self.engine.answer_text(caller.chat, caller.player, text, run_id=run_id, number=number)
        if ack is not None and ack.retry:
            return ack
        await self._store.forget_awaited_answer(caller.player.key, run_id, number)
        if ack is not None and ack.accepted:
            return ack
        return await self.review.answer_text(caller.player, text) or ack
