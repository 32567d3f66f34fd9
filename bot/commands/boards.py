"""/leaderboard, /stats, /dashboard and /board: a chat's rankings, a player's record, and the
links into the chat's web pages.

A mixin of `bot.commands.core.Commands`: same `(args, caller, lang) -> Reply` handlers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.commands.group import CommandGroup
from bot.domain.model import Reply
from bot.texts import render
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller

PERIODS = ("week", "month", "all")


class BoardCommands(CommandGroup):
    async def _cmd_leaderboard(self, args: str, caller: Caller, lang: str) -> Reply:
        words = args.split()
        period = words.pop(0).lower() if words and words[0].lower() in PERIODS else "all"
        quiz = None
        if words:
            own = await self.engine.chat_quizzes.get(caller.chat.key, " ".join(words).casefold())
            matches = [own] if own else self.engine.catalog.match(" ".join(words))
            if len(matches) != 1:
                text = t(lang, "No single quiz matches “{topic}”. /quizzes lists them.", topic=" ".join(words)[:60])
                return Reply(text, language=lang, kind="error")
            quiz = matches[0]
        top, mine = await self.engine.leaderboard(caller.chat, period, quiz.id if quiz else None, caller.player)
        return render.leaderboard(lang, period, quiz.title.get(lang) if quiz else None, top, mine)

    async def _cmd_stats(self, args: str, caller: Caller, lang: str) -> Reply:
        reply = render.stats(lang, await self.engine.player_stats(caller.chat, caller.player))
        link = await self.web.stats_link(caller.chat, caller.player, lang)
        return replace(reply, text=f"{reply.text}\n\n{link}") if link else reply

    async def _cmd_dashboard(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.dashboard(caller.chat, caller.player, lang, self._may_configure(caller), args)

    async def _cmd_board(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.board(caller.chat, lang)
