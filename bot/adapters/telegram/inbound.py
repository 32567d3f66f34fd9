"""Telegram, inbound: commands (a file's /upload caption too), polls sent to write a quiz, a
group's move to a supergroup, and the bot added back to a chat, each made a `Commands` call
(presses and typed answers have their own modules: presses.py, typed.py). A mixin of
TelegramAdapter over its sending half.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import Chat, ChatMember, Message, MessageEntity, Update, User
from telegram.constants import ChatID, ChatType
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram import polls, uploads
from bot.adapters.telegram.presses import chat_ref, trouble
from bot.adapters.telegram.presses import player_of as _player
from bot.adapters.telegram.runtime import AdminCache
from bot.adapters.telegram.sending import PLATFORM, TelegramSending
from bot.commands.core import Caller, parse
from bot.commands.table import Command, Rights, command
from bot.domain.model import ChatRef, Player, Reply
from bot.texts.render import t

log = logging.getLogger("quizhost.telegram")

PRESENT = frozenset({ChatMember.MEMBER, ChatMember.ADMINISTRATOR})


def player_of(user: User, sender_chat: Chat | None = None) -> Player:
    """The player behind a message; an anonymous admin is named after the group it posts as."""
    name = user.full_name
    if user.id == ChatID.ANONYMOUS_ADMIN and sender_chat is not None:
        name = sender_chat.effective_name or name
    return _player(user, name)


def budget_holder(player: Player, sender_chat: Chat | None) -> Player:
    """Whose reply budget a command spends: anonymous admins of every group post as one user
    (ANONYMOUS_ADMIN), so theirs is their group's own."""
    if player.user_id == str(ChatID.ANONYMOUS_ADMIN) and sender_chat is not None:
        return replace(player, user_id=f"{player.user_id}@{sender_chat.id}")
    return player


def mentioned(message: Message) -> tuple[Player, ...]:
    """The members a command names: each text mention (a member picked from the list who has no
    username; a @username comes with no id, and the Bot API cannot tell a bot whose it is), then
    the author of the message the command replies to (not a bot, not a forum topic's opening)."""
    users = [e.user for e in message.entities if e.type == MessageEntity.TEXT_MENTION and e.user is not None]
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.forum_topic_created is None:
        users.append(replied.from_user)
    unique = {u.id: u for u in users if not u.is_bot}
    return tuple(_player(u) for u in unique.values())


class UpdateHandlers(TelegramSending):
    """The update handlers of TelegramAdapter but presses and typed answers."""

    admins: AdminCache

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None or self._commands is None:
            return
        parsed = parse(message.text or message.caption or "", self.app.bot.username)  # caption: a file's /upload
        if parsed is None:  # /cmd@SomeOtherBot
            return
        name, args = parsed
        chat, player = chat_ref(message.chat), player_of(message.from_user, message.sender_chat)
        typed = message.text or message.caption or ""
        found = command(name)
        if found is None and not chat.is_private and "@" not in typed.split()[0]:
            return  # in a group, an unknown bare /cmd is probably another bot's
        user, commands = message.from_user, self._commands

        async def work() -> Reply:
            # rights are asked only of commands that have a use for them (a getChatMember call)
            asks = found is not None and found.rights is not Rights.ANYONE
            is_admin = asks and await self._may_configure(message.chat, user, message)
            caller = Caller(chat, player, is_admin, mentions=mentioned(message))
            return await self._carry_out(name, found, args, message, caller)

        asker = Caller(chat, budget_holder(player, message.sender_chat))
        reply = await commands.within_budget(name, args, asker, work)  # a flood costs no admin checks
        if reply is None:  # over the sender's budget: nothing said
            return
        if reply.kind == "link" and not chat.is_private:
            reply = await self._in_private(player, reply)
        await self._send(chat, reply, reply_to=message.message_id, chatter=True)

    async def _carry_out(self, name: str, found: Command | None, args: str, message: Message, caller: Caller) -> Reply:
        assert self._commands is not None
        try:
            if found is not None and found.file is not None:  # /upload: the document sent or replied to
                document = uploads.document_of(message)
                if document is None or not self._commands.may_upload(caller):
                    return await self._commands.handle(name, "", caller)  # usage, or the refusal to non-admins
                return await uploads.upload(self.app.bot, self._commands, caller, document, args)
            if found is not None and found.takes_question and (poll := polls.replied_poll(message)) is not None:
                return await self._commands.suggest_poll(polls.poll_spec(poll), caller)
            return await self._commands.handle(name, args, caller)
        except Exception:
            log.exception("/%s failed in %s", name, caller.chat.key)
            return Reply(trouble(caller.player.language), kind="error")

    async def _on_poll(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None or message.poll is None or self._commands is None:
            return
        chat, player = chat_ref(message.chat), player_of(message.from_user)
        try:
            reply = await self._commands.poll(polls.poll_spec(message.poll), Caller(chat, player, True))
        except Exception:
            log.exception("a poll could not be taken in %s", chat.key)
            reply = Reply(trouble(player.language), kind="error")
        await self._send(chat, reply)

    async def _in_private(self, player: Player, reply: Reply) -> Reply:
        """A link for one person's eyes, asked for in a group: sent to them privately, the group told so."""
        lang = reply.language
        try:
            await self._post(
                ChatRef(PLATFORM, player.user_id, True),
                fmt.reply_html(reply),
                None,
                None,
                "sending a link privately",
                chatter=True,
            )
        except (Forbidden, BadRequest):  # they never opened a private chat with the bot
            return Reply(
                t(lang, "Start a private chat with me first, then send /dashboard here again."),
                language=lang,
                kind="error",
            )
        return Reply(t(lang, "I sent you the link in a private message."), language=lang)

    async def _may_configure(self, chat: Chat, user: User, message: Message | None = None) -> bool:
        if chat.type == ChatType.PRIVATE:
            return True
        if user.id == ChatID.ANONYMOUS_ADMIN and message is not None:
            # Anonymous admins post as the group itself; only admins can be anonymous.
            return message.sender_chat is not None and message.sender_chat.id == chat.id
        return await self.admins.is_admin(self.app.bot, chat.id, user.id)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        update_id = update.update_id if isinstance(update, Update) else None
        log.error(
            "Telegram: handling update %s failed; it is acknowledged, the others go on",
            update_id,
            exc_info=context.error,
        )

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group upgraded to a supergroup gets a new id: its quiz and leaderboard move with it."""
        message = update.effective_message
        if message is None:
            return
        old, new = (
            (message.chat.id, message.migrate_to_chat_id)
            if message.migrate_to_chat_id
            else (message.migrate_from_chat_id, message.chat.id)
        )
        if old and new:
            title = message.chat.title or ""
            await self._move(ChatRef(PLATFORM, str(old), False, title), ChatRef(PLATFORM, str(new), False, title))

    async def _on_my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot is a member (or admin) of a chat again: what was paused there resumes, and the
        chat is told so, once (this update comes once per change of the bot's status)."""
        change = update.my_chat_member
        if change is None or self._commands is None or change.new_chat_member.status not in PRESENT:
            return
        chat = chat_ref(change.chat)
        reply = await self._commands.bot_is_back(chat)
        if reply is not None:
            await self._send(chat, reply)
