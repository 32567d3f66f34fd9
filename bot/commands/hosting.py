"""/host and the host's commands (/next, /pause, /resume, /skip, /hint, /end): a hosted game.

One group of `bot.commands.core.Commands`. Who may host: in a private chat its player; in a
group an admin, or any member where the group allows it (/settings host anyone). Once a game
is hosted, only its host paces it (bot/engine/hosting.py).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from bot.commands.quizzes import split_count, started
from bot.domain.hosting import HostAction
from bot.domain.model import Reply
from bot.engine.core import StartStatus
from bot.texts import render_host
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.writing import WritingCommands
    from bot.engine.chats import Chats
    from bot.engine.core import Engine


class HostCommands:
    def __init__(self, engine: Engine, chats: Chats, writing: WritingCommands) -> None:
        """`writing`: /hint is also an author's, for the quiz they are writing."""
        self.engine, self.chats, self.writing = engine, chats, writing

    async def cmd_host(self, args: str, caller: Caller, lang: str) -> Reply:
        if not await self.may_host(caller):
            return render_host.may_not_host(lang)
        topic, count = split_count(args)
        if count is not None and count < 1:
            return Reply(t(lang, "The number of questions must be at least 1."), language=lang, kind="error")
        outcome = await self.engine.start(caller.chat, topic, caller.player, count, hosted=True)
        reply = started(outcome, topic, lang)
        if outcome.status is not StartStatus.STARTED or outcome.run is None:
            return reply
        rl = outcome.run.row.language
        return dataclasses.replace(reply, text=f"{reply.text}\n{render_host.hosted(rl, caller.player.name)}")

    async def may_host(self, caller: Caller) -> bool:
        if caller.chat.is_private or caller.is_admin:
            return True
        return (await self.chats.settings(caller.chat)).host_anyone

    async def act(self, action: HostAction, caller: Caller) -> Reply:
        return await self.engine.host(caller.chat, action, caller.player, caller.is_admin)

    async def cmd_next(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.act(HostAction.NEXT, caller)

    async def cmd_pause(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.act(HostAction.PAUSE, caller)

    async def cmd_resume(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.act(HostAction.RESUME, caller)

    async def cmd_skip(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.act(HostAction.SKIP, caller)

    async def cmd_hint(self, args: str, caller: Caller, lang: str) -> Reply:
        """An author's /hint <text> for their draft first; else, where a game runs, the host's."""
        if (drafted := await self.writing.draft_hint(args, caller, lang)) is not None:
            return drafted
        if self.engine.run_in(caller.chat) is None:  # no game here: the author's reply (no draft)
            return await self.writing.cmd_hint(args, caller, lang)
        return await self.act(HostAction.HINT, caller)

    async def cmd_end(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.act(HostAction.END, caller)
