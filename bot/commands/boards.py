"""/leaderboard, /stats, /dashboard and /board: a chat's rankings, a player's record, and the
links into the chat's web pages.

One group of `bot.commands.core.Commands`: `(args, caller, lang) -> Reply` handlers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.commands.group import may_configure
from bot.domain.model import Reply
from bot.texts import render
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.web import WebCommands
    from bot.content.catalog import Catalog
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.standings import Standings

PERIODS = ("week", "month", "all")


class BoardCommands:
    def __init__(self, catalog: Catalog, chat_quizzes: ChatQuizzes, standings: Standings, web: WebCommands) -> None:
        self.catalog, self.chat_quizzes, self.standings, self.web = catalog, chat_quizzes, standings, web

    async def cmd_leaderboard(self, args: str, caller: Caller, lang: str) -> Reply:
        words = args.split()
        period = words.pop(0).lower() if words and words[0].lower() in PERIODS else "all"
        quiz = None
        if words:
            own = await self.chat_quizzes.get(caller.chat.key, " ".join(words).casefold())
            matches = [own] if own else self.catalog.match(" ".join(words))
            if len(matches) != 1:
                text = t(lang, "No single quiz matches “{topic}”. /quizzes lists them.", topic=" ".join(words)[:60])
                return Reply(text, language=lang, kind="error")
            quiz = matches[0]
        top, mine = await self.standings.leaderboard(caller.chat, period, quiz.id if quiz else None, caller.player)
        return render.leaderboard(lang, period, quiz.title.get(lang) if quiz else None, top, mine)

    async def cmd_stats(self, args: str, caller: Caller, lang: str) -> Reply:
        reply = render.stats(lang, await self.standings.player_stats(caller.chat, caller.player))
        link = await self.web.stats_link(caller.chat, caller.player, lang)
        return replace(reply, text=f"{reply.text}\n\n{link}") if link else reply

    async def cmd_dashboard(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.dashboard(caller.chat, caller.player, lang, may_configure(caller), args)

    async def cmd_board(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.board(caller.chat, lang)

    async def cmd_screen(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.screen(caller.chat, caller.player, lang, may_configure(caller), args)
