"""What an interaction asks for, answered the same way from the gateway and from the endpoint.

A slash command becomes `Commands.handle` calls, a press of one of our buttons `Commands.press`;
the result (an Ack or a Reply) is shown by whichever path the interaction came on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass

import aiohttp
import discord

from bot.adapters.discord.asked import PLATFORM, Asker
from bot.commands.authoring import FORM_NEW, FORM_SUGGESTED
from bot.commands.budget import slow_down
from bot.commands.core import Caller, Commands
from bot.commands.table import Rights, command
from bot.content.catalog import Catalog
from bot.content.drafts import QuestionForm
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain import tokens
from bot.domain.model import Ack, ChatRef, Player, Quiz, Reply
from bot.ports.chat import ChatUnreachable, MembershipUnknown
from bot.texts.i18n import t
from bot.texts.render import REVIEW_START
from bot.texts.textcut import clean

log = logging.getLogger("quizhost.discord")

# The channel (its chat key) a button that continues in a DM was pressed in, while its /start
# runs there: Discord shows a channel's buttons only to its server's members, so a Start pressed
# in the assignment's own channel needs no Get Guild Member (is_member). A class pressing Start
# together asked one each, all on one rate-limited route.
PRESSED_IN: ContextVar[str | None] = ContextVar("discord_pressed_in", default=None)


@dataclass(frozen=True, slots=True)
class FormOpening:
    """A question's form to show (bot/adapters/discord/forms.py): FORM_NEW, FORM_SUGGESTED or the
    id of the draft's question it edits, with that question's fields."""

    lang: str
    target: str
    defaults: QuestionForm | None


@dataclass(frozen=True, slots=True)
class FileOffer:
    """A file attached to /upload: fetched only once it may be accepted."""

    filename: str
    size: int
    read: Callable[[], Awaitable[bytes]]


class Handling:
    """The command and press half of DiscordAdapter (a mixin: it uses the adapter's client and send)."""

    client: discord.Client | None
    _commands: Commands | None

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        raise NotImplementedError

    def _engine_commands(self) -> Commands:
        if self._commands is None:
            raise RuntimeError("serve(commands) has not been called")
        return self._commands

    async def handle_command(self, asker: Asker, name: str, args: tuple[str, ...]) -> Reply:
        """The command's reply within the user's budget (bot/commands/budget.py). Discord needs
        every interaction answered (else "The application did not respond"), and an ephemeral
        answer costs nothing of the bot's limits and is seen by nobody else: over the budget, the
        command is not carried out and its answer is the slow-down, for the user alone."""
        commands, caller = self._engine_commands(), asker.caller(_moderated(name))

        async def work() -> Reply:
            return await self._carried_out(asker, name, args, caller)

        reply = await commands.within_budget(name, " ".join(args), caller, work)
        if reply is None:
            lang = await commands.language_for(caller.chat, caller.player)
            seconds = commands.budgets.seconds_to_next(caller.player.key)
            return Reply(slow_down(lang, seconds), language=lang, kind="error", private=True)
        return reply

    async def _carried_out(self, asker: Asker, name: str, args: tuple[str, ...], caller: Caller) -> Reply:
        reply = None
        if (found := command(name)) is not None and found.posts and (refusal := await self._cannot_post(asker)):
            return refusal
        for arg in args or ("",):  # /settings time 20 pause 3 is two changes for the commands layer
            reply = await self._engine_commands().handle(name, arg, caller)
            if reply.kind == "error":
                break
        assert reply is not None
        return reply

    async def handle_upload(self, asker: Asker, offer: FileOffer) -> Reply:
        """/upload file: an admin's attachment, fetched only when it may be accepted (1 MB)."""
        commands, caller = self._engine_commands(), asker.caller()
        if not commands.may_upload(caller):
            return await commands.upload(caller, offer.filename, b"")  # the refusal, nothing fetched
        if offer.size > MAX_FILE_BYTES:
            return await commands.upload(caller, offer.filename, b"", size=offer.size)
        return await commands.upload(caller, offer.filename, await offer.read())

    def catalog(self) -> Catalog:
        return self._engine_commands().shared_quizzes()

    async def own_quizzes(self, asker: Asker) -> list[Quiz]:
        """The quizzes uploaded in the asker's channel, for its autocomplete."""
        return await self._engine_commands().own_quizzes(asker.chat.key)

    def press_answer(self, data: str, answerer: Caller) -> Awaitable[Ack | Reply]:
        """An option of a question pressed (`tokens.Kind.ANSWER`, nearly every press, on the
        gateway and the endpoint alike): `Commands.press` at once, with no rights read, no form
        matched and none of `handle_press`'s checks, which are for other buttons."""
        return self._engine_commands().press(data, answerer)

    async def handle_press(self, asker: Asker, data: str) -> Ack | Reply:
        caller = asker.caller()
        if tokens.kind_of(data) is tokens.Kind.PRIVATE:
            return await self._in_private(data.removeprefix(tokens.Kind.PRIVATE.prefix), caller)
        if tokens.kind_of(data) is tokens.Kind.QUIZ and (refusal := await self._cannot_post(asker)):
            return refusal
        return await self._engine_commands().press(data, caller)

    async def _in_private(self, payload: str, caller: Caller) -> Reply:
        """A button that continues in a DM ("Review my misses"): /start <payload> runs there, and
        the presser alone is told where to look."""
        commands = self._engine_commands()
        lang = await commands.language_for(caller.chat, caller.player)
        pressed_in = PRESSED_IN.set(caller.chat.key)
        try:
            chat = await self.private_chat(caller.player)
            await self.send(chat, await commands.deep_link(payload, Caller(chat, caller.player, is_admin=True)))
        except (discord.HTTPException, ChatUnreachable) as exc:  # the user accepts no DMs from this server
            log.info("no DM to %s: %s", caller.player.key, exc)
            return Reply(
                t(
                    lang,
                    "I can't send you a direct message. Allow direct messages from this server's "
                    "members, then press again.",
                ),
                language=lang,
                kind="error",
                private=True,
            )
        finally:
            PRESSED_IN.reset(pressed_in)
        if payload != REVIEW_START:  # an assignment's Start: the quiz, or why not, is in the DM
            return Reply(t(lang, "I sent you a direct message: carry on there."), language=lang, private=True)
        return Reply(t(lang, "I sent you a direct message: your review is there."), language=lang, private=True)

    async def private_chat(self, player: Player) -> ChatRef:
        """The player's DM channel with the bot, opened if need be (ports/chat.py PrivateChats)."""
        if self.client is None:
            raise ChatUnreachable(player.key)
        try:
            dm = await self.client.create_dm(discord.Object(int(player.user_id)))
        except discord.HTTPException as exc:  # the user accepts no DMs from this server
            raise ChatUnreachable(player.key) from exc
        return ChatRef(PLATFORM, str(dm.id), is_private=True)

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        """Whether the player is in the server of the group's channel (ports/chat.py). A Start
        pressed in that channel comes from a member already; a copied or forged Start pressed in
        another server, or in a DM, does not, and Get Guild Member says so (404); so that request
        is made only for a Start pressed anywhere but in the group's channel (PRESSED_IN)."""
        if PRESSED_IN.get() == group.key:
            return True
        if not group.chat_id.isdecimal():  # a payload's junk: no channel has that id
            return False
        if self.client is None:
            raise MembershipUnknown("no Discord client")
        try:
            channel = self.client.get_channel(int(group.chat_id)) or await self.client.fetch_channel(int(group.chat_id))
            guild = getattr(channel, "guild", None)
            if not isinstance(guild, discord.Guild):  # a DM is no server: it has no members to be among
                return False
            await guild.fetch_member(int(player.user_id))
        except discord.NotFound:  # Unknown Member (or the channel is gone)
            return False
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            raise MembershipUnknown(f"membership in {group.key}: {exc}") from exc
        return True

    def members_of(self, group: ChatRef) -> str | None:
        """The name of the server of the group's channel, as the gateway last gave it (ports/chat.py
        MemberGroups): an assignment there is for the server's members. None when the client
        does not hold that channel's server (the interactions endpoint keeps no gateway state)."""
        channel = self.client.get_channel(int(group.chat_id)) if self.client is not None else None
        guild = getattr(channel, "guild", None)
        return clean(guild.name) if isinstance(guild, discord.Guild) else None

    async def form_to_open(self, asker: Asker, target: str) -> FormOpening | None:
        """The question's form a press of "Add question" or "Edit N" (or /suggest) opens, filled
        in with the question it edits; None when that question is gone (its press says so)."""
        commands, caller = self._engine_commands(), asker.caller()
        lang = await commands.language_for(caller.chat, caller.player)
        if target in (FORM_NEW, FORM_SUGGESTED):
            return FormOpening(lang, target, None)
        defaults = await commands.form_defaults(target, caller)
        return FormOpening(lang, target, defaults) if defaults is not None else None

    async def handle_form(self, asker: Asker, form: QuestionForm, target: str) -> Reply:
        """A question's form sent: added to the draft, edited in it, or suggested to the group."""
        return await self._engine_commands().question_form(form, target, asker.caller())

    async def _cannot_post(self, asker: Asker) -> Reply | None:
        """A quiz posts to the channel, not through the interaction: say so now if the bot may not."""
        if not asker.in_guild:
            return None
        perms = asker.app_permissions
        may_send = perms.send_messages_in_threads if asker.threaded else perms.send_messages
        if perms.view_channel and may_send and perms.embed_links:
            return None
        lang = await self._engine_commands().language_for(asker.chat)
        text = t(
            lang,
            "I can't post in this channel. Give me View Channel, Send Messages and Embed Links here, then try again.",
        )
        return Reply(text, language=lang, kind="error", private=True)


def _moderated(name: str) -> bool:
    """Whether those who manage the channel's messages may use the command (/stop)."""
    found = command(name)
    return found is not None and found.rights is Rights.MODERATORS
