"""What an interaction asks for, answered the same way from the gateway and from the endpoint.

A slash command becomes `Commands.handle` calls, a press of one of our buttons `Commands.press`;
the result (an Ack or a Reply) is shown by whichever path the interaction came on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace

import discord

from bot.adapters.discord.asked import Asker, mentioned
from bot.commands.authoring import FORM_NEW, FORM_SUGGESTED
from bot.commands.budget import slow_down
from bot.commands.core import Caller, Commands
from bot.commands.table import Rights, command
from bot.content.catalog import Catalog
from bot.content.drafts import QuestionForm
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain import tokens
from bot.domain.model import Ack, ChatRef, Player, Quiz, Reply
from bot.ports.chat import ChatUnreachable
from bot.texts.i18n import t
from bot.texts.render import REVIEW_START

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
    """Commands, uploads, presses and forms, however they come (the gateway's events, the
    endpoint's posts): handed to `Commands`, the results returned to be shown; a button that goes
    on in a DM is sent there by `send`, in the chat `private_chat` opens."""

    def __init__(
        self,
        commands: Commands,
        send: Callable[[ChatRef, Reply], Awaitable[None]],
        private_chat: Callable[[Player], Awaitable[ChatRef]],
    ) -> None:
        self.commands, self.send, self.private_chat = commands, send, private_chat

    async def handle_command(self, asker: Asker, name: str, args: tuple[str, ...]) -> Reply:
        """The command's reply within the user's budget (bot/commands/budget.py). Discord needs
        every interaction answered (else "The application did not respond"), and an ephemeral
        answer costs nothing of the bot's limits and is seen by nobody else: over the budget, the
        command is not carried out and its answer is the slow-down, for the user alone."""
        commands = self.commands
        caller = replace(asker.caller(_moderated(name)), mentions=mentioned(args))

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
            reply = await self.commands.handle(name, arg, caller)
            if reply.kind == "error":
                break
        assert reply is not None
        return reply

    async def handle_upload(self, asker: Asker, offer: FileOffer) -> Reply:
        """/upload file: an admin's attachment, fetched only when it may be accepted (1 MB)."""
        commands, caller = self.commands, asker.caller()
        if not commands.may_upload(caller):
            return await commands.upload(caller, offer.filename, b"")  # the refusal, nothing fetched
        if offer.size > MAX_FILE_BYTES:
            return await commands.upload(caller, offer.filename, b"", size=offer.size)
        return await commands.upload(caller, offer.filename, await offer.read())

    def catalog(self) -> Catalog:
        return self.commands.shared_quizzes()

    async def own_quizzes(self, asker: Asker) -> list[Quiz]:
        """The quizzes uploaded in the asker's channel, for its autocomplete."""
        return await self.commands.own_quizzes(asker.chat.key)

    def press_answer(self, data: str, answerer: Caller) -> Awaitable[Ack | Reply]:
        """An option of a question pressed (`tokens.Kind.ANSWER`, nearly every press, on the
        gateway and the endpoint alike): `Commands.press` at once, with no rights read, no form
        matched and none of `handle_press`'s checks, which are for other buttons."""
        return self.commands.press(data, answerer)

    async def handle_press(self, asker: Asker, data: str) -> Ack | Reply:
        caller = asker.caller()
        if tokens.kind_of(data) is tokens.Kind.PRIVATE:
            return await self._in_private(data.removeprefix(tokens.Kind.PRIVATE.prefix), caller)
        if tokens.kind_of(data) is tokens.Kind.QUIZ and (refusal := await self._cannot_post(asker)):
            return refusal
        return await self.commands.press(data, caller)

    async def _in_private(self, payload: str, caller: Caller) -> Reply:
        """A button that continues in a DM ("Review my misses"): /start <payload> runs there, and
        the presser alone is told where to look."""
        commands = self.commands
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

    async def form_to_open(self, asker: Asker, target: str) -> FormOpening | None:
        """The question's form a press of "Add question" or "Edit N" (or /suggest) opens, filled
        in with the question it edits; None when that question is gone (its press says so)."""
        commands, caller = self.commands, asker.caller()
        lang = await commands.language_for(caller.chat, caller.player)
        if target in (FORM_NEW, FORM_SUGGESTED):
            return FormOpening(lang, target, None)
        defaults = await commands.form_defaults(target, caller)
        return FormOpening(lang, target, defaults) if defaults is not None else None

    async def handle_form(self, asker: Asker, form: QuestionForm, target: str) -> Reply:
        """A question's form sent: added to the draft, edited in it, or suggested to the group."""
        return await self.commands.question_form(form, target, asker.caller())

    async def _cannot_post(self, asker: Asker) -> Reply | None:
        """A quiz posts to the channel, not through the interaction: say so now if the bot may not."""
        if not asker.in_guild:
            return None
        perms = asker.app_permissions
        may_send = perms.send_messages_in_threads if asker.threaded else perms.send_messages
        if perms.view_channel and may_send and perms.embed_links:
            return None
        lang = await self.commands.language_for(asker.chat)
        text = t(
            lang,
            "I can't post in this channel. Give me View Channel, Send Messages and Embed Links here, then try again.",
        )
        return Reply(text, language=lang, kind="error", private=True)


def _moderated(name: str) -> bool:
    """Whether those who manage the channel's messages may use the command (/stop)."""
    found = command(name)
    return found is not None and found.rights is Rights.MODERATORS
