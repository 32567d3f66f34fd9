"""/host and the host's commands (/next, /pause, /resume, /skip, /hint, /end): a hosted game.

One group of `bot.commands.core.Commands`. Who may host: in a private chat its player; in a
group an admin, or any member where the group allows it (/settings host anyone). Once a game
is hosted, only its host paces it (bot/engine/hosting.py).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from bot.commands.quizzes import split_count, split_seconds, started
from bot.domain import tokens
from bot.domain.hosting import HostAction
from bot.domain.model import QUESTION_SECONDS, Ack, Reply
from bot.engine.core import StartStatus
from bot.engine.host_panel import panel
from bot.texts import render, render_host
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.deeplinks import DeepLinks
    from bot.commands.writing import WritingCommands
    from bot.engine.chats import Chats
    from bot.engine.core import Engine


class HostCommands:
    def __init__(self, engine: Engine, chats: Chats, writing: WritingCommands, links: DeepLinks) -> None:
        """`writing`: /hint is also an author's, for the quiz they are writing; `links`: the key
        that signs the host panel's buttons."""
        self.engine, self.chats, self.writing, self.links = engine, chats, writing, links

    async def cmd_host(self, args: str, caller: Caller, lang: str) -> Reply:
        if not await self.may_host(caller):
            return render_host.may_not_host(lang)
        rest, seconds = split_seconds(args)
        if seconds is not None and seconds not in QUESTION_SECONDS:
            return render_host.seconds_out_of_range(lang, QUESTION_SECONDS.low, QUESTION_SECONDS.high)
        topic, count = split_count(rest)
        if count is not None and count < 1:
            return Reply(t(lang, "The number of questions must be at least 1."), language=lang, kind="error")
        outcome = await self.engine.start(caller.chat, topic, caller.player, count, hosted=True, seconds=seconds)
        reply = started(outcome, topic, lang)
        if outcome.status is not StartStatus.STARTED or outcome.run is None:
            return reply
        rl = outcome.run.row.language
        reply = dataclasses.replace(reply, text=f"{reply.text}\n{render_host.hosted(rl, caller.player.name)}")
        return await self._with_panel(reply, outcome.run.id, caller, rl)

    async def _with_panel(self, reply: Reply, run_id: int, caller: Caller, lang: str) -> Reply:
        """The host's panel: Discord's is the reply itself, shown to the host alone; elsewhere a
        message in the host's private chat (a group's reply says where it is, or that the host
        must start the bot there first)."""
        key = await self.links.key()
        if caller.private_replies:
            run = self.engine.run_by_id(run_id)
            if run is None:
                return reply
            shown = panel(run, key)
            return dataclasses.replace(reply, text=f"{reply.text}\n\n{shown.text}", buttons=shown.buttons, private=True)
        opened = await self.engine.open_host_panel(caller.chat, caller.player, key)
        if caller.chat.is_private or caller.typed_only:
            return reply
        said = render_host.panel_sent(lang) if opened else render_host.no_panel(lang)
        return dataclasses.replace(reply, text=f"{reply.text}\n{said}")

    async def panel_press(self, data: str, caller: Caller) -> Ack:
        """A host panel's button: what its command does; refused when its data was not signed here."""
        lang = await self.chats.language_for(caller.chat, caller.player)
        token = tokens.decode_host(data, await self.links.key())
        if token is None:
            return Ack(render.ack_invalid(lang), False, lang)
        reply = await self.engine.host_run(token.run_id, HostAction(token.action), caller.player)
        return Ack(reply.text, reply.kind != "error", reply.language)

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
