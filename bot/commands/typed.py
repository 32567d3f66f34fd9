"""Typed and numeric answers as messages: to the chat's quiz, to a question the player was sent
to answer in private, or to the player's open /review card.

Telegram cannot ask for text in a group without reading the group (privacy mode), so a typed
question's "Answer" button is a deep link into the private chat with the bot
(`/start answer_<run>_<n>_<proof>`, tokens.answer_start): the next message the player sends there
is the answer. Anyone can open such a link, so it is taken only with its proof (signed,
bot/commands/deeplinks.py) and from a member of the question's group, asked of the platform when
it is opened: a member may forward a real link, and the outsider who opens it is refused with
nothing stored. Which question the next message answers is kept in the database
(AwaitedAnswers): behind a load balancer the deep link and the message may reach different
workers. A player sent to answer in two groups holds both: a message answers the one opened last,
and the player is told which (its number and group), so the next message answers the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from bot.domain import session
from bot.domain.model import Ack, ChatRef, Reply
from bot.domain.records import AwaitedAnswer
from bot.domain.session import Refusal
from bot.domain.tokens import QuestionToken, StartRefusal
from bot.engine.review import ReviewDesk
from bot.ports.chat import ChatAdapter, MembershipUnknown
from bot.ports.store import AwaitedAnswers, WebRecords
from bot.texts import render, render_acks

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.core import Engine
    from bot.ports.clock import Clock

# how long a player sent to answer in private has their next message taken as that answer: past
# the question's close it is refused politely (once), past this it is ordinary chat again
AWAITED_SECONDS = 24 * 3600
Why = Callable[[str], str]  # a refusal's text, in the language given


class TypedStore(AwaitedAnswers, WebRecords, Protocol):
    """What the player was sent to answer; the name of the group it was posted in."""


class TypedAnswers:
    def __init__(
        self, store: TypedStore, engine: Engine, clock: Clock, adapters: Mapping[str, ChatAdapter], review: ReviewDesk
    ) -> None:
        """`engine` takes the answers of runs; `review` of review cards; `adapters` say who is in a group."""
        self._store, self.engine, self.clock = store, engine, clock
        self.adapters, self.review = adapters, review

    async def sent_to_answer(self, asked: QuestionToken | StartRefusal, caller: Caller, lang: str) -> Reply:
        """`/start answer_<run>_<n>_<proof>` in the private chat: say what to answer and remember
        it, or say why not (an old or altered link, the question over, not in its group)."""
        if isinstance(asked, StartRefusal):
            refused = render_acks.link_unsigned(lang) if asked is StartRefusal.UNSIGNED else render.ack_invalid(lang)
            return Reply(refused, language=lang, kind="error")
        run = await self.engine.open_run(asked.run_id, caller.player, asked.number)
        now = self.clock.now()
        closed = Refusal.CLOSED if run is None else session.check_open(run, asked.number, now)
        if run is None or closed is not None:
            return Reply(render.ack_refused(lang, closed), language=lang, kind="error")
        if (outsider := await self._outsider(run.chat, caller)) is not None:
            return Reply(outsider(lang), language=lang, kind="error")
        awaited = AwaitedAnswer(caller.player.key, asked.run_id, asked.number, run.row.chat_key)
        await self._store.await_answer(awaited, now, now + AWAITED_SECONDS)
        card = session.card(run)  # the question as its card says it, without buttons
        body = render.question_body(card, render.AnswerWay.MESSAGE)  # shown in the private chat
        return Reply(body, title=render.question_title(card), language=card.language)

    async def _outsider(self, group: ChatRef, caller: Caller) -> Why | None:
        """Why the caller may not answer the question of `group` (anyone may hold its link, and
        an answer counts on the group's board); None for a member. Asked last: it costs a request."""
        if group.is_private or group.platform != caller.chat.platform:  # another's private quiz, another platform
            return None if group.key == caller.chat.key else render_acks.link_outsider
        try:
            member = await self.adapters[group.platform].is_member(group, caller.player)
        except MembershipUnknown:
            return render_acks.link_unchecked
        return None if member else render_acks.link_outsider

    async def answer(
        self, caller: Caller, text: str, run_id: int | None, number: int | None, reply_to: str | None
    ) -> Ack | None:
        """The message's answer, or None when it is ordinary chat."""
        key, private = caller.player.key, caller.chat.is_private
        if private and run_id is None:
            awaited = await self._store.awaited_answer(key, self.clock.now())
            if awaited is not None:
                return await self._awaited(caller, text, awaited)
        ack = await self.engine.answer_text(
            caller.chat, caller.player, text, run_id=run_id, number=number, reply_to=reply_to
        )
        if ack is None and run_id is None and private:
            ack = await self.review.answer_text(caller.player, text)
        return ack

    async def _awaited(self, caller: Caller, text: str, awaited: AwaitedAnswer) -> Ack | None:
        """The answer to the question the player was last sent to answer here, named (they may
        hold another): taken, or refused with why (over, answered already: then forgotten, and a
        review card may take the text; not a number: kept, to correct)."""
        run_id, number = awaited.run_id, awaited.number
        ack = await self.engine.answer_text(
            caller.chat, caller.player, text, run_id=run_id, number=number, vouched=True
        )
        ack = await self._named(ack, awaited) if ack is not None else None
        if ack is not None and ack.retry:
            return ack
        await self._store.forget_awaited_answer(caller.player.key, run_id, number)
        if ack is not None and ack.accepted:
            return ack
        return await self.review.answer_text(caller.player, text) or ack

    async def _named(self, ack: Ack, awaited: AwaitedAnswer) -> Ack:
        group = await self._store.chat_title(awaited.chat_key)
        return replace(ack, text=f"{ack.text}\n{render_acks.answered_where(ack.language, awaited.number, group)}")
