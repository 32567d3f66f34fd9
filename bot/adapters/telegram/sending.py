"""Telegram, outbound: the chat port's side that posts questions, edits them into their reveals,
and sends replies and messages the engine edits later (a mixin of TelegramAdapter, which holds
the Application). A group that became a supergroup is followed to its new id; a chat the bot
was removed from is ChatUnreachable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from telegram import InlineKeyboardMarkup, LinkPreviewOptions, Message, ReplyKeyboardMarkup, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden
from telegram.ext import Application

from bot.adapters.telegram import cards, polls, runtime
from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.limits import CHATTER, TooLate
from bot.adapters.telegram.photos import PhotoIds
from bot.adapters.telegram.runtime import with_retries
from bot.commands.core import Commands
from bot.domain import tokens
from bot.domain.model import ChatRef, MessageRef, Player, QuestionCard, Reply, Reveal
from bot.ports.chat import ChatUnreachable, MessageRefused

T = TypeVar("T")
Markup = InlineKeyboardMarkup | ReplyKeyboardMarkup | None
PLATFORM = "telegram"
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
log = logging.getLogger("quizhost.telegram")


def _id(chat: ChatRef) -> int | str:
    # An int chat id lets the rate limiter tell groups (negative ids) from private chats.
    return int(chat.chat_id) if chat.chat_id.lstrip("-").isdigit() else chat.chat_id


class TelegramSending:
    """The outbound half of TelegramAdapter (its constructor sets these)."""

    app: Application
    photos: PhotoIds  # the file_ids of the pictures this process uploaded
    _commands: Commands | None
    _ready: asyncio.Event  # the engine may post before the bot has connected

    async def private_chat(self, player: Player) -> ChatRef:
        """A user's private chat with the bot has their id (ports/chat.py PrivateChats)."""
        return ChatRef(PLATFORM, player.user_id, is_private=True)

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        """ports/chat.py ChatAdapter.is_member, asked of Telegram (runtime.is_member)."""
        await self._ready.wait()
        return await runtime.is_member(self.app.bot, _id(group), int(player.user_id))

    async def post_question(self, card: QuestionCard) -> MessageRef:
        await self._ready.wait()
        answer_start = await self._answer_start(card)

        async def post(chat: ChatRef) -> MessageRef:
            message = await cards.post_card(self.app.bot, _id(chat), card, self.photos, answer_start)
            return MessageRef(chat, str(message.message_id))

        try:
            return await self._following_moves(card.chat, post)
        except BadRequest as exc:  # a 400: Telegram refuses this question as it is, every time
            raise MessageRefused(str(exc)) from exc

    async def _answer_start(self, card: QuestionCard) -> str:
        """The signed /start payload of a typed question's "Answer" deep link; "" for other kinds."""
        asked = tokens.decode_question(card.answer_token)
        if asked is None:
            return ""
        assert self._commands is not None  # serve() set it before the engine could post
        return await self._commands.links.answer_start(asked)

    async def _following_moves(self, chat: ChatRef, send: Callable[[ChatRef], Awaitable[T]]) -> T:
        """Send to `chat`; when Telegram says the group became a supergroup, move it and send there.
        A 403 (the bot was removed from the group, or blocked by the user) is ChatUnreachable."""
        try:
            try:
                return await send(chat)
            except ChatMigrated as moved:
                new = ChatRef(chat.platform, str(moved.new_chat_id), chat.is_private, chat.title)
                await self._move(chat, new)
                return await send(new)
        except Forbidden as exc:
            raise ChatUnreachable(chat.key) from exc

    async def _move(self, old: ChatRef, new: ChatRef) -> None:
        assert self._commands is not None
        await self._commands.move_chat(old, new)

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Edit the question into its own reveal (no buttons, the right option, the split, why,
        who scored): one edit, no reply. With no message to edit (deleted), the reveal is posted."""
        await self._ready.wait()
        if message is not None and await self._edit_closed(message, reveal):
            return
        html = fmt.revealed_html(reveal)
        await self._following_moves(reveal.card.chat, lambda to: self._post(to, html, None, None, "posting an answer"))

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        await self._ready.wait()
        await self._send(chat, reply)

    async def post(self, chat: ChatRef, reply: Reply) -> MessageRef:
        """A message the engine edits later (an assignment's progress in its group)."""
        await self._ready.wait()
        html, keyboard = fmt.reply_html(reply), fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        posted = await self._following_moves(chat, lambda to: self._post(to, html, keyboard, None, "posting a message"))
        return MessageRef(replace(chat, chat_id=str(posted.chat_id)), str(posted.message_id))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        await self._ready.wait()
        html, keyboard = fmt.reply_html(reply), fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        try:
            await with_retries(
                lambda: self.app.bot.edit_message_text(
                    html,
                    chat_id=_id(message.chat),
                    message_id=int(message.message_id),
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                    link_preview_options=NO_PREVIEW,
                ),
                "editing a message",
            )
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():  # else an earlier try landed
                raise
        except Forbidden as exc:
            raise ChatUnreachable(message.chat.key) from exc

    async def _edit_closed(self, message: MessageRef, reveal: Reveal) -> bool:
        """True once Telegram took the edit. An edit is idempotent: a failure that leaves open
        whether it landed raises, and the outbox tries again until Telegram answers; "message is
        not modified" is that answer (an earlier try landed). False: the message cannot be edited."""
        try:
            await cards.edit_closed(self.app.bot, _id(message.chat), int(message.message_id), reveal, self.photos)
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.warning("could not edit question %s in %s: %s", message.message_id, message.chat.key, exc)
            return False
        except Forbidden as exc:
            raise ChatUnreachable(message.chat.key) from exc
        return True

    async def _send(self, chat: ChatRef, reply: Reply, reply_to: int | None = None, chatter: bool = False) -> None:
        """`chatter`: a reply to a user's command or message, sent in the bot's share for those
        (limits.py CHATTER), so a quiz's own messages never queue behind them."""
        # Telegram has no message only one member sees: in a group, a refusal answers the
        # command it refuses, so it is clear whom it is for.
        target = reply_to if reply_to is not None and not chat.is_private else None
        html = fmt.reply_html(reply)
        keyboard: Markup = fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        if reply.poll_button and chat.is_private:  # a quiz being written: Telegram's poll composer at hand
            keyboard = polls.composer(reply.poll_button)
        try:
            await self._following_moves(chat, lambda to: self._post(to, html, keyboard, target, "replying", chatter))
        except TooLate as exc:  # a group busy with its quiz's minute
            log.info("%s", exc)

    async def _post(
        self, chat: ChatRef, html: str, keyboard: Markup, reply_to: int | None, what: str, chatter: bool = False
    ) -> Message:
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
        return await with_retries(
            lambda: self.app.bot.send_message(
                _id(chat),
                html,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
                reply_parameters=reply,
                link_preview_options=NO_PREVIEW,
                rate_limit_args=CHATTER if chatter else None,
            ),
            what,
            once=True,
        )
