"""/assign and a member's Start (/start assign_<id> in the private chat): the commands of
assignments (bot/engine/assignments.py).

One group of `bot.commands.core.Commands`, as bot/commands/learning.py: same handlers, same rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.commands import extra
from bot.commands.quizzes import started
from bot.domain import assignment as rules
from bot.domain import zones
from bot.domain.assignment import UntilError
from bot.domain.extra_time import NO_EXTRA
from bot.domain.model import ChatRef, Reply
from bot.engine.assignments import Assignments, Joined
from bot.texts import render_assign as texts
from bot.texts import render_extra

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.finding import QuizFinder
    from bot.engine.chats import Chats
    from bot.ports.clock import Clock


class AssignCommands:
    def __init__(self, assignments: Assignments, quizzes: QuizFinder, clock: Clock, chats: Chats) -> None:
        self.assignments, self.quizzes, self.clock, self.chats = assignments, quizzes, clock, chats

    async def cmd_assign(self, args: str, caller: Caller, lang: str) -> Reply:
        chat = caller.chat
        if not self.assignments.can_post(chat):
            return texts.groups_only(lang)
        words = args.split()
        if not words:
            zone = await self._zone(chat)
            return texts.listing(lang, await self.assignments.open_in(chat), self.clock.now(), zone)
        if not caller.is_admin:
            return texts.admins_only(lang)
        if words[0].casefold() == "cancel":
            return await self._cancel(words[1:], chat, lang)
        return await self._assign(words, caller, lang)

    async def _assign(self, words: list[str], caller: Caller, lang: str) -> Reply:
        zone_name = await self._zone(caller.chat)
        words, clause = extra.split_extra(words, after=rules.UNTIL)
        asked = None if clause is None else extra.read_extra(clause, caller, off_allowed=False)
        if isinstance(asked, extra.ExtraRefused):
            return extra.refusal(lang, asked)
        split = rules.split_until(words)
        if isinstance(split, UntilError):
            return texts.until_error(lang, split, zone_name, rules.MAX_DAYS)
        topic, when = split
        deadline = rules.read_until(when, self.clock.now(), zones.zone(zone_name))
        if isinstance(deadline, UntilError):
            return texts.until_error(lang, deadline, zone_name, rules.MAX_DAYS)
        quiz = await self.quizzes.named(caller.chat, topic, lang)
        if isinstance(quiz, Reply):
            return quiz
        row = await self.assignments.create(caller.chat, quiz, caller.player, deadline.at)
        reply = texts.created(lang, row, zone_name, deadline)
        if asked is None:
            return reply
        await self.assignments.give_extra(row, asked.member, asked.factor)
        given = render_extra.given_for_assignment(lang, asked.member.name, asked.factor)
        return replace(reply, text=f"{reply.text}\n{given}")

    async def _cancel(self, words: list[str], chat: ChatRef, lang: str) -> Reply:
        number = words[0].lstrip("#") if len(words) == 1 else ""
        if not number.isdecimal() or len(number) > 12 or not await self.assignments.cancel(chat, int(number)):
            return texts.not_open(lang)
        return texts.cancelled(lang, int(number))

    async def start(self, assignment_id: int, caller: Caller, lang: str) -> Reply:
        """The group message's Start, in the member's private chat."""
        join = await self.assignments.join(caller.chat, caller.player, assignment_id)
        row = join.assignment
        zone_name = await self._zone(row.chat) if row is not None else None
        if join.status is Joined.STARTED and join.started is not None and row is not None:
            reply = started(join.started, "", lang)
            head = texts.starting(reply.language, row, zone_name)
            if join.started.run is not None and (factor := join.started.run.row.time_factor) != NO_EXTRA:
                head += "\n" + render_extra.own_time(reply.language, factor)
            return replace(reply, text=f"{head}\n{reply.text}")
        if join.status is Joined.REPEATED:
            return texts.repeated(lang, join.place)
        if join.status is Joined.BUSY:
            return texts.busy(lang)
        if join.status is Joined.NOT_PRIVATE:
            return texts.in_private(lang)
        if join.status is Joined.NOT_MEMBER and row is not None:
            return texts.not_member(lang, await self.assignments.group_title(row))
        if join.status is Joined.UNCHECKED:
            return texts.unchecked(lang)
        return texts.late(lang, row if join.status is Joined.LATE else None, zone_name)

    async def _zone(self, chat: ChatRef) -> str | None:
        return (await self.chats.settings(chat)).time_zone
