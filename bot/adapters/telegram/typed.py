"""Typed and numeric answers on Telegram: a reply to the question in the group, or the next
message in the private chat after the question's "Answer" button (a deep link) opened it.

With privacy mode on (BotFather's default) a bot in a group receives commands and replies to
its own messages, nothing else: a reply to the question message is exactly what it gets. The
reply is deleted when the bot may delete messages (it is a group admin with that right), so
the answers stay private until the reveal; the player's acknowledgement goes to their private
chat with the bot when they have one, and nothing is said in the group either way.

The "Answer" button's deep link (`/start answer_<run>_<n>`) is the commands' (bot/commands/
typed.py): they remember which question the player's next private message answers.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

from telegram import Message, Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.limits import CHATTER
from bot.adapters.telegram.presses import chat_ref, player_of
from bot.commands.core import Caller, Commands
from bot.domain.model import Ack, ChatRef, Player, Reply


class Send(Protocol):
    async def __call__(self, chat: ChatRef, reply: Reply, reply_to: int | None = None, chatter: bool = False) -> None:
        """`chatter`: a reply to a user's message (bot/adapters/telegram/sending.py)."""


class TypedReplies:
    """The messages TelegramAdapter receives that may be typed answers: handed to
    `Commands.answer_text`, acknowledged by `send` (or privately, for a group's reply)."""

    def __init__(self, app: Application, commands: Commands, send: Send) -> None:
        self.app, self._commands, self._send = app, commands, send

    async def on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message in the private chat: the answer the "Answer" button asked for, or to the
        private chat's own open question or review card; anything else is left alone."""
        message = update.message
        if message is None or message.from_user is None or not message.text:
            return
        caller = Caller(chat_ref(message.chat), player_of(message.from_user), True)
        ack = await self._commands.answer_text(caller, message.text)
        ack = self._commands.ack_within_budget(caller, ack)  # 1,000 messages to a dead link: one refusal
        if ack is not None:
            await self._send(caller.chat, Reply(ack.text, language=ack.language), message.message_id, chatter=True)

    async def on_group_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A reply in a group to the bot's message: an answer when it replies to the open typed or
        numeric question (the engine tells); removed from the group, acknowledged privately."""
        message = update.message
        if message is None or message.from_user is None or not message.text:
            return
        replied = message.reply_to_message
        if replied is None or replied.from_user is None or replied.from_user.id != self.app.bot.id:
            return
        caller = Caller(chat_ref(message.chat), player_of(message.from_user), False)
        ack = await self._commands.answer_text(caller, message.text, reply_to=str(replied.message_id))
        if ack is not None:  # else ordinary chat in reply to the bot
            await self._keep_private(message, caller.player, self._commands.ack_within_budget(caller, ack))

    async def _keep_private(self, message: Message, player: Player, ack: Ack | None) -> None:
        """`ack`: None when the player's budget has nothing left to say (their message goes all the same)."""
        bot = self.app.bot
        with contextlib.suppress(TelegramError):  # not an admin with the right to delete: it stays
            await bot.delete_message(message.chat.id, message.message_id)
        if ack is None:
            return
        with contextlib.suppress(TelegramError):  # no private chat with the bot yet: nothing said
            text = fmt.escape(ack.text)
            await bot.send_message(int(player.user_id), text, parse_mode="HTML", rate_limit_args=CHATTER)
