"""The commands of writing a quiz in the chat: a group of `bot.commands.core.Commands` that hands
each to `Authoring` (bot/commands/authoring.py), with the same `(args, caller, lang)` handlers."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.commands.authoring import FORM_NEW, Author, Authoring
from bot.commands.authoring_replies import error
from bot.commands.sharing import SHARE_PREFIX
from bot.commands.suggestions import SUGGEST_PREFIX
from bot.content.drafts import PollSpec, QuestionForm, from_form
from bot.domain.model import Ack, Reply
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.chats import Chats


class WritingCommands:
    def __init__(self, authoring: Authoring, chats: Chats) -> None:
        self.authoring, self.chats = authoring, chats

    async def _author(self, caller: Caller, lang: str | None = None) -> Author:
        lang = lang or await self.chats.language_for(caller.chat, caller.player)
        return Author(caller.chat, caller.player, lang, caller.is_admin, caller.private_replies, caller.typed_only)

    async def poll(self, spec: PollSpec, caller: Caller) -> Reply:
        """A poll sent in a private chat: a question of the author's draft (or how to open one)."""
        return await self.authoring.poll(spec, await self._author(caller))

    async def draft_line(self, text: str, caller: Caller) -> Reply | None:
        """A line in the fixed layout while a draft is open (the terminal); None: no draft is open."""
        return await self.authoring.line(text, await self._author(caller))

    async def cmd_newquiz(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.newquiz(args, await self._author(caller, lang)), caller)

    async def cmd_edit(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.edit(args, await self._author(caller, lang)), caller)

    async def cmd_delete(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.delete(args, await self._author(caller, lang)), caller)

    async def cmd_move(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.move(args, await self._author(caller, lang)), caller)

    async def cmd_done(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.done(await self._author(caller, lang))

    async def cmd_discard(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.discard(await self._author(caller, lang)), caller)

    async def cmd_hint(self, args: str, caller: Caller, lang: str) -> Reply:
        hinted = await self.draft_hint(args, caller, lang)
        return hinted or error(lang, t(lang, "You have no quiz draft. /newquiz starts one."))

    async def draft_hint(self, args: str, caller: Caller, lang: str) -> Reply | None:
        """/hint <text> for the caller's draft; None when they write none (a host's /hint in a
        hosted game shows the open question's hint instead: it hands the words here first)."""
        hinted = await self.authoring.hint(args, await self._author(caller, lang))
        return _mine(hinted, caller) if hinted else None

    async def cmd_round(self, args: str, caller: Caller, lang: str) -> Reply:
        return _mine(await self.authoring.round(args, await self._author(caller, lang)), caller)

    async def cmd_suggest(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.suggestions.command(args, await self._author(caller, lang))

    async def cmd_suggestions(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.suggestions.desk(args, await self._author(caller, lang))

    async def suggest_poll(self, spec: PollSpec, caller: Caller) -> Reply:
        """/suggest in reply to a poll, in a group."""
        return await self.authoring.suggestions.poll(spec, await self._author(caller))

    async def opened_link(self, payload: str, caller: Caller, lang: str) -> Reply | None:
        """/start add_<code> (a share link) or sg_<group> (suggesting privately); None for any other payload."""
        if payload.startswith(SHARE_PREFIX):
            return await self.authoring.shelf.opened(
                payload.removeprefix(SHARE_PREFIX), await self._author(caller, lang)
            )
        if payload.startswith(SUGGEST_PREFIX) and caller.chat.is_private:
            return await self.authoring.suggestions.open_private(
                payload.removeprefix(SUGGEST_PREFIX), await self._author(caller, lang)
            )
        return None

    async def decide(self, data: str, caller: Caller) -> Ack | Reply:
        return await self.authoring.suggestions.press(data, await self._author(caller))

    async def undo(self, question_id: str, caller: Caller) -> Ack | Reply:
        undone = await self.authoring.undo(question_id, await self._author(caller))
        return undone if isinstance(undone, Ack) else _mine(undone, caller)

    async def form_button(self, target: str, caller: Caller) -> Reply:
        """A form's button where no form opens (Telegram, the terminal): what to send instead."""
        who = await self._author(caller)
        if target == "suggest":
            return await self.authoring.suggestions.command("", who)
        if target == FORM_NEW:
            return await self.authoring.ask_poll(who)
        return await self.authoring.edit_by_id(target, who)

    async def question_form(self, form: QuestionForm, target: str, caller: Caller) -> Reply:
        """A form sent (Discord's modal): `target` is "add", "suggest", or the id of the question it edits."""
        who = await self._author(caller)
        if target == "suggest":
            return await self.authoring.suggestions.suggest(from_form(form), who, caller.chat)
        return _mine(await self.authoring.form(form, target, who), caller)

    async def form_defaults(self, target: str, caller: Caller) -> QuestionForm | None:
        return await self.authoring.form_defaults(target, await self._author(caller))


def _mine(reply: Reply, caller: Caller) -> Reply:
    """A draft is its author's: written in a group (Discord), its replies are shown to them alone."""
    return reply if caller.chat.is_private else replace(reply, private=True)
