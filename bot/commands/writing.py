"""The commands of writing a quiz in the chat: a mixin of `bot.commands.core.Commands` that hands
each to `Authoring` (bot/commands/authoring.py), with the same `(args, caller, lang)` handlers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.authoring import SHARE_PREFIX, Author, Authoring
from bot.content.drafts import PollSpec
from bot.domain.model import Ack, Reply

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.core import Engine

WRITING_COMMANDS = ("newquiz", "edit", "delete", "move", "done", "discard")


class WritingCommands:
    engine: Engine
    authoring: Authoring

    async def _author(self, caller: Caller, lang: str | None = None) -> Author:
        lang = lang or await self.engine.language_for(caller.chat, caller.player)
        return Author(caller.chat, caller.player, lang, caller.is_admin)

    async def poll(self, spec: PollSpec, caller: Caller) -> Reply:
        """A poll sent in a private chat: a question of the author's draft (or how to open one)."""
        return await self.authoring.poll(spec, await self._author(caller))

    async def draft_line(self, text: str, caller: Caller) -> Reply | None:
        """A line in the fixed layout while a draft is open (the terminal); None: no draft is open."""
        return await self.authoring.line(text, await self._author(caller))

    async def _cmd_newquiz(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.newquiz(args, await self._author(caller, lang))

    async def _cmd_edit(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.edit(args, await self._author(caller, lang))

    async def _cmd_delete(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.delete(args, await self._author(caller, lang))

    async def _cmd_move(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.move(args, await self._author(caller, lang))

    async def _cmd_done(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.done(await self._author(caller, lang))

    async def _cmd_discard(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.authoring.discard(await self._author(caller, lang))

    async def _opened_share(self, payload: str, caller: Caller, lang: str) -> Reply | None:
        """/start add_<code>: a share link opened here; None for any other payload."""
        if not payload.startswith(SHARE_PREFIX):
            return None
        return await self.authoring.opened(payload.removeprefix(SHARE_PREFIX), await self._author(caller, lang))

    async def _undo(self, question_id: str, caller: Caller) -> Ack | Reply:
        return await self.authoring.undo(question_id, await self._author(caller))
