"""Typed and numeric answers as messages: to the chat's quiz, to a question the player was sent
to answer in private, or to the player's open /review card.

Telegram cannot ask for text in a group without reading the group (privacy mode), so a typed
question's "Answer" button is a deep link into the private chat with the bot
(`/start answer_<run>_<n>`, tokens.answer_start): the next message the player sends there is
the answer. Which question that is, is kept here in memory: a player sent there by one worker
whose next message reaches another worker is asked to press the button again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.domain import session
from bot.domain.model import Ack, Reply
from bot.domain.tokens import QuestionToken
from bot.engine.review import ReviewDesk
from bot.texts import render
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.core import Engine

MAX_AWAITED = 100_000  # players sent to answer in private at once; a miss only asks them to press again


class TypedAnswers:
    def __init__(self, engine: Engine, review: ReviewDesk) -> None:
        self.engine, self.review = engine, review
        self._awaited: dict[str, QuestionToken] = {}  # player key -> the question their next message answers

    def sent_to_answer(self, token: QuestionToken, caller: Caller, lang: str) -> Reply:
        """`/start answer_<run>_<n>` in the private chat: say what to answer; remember it."""
        if len(self._awaited) >= MAX_AWAITED:
            self._awaited.clear()
        self._awaited[caller.player.key] = token
        run = self.engine.run_by_id(token.run_id)
        if run is None or not self._still_open(token):  # another worker's run, or over
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
        awaited = self._awaited.get(key) if private and run_id is None else None
        if awaited is not None:
            run_id, number = awaited.run_id, awaited.number
        ack = await self.engine.answer_text(
            caller.chat, caller.player, text, run_id=run_id, number=number, reply_to=reply_to
        )
        if awaited is not None and ack is not None and (ack.accepted or not self._still_open(awaited)):
            del self._awaited[key]  # answered, or over: a refusal it may correct (not a number) keeps it
        if ack is None and run_id is None and private:
            ack = await self.review.answer_text(caller.player, text)
        return ack

    def _still_open(self, token: QuestionToken) -> bool:
        run = self.engine.run_by_id(token.run_id)
        return run is not None and run.is_asking and run.row.index + 1 == token.number
