"""Typed and numeric answers on Telegram: a reply to the question in the group, or the next
message in the private chat after the question's "Answer" button (a deep link) opened it.

With privacy mode on (BotFather's default) a bot in a group receives commands and replies to
its own messages, nothing else: a reply to the question message is exactly what it gets. The
reply is deleted when the bot may delete messages (it is a group admin with that right), so
the answers stay private until the reveal; the player's acknowledgement goes to their private
chat with the bot when they have one, and nothing is said in the group either way.

The deep link's question is remembered per player in this process; a restart forgets it, and
the player presses "Answer" again (a private chat's own quiz needs no link: its open question
takes the next message).
"""

from __future__ import annotations

import contextlib
import logging
import re

from telegram import Message, Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.presses import chat_ref, player_of
from bot.commands.core import Commands
from bot.domain import tokens
from bot.domain.model import Ack, ChatRef, Player, Reply
from bot.texts import answer_buttons

log = logging.getLogger("quizhost.telegram")

START_PAYLOAD = re.compile(r"qt_[0-9]{1,12}_[0-9]{1,3}")


class TypedAnswers:
    """The typed-answer half of TelegramAdapter (a mixin: it uses the adapter's app and sends)."""

    app: Application
    _commands: Commands | None
    _waiting: dict[str, tokens.QuestionToken]  # player key -> the question their next private message answers

    async def _send(self, chat: ChatRef, reply: Reply, reply_to: int | None = None) -> None:
        raise NotImplementedError

    async def _start_answering(self, chat: ChatRef, player: Player, payload: str, message_id: int) -> bool:
        """`/start qt_<run>_<number>` from a question's "Answer" button: the next message answers it."""
        token = tokens.decode_question(fmt.token_of_payload(payload)) if START_PAYLOAD.fullmatch(payload) else None
        if token is None or token.kind is not tokens.Kind.TEXT or not chat.is_private or self._commands is None:
            return False
        self._waiting[player.key] = token
        lang = await self._commands.engine.language_for(chat, player)
        await self._send(chat, Reply(answer_buttons.send_answer_now(lang, token.number), language=lang), message_id)
        return True

    async def _on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message in the private chat: the answer the "Answer" button asked for, or to the
        private chat's own open typed or numeric question; anything else is left alone."""
        message = update.message
        if message is None or message.from_user is None or not message.text or self._commands is None:
            return
        chat, player = chat_ref(message.chat), player_of(message.from_user)
        waiting = self._waiting.get(player.key)
        ack = await self._commands.engine.answer_text(
            chat,
            player,
            message.text,
            run_id=waiting.run_id if waiting else None,
            number=waiting.number if waiting else None,
        )
        if ack is None:
            return
        if waiting is not None and (ack.accepted or not ack.text):
            self._waiting.pop(player.key, None)
        await self._send(chat, Reply(ack.text, language=ack.language), message.message_id)

    async def _on_group_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A reply in a group to the bot's message: an answer when it replies to the open typed or
        numeric question (the engine tells); removed from the group, acknowledged privately."""
        message = update.message
        if message is None or message.from_user is None or not message.text or self._commands is None:
            return
        replied = message.reply_to_message
        if replied is None or replied.from_user is None or replied.from_user.id != self.app.bot.id:
            return
        chat, player = chat_ref(message.chat), player_of(message.from_user)
        ack = await self._commands.engine.answer_text(chat, player, message.text, reply_to=str(replied.message_id))
        if ack is None:  # ordinary chat in reply to the bot
            return
        await self._keep_private(message, player, ack)

    async def _keep_private(self, message: Message, player: Player, ack: Ack) -> None:
        bot = self.app.bot
        with contextlib.suppress(TelegramError):  # not an admin with the right to delete: it stays
            await bot.delete_message(message.chat.id, message.message_id)
        with contextlib.suppress(TelegramError):  # no private chat with the bot yet: nothing said
            await bot.send_message(int(player.user_id), fmt.escape(ack.text), parse_mode="HTML")
