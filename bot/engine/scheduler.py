"""Scheduled quizzes and questions of the day: fired once, at their time, by whichever engine
claims them first.

The store is the only coordinator: a fire time is claimed by moving the schedule's stored
`next_due` from that time to the next one (a compare-and-set), so engines sharing a database
fire each time once. After a restart, a fire time missed by less than an hour runs at once;
an older one is skipped and logged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from datetime import tzinfo
from typing import TYPE_CHECKING, Protocol

from bot.domain import schedule
from bot.domain.model import ChatRef, Player, Quiz, Reply
from bot.domain.schedule import Missed, Rule, ScheduleRow, ScheduleStatus
from bot.domain.zones import zone
from bot.ports.chat import ChatAdapter, ChatUnreachable
from bot.ports.store import ChatRecords, ScheduleRecords
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.content.chatquizzes import ChatQuizzes
    from bot.engine.chats import Chats
    from bot.engine.core import Engine
    from bot.engine.sender import Sender
    from bot.ports.clock import Clock

log = logging.getLogger("quizhost.schedule")

POLL_SECONDS = 30.0  # other workers may add schedules: look again at least this often
HOUR = 3600


class SchedulerStore(ScheduleRecords, ChatRecords, Protocol):
    """The schedules, and the chat a new one is for made known."""


class Scheduler:
    def __init__(
        self,
        *,
        store: SchedulerStore,
        engine: Engine,
        chat_quizzes: ChatQuizzes,
        clock: Clock,
        chats: Chats,
        adapters: Mapping[str, ChatAdapter],
        sender: Sender,
    ) -> None:
        """`engine` starts the quizzes due; `sender` tells which chats refuse the bot."""
        self.engine, self.store = engine, store
        self.chat_quizzes = chat_quizzes
        self.clock, self.chats, self.adapters = clock, chats, adapters
        sender.on_unreachable(self.chat_refuses_bot)  # any run message refused as forbidden

    async def add(
        self, chat: ChatRef, rule: Rule, quiz: Quiz, by: Player, questions: int | None, hours: int
    ) -> ScheduleRow:
        await self.store.ensure_chat(chat)
        now = self.clock.now()
        row = ScheduleRow(
            chat,
            quiz.id,
            rule,
            schedule.next_fire(rule, now, await self._zone(chat)),
            seed=int(now) % 1_000_003,
            created_by=by.key,
            questions=questions,
            hours=hours,
        )
        return replace(row, id=await self.store.add_schedule(row))

    async def resume(self, chat: ChatRef, schedule_id: int | None = None) -> list[ScheduleRow]:
        """Resume the chat's paused schedules (one, or all): the bot may post there again.

        A fire time missed while paused is treated as after a restart: one less than an hour
        late stays due and fires at the next tick; an older one is skipped for the next time.
        """
        now, tz = self.clock.now(), await self._zone(chat)
        resumed = []
        for row in await self.store.chat_schedules(chat.key):
            if row.status is not ScheduleStatus.PAUSED or schedule_id not in (None, row.id):
                continue
            due = (
                row.next_due
                if schedule.missed(row.next_due, now) is Missed.RUN
                else schedule.next_fire(row.rule, now, tz)
            )
            if await self.store.resume_schedule(row.id, due):
                resumed.append(replace(row, status=ScheduleStatus.ACTIVE, next_due=due))
        if resumed:
            log.info(
                "%s lets the bot post again; schedules resumed: %s", chat.key, ", ".join(str(r.id) for r in resumed)
            )
        return resumed

    async def tick(self) -> int:
        """Fire every schedule whose time has come; how many this engine fired."""
        now = self.clock.now()
        fired = 0
        for row in await self.store.due_schedules(now):
            try:
                fired += await self._fire(row, now)
            except Exception:  # one broken schedule must not stop the others
                log.exception("schedule %d: firing failed", row.id)
        return fired

    async def serve(self) -> None:
        while True:
            await self.tick()
            now = self.clock.now()
            nxt = await self.store.next_schedule_due()
            await self.clock.sleep(min(POLL_SECONDS, max(0.0, (nxt or now + POLL_SECONDS) - now)))

    async def _zone(self, chat: ChatRef) -> tzinfo:
        return zone((await self.chats.settings(chat)).time_zone)

    async def _fire(self, row: ScheduleRow, now: float) -> int:
        nxt = schedule.next_fire(row.rule, now, await self._zone(row.chat))
        quiz = await self.chat_quizzes.find(row.chat.key, row.quiz_id)
        if schedule.missed(row.next_due, now) is Missed.SKIP or quiz is None:
            if await self.store.claim_schedule(row.id, row.next_due, nxt, row.asked):
                log.warning(
                    "schedule %d in %s: skipped the time %.0f s ago (%s); next at %.0f",
                    row.id,
                    row.chat.key,
                    now - row.next_due,
                    "the quiz is gone" if quiz is None else "too late",
                    nxt,
                )
            return 0
        pick, asked = None, row.asked
        if row.is_daily_question:
            pick, asked = schedule.question_of_the_day(tuple(q.id for q in quiz.questions), row.asked, row.seed)
        if not await self.store.claim_schedule(row.id, row.next_due, nxt, asked):
            return 0  # another engine fired it
        if not await self._announce(row, quiz):
            return 0
        by = Player(row.chat.platform, "schedule", "⏰")  # not its author: only admins may /stop it
        outcome = await self.engine.start_quiz(
            row.chat,
            quiz,
            by,
            count=None if row.is_daily_question else row.questions,
            questions=(pick,) if pick else None,
            seconds=row.hours * HOUR if pick else None,
        )
        if outcome.status != "started":
            log.warning("schedule %d in %s: a quiz was already running; this time is skipped", row.id, row.chat.key)
            return 0
        log.info("schedule %d fired in %s", row.id, row.chat.key)
        return 1

    async def _announce(self, row: ScheduleRow, quiz: Quiz) -> bool:
        """Say what starts; a chat that removed the bot pauses the schedule instead."""
        lang = await self.chats.language_for(row.chat)
        title = quiz.title.get(lang)
        text = (
            t(lang, "⏰ Question of the day from {title}: it stays open {hours} h.", title=title, hours=row.hours)
            if row.is_daily_question
            else t(lang, "⏰ Scheduled quiz: {title}", title=title)
        )
        try:
            await self.adapters[row.chat.platform].send(row.chat, Reply(text, language=lang))
        except ChatUnreachable:
            await self.chat_refuses_bot(row.chat.key)
            return False
        return True

    async def chat_refuses_bot(self, chat_key: str) -> None:
        """The platform said forbidden (the bot was removed from the chat, or blocked): the
        chat's schedules pause instead of failing at every time, and the log says so once."""
        paused = await self.store.pause_chat_schedules(chat_key)
        if paused:
            log.warning("%s does not let the bot post; its schedules are paused (%d)", chat_key, paused)
