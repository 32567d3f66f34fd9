"""/review, /quizstats and /schedule: the commands of issue "Learning that sticks".

One group of `bot.commands.core.Commands`: `(args, caller, lang) -> Reply` handlers, the rules
of bot/commands/group.py (admins configure a group, a private chat is its player's own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from bot.commands.group import may_configure
from bot.domain import schedule
from bot.domain.model import NO_ANSWER, ChatRef, Question, Quiz, Reply
from bot.domain.questionstats import Marking, QuestionStats, question_stats
from bot.domain.records import row_id
from bot.domain.schedule import DEFAULT_HOURS, RuleError
from bot.kinds import kind_of
from bot.ports.store import QuestionTallies, ScheduleRecords
from bot.texts import render_learning as texts
from bot.texts import render_stats
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.finding import QuizFinder
    from bot.engine.chats import Chats
    from bot.engine.review import ReviewDesk
    from bot.engine.scheduler import Scheduler

HOURS_RANGE = (1, 24)
MAX_SCHEDULES = 10  # per chat


async def quiz_report(store: QuestionTallies, quiz: Quiz, chat_key: str | None) -> list[QuestionStats]:
    """Every question's figures, in authoring order, from the store's sums."""
    tally = await store.quiz_tally(quiz.id, chat_key)
    return [question_stats(q.id, marking(q), tally) for q in quiz.questions]


def marking(question: Question) -> Marking:
    """How the statistics count and credit the question's answers, as its kind says: the split
    over its options (one option an answer, or a multi question's picks; an ordering's places
    and typed answers have none here), each answer worth the kind's credit, a poll not scored."""
    kind = kind_of(question)
    split = kind.has_options and not kind.always_shuffled
    return Marking(
        options=len(question.options) if split else 0,
        answer=question.answer if kind.one_option and kind.is_scored else NO_ANSWER,
        rights=question.right_options() if split and kind.is_scored else frozenset(),
        scored=kind.is_scored,
        credit=lambda option, response: kind.credit(question, option, response),
        picks=lambda response: kind.chosen_options(NO_ANSWER, response) if kind.collects_picks else (),
    )


class LearningCommandStore(ScheduleRecords, QuestionTallies, Protocol):
    """/schedule lists and removes a chat's schedules; /quizstats reads the question statistics."""


class LearningCommands:
    def __init__(
        self,
        store: LearningCommandStore,
        quizzes: QuizFinder,
        chats: Chats,
        review: ReviewDesk,
        scheduler: Scheduler,
    ) -> None:
        self._store, self.quizzes, self.chats = store, quizzes, chats
        self.review, self.scheduler = review, scheduler

    async def cmd_review(self, args: str, caller: Caller, lang: str) -> Reply:
        # the player's own language: a private chat's /language, else their client's
        return await self.review.start(caller.chat, caller.player, lang)

    async def cmd_quizstats(self, args: str, caller: Caller, lang: str) -> Reply:
        if not may_configure(caller):
            return Reply(
                t(lang, "Only chat admins can see question statistics."), language=lang, kind="error", private=True
            )
        quiz = await self.quizzes.named(caller.chat, args, lang)
        if isinstance(quiz, Reply):
            return quiz
        return render_stats.chat_report(lang, quiz, await quiz_report(self._store, quiz, caller.chat.key))

    # /schedule -------------------------------------------------------------------------------

    async def cmd_schedule(self, args: str, caller: Caller, lang: str) -> Reply:
        words = args.split()
        if words and not may_configure(caller):
            return Reply(t(lang, "Only chat admins can change this."), language=lang, kind="error", private=True)
        if not words:
            return await self._schedules(caller.chat, lang)
        if words[0].lower() == "off":
            return await self._schedule_off(words[1:], caller.chat, lang)
        if words[0].lower() == "on":
            return await self._schedule_on(words[1:], caller.chat, lang)
        return await self._schedule_add(words, caller, lang)

    async def _schedules(self, chat: ChatRef, lang: str) -> Reply:
        tz = (await self.chats.settings(chat)).time_zone
        rows = await self._store.chat_schedules(chat.key)
        return texts.schedules(lang, await self._lines(chat, rows, lang, tz), tz)

    async def _lines(self, chat: ChatRef, rows: list[schedule.ScheduleRow], lang: str, tz: str | None) -> list[str]:
        lines = []
        for row in rows:
            quiz = await self.quizzes.of_row(chat, row.quiz_id)
            lines.append(texts.schedule_line(lang, row, quiz.title.get(lang) if quiz else row.quiz_id, tz))
        return lines

    async def _schedule_on(self, words: list[str], chat: ChatRef, lang: str) -> Reply:
        """An admin's command here shows the bot reads the chat again: resume what was paused."""
        sid = _schedule_id(words)
        if sid is False:
            return Reply(texts.schedule_usage(lang), language=lang, kind="error")
        resumed = await self._resumed(chat, lang, sid)
        return resumed or Reply(t(lang, "No paused schedule here. /schedule lists them."), language=lang, kind="error")

    async def bot_is_back(self, chat: ChatRef) -> Reply | None:
        """The platform says the bot was added back to the chat: its paused schedules resume;
        what to tell the chat, None when nothing was paused."""
        return await self._resumed(chat, await self.chats.language_for(chat), None)

    async def _resumed(self, chat: ChatRef, lang: str, sid: int | None) -> Reply | None:
        rows = await self.scheduler.resume(chat, sid)
        if not rows:
            return None
        tz = (await self.chats.settings(chat)).time_zone
        return texts.resumed(lang, await self._lines(chat, rows, lang, tz), tz)

    async def _schedule_off(self, words: list[str], chat: ChatRef, lang: str) -> Reply:
        sid = _schedule_id(words)
        if sid is False:
            return Reply(texts.schedule_usage(lang), language=lang, kind="error")
        gone = await self._store.remove_schedules(chat.key, sid)
        if not gone:
            return Reply(t(lang, "No such schedule here. /schedule lists them."), language=lang, kind="error")
        return Reply(t(lang, "Schedules stopped: {count}.", count=gone), language=lang)

    async def _schedule_add(self, words: list[str], caller: Caller, lang: str) -> Reply:
        parsed = _parse_add(words)
        if isinstance(parsed, str):
            return Reply(_schedule_error(lang, parsed), language=lang, kind="error")
        rule, topic, questions, hours = parsed
        quiz = await self.quizzes.named(caller.chat, topic, lang)
        if isinstance(quiz, Reply):
            return quiz
        if len(await self._store.chat_schedules(caller.chat.key)) >= MAX_SCHEDULES:
            return Reply(
                t(lang, "This chat has {count} schedules already; /schedule off <id> stops one.", count=MAX_SCHEDULES),
                language=lang,
                kind="error",
            )
        row = await self.scheduler.add(caller.chat, rule, quiz, caller.player, questions, hours)
        tz = (await self.chats.settings(caller.chat)).time_zone
        line = texts.schedule_line(lang, row, quiz.title.get(lang), tz)
        return Reply(line, title=t(lang, "⏰ Scheduled"), language=lang)


def _schedule_id(words: list[str]) -> int | Literal[False] | None:
    """'#3' or '3' -> 3; nothing -> None (all of the chat's); anything else (an id no row can
    have, past 64 bits, in other digits) -> False."""
    if not words:
        return None
    found = row_id(words[0].lstrip("#")) if len(words) == 1 else None
    return False if found is None else found


def _parse_add(words: list[str]) -> tuple[schedule.Rule, str, int | None, int] | str:
    """'daily 09:00 pipeline 1 --hours 4' -> (rule, 'pipeline', 1, 4); an error code as a string."""
    hours = DEFAULT_HOURS
    if "--hours" in (lowered := [w.lower() for w in words]):
        at = lowered.index("--hours")
        value = words[at + 1] if at + 1 < len(words) else ""
        if not value.isdigit() or not HOURS_RANGE[0] <= int(value) <= HOURS_RANGE[1]:
            return "hours"
        hours, words = int(value), words[:at] + words[at + 2 :]
    parsed = schedule.parse_rule(words)
    if isinstance(parsed, RuleError):
        return parsed.value
    rule, rest = parsed
    questions = int(rest.pop()) if len(rest) > 1 and rest[-1].isdigit() and len(rest[-1]) <= 3 else None
    if not rest or questions == 0:
        return "topic"
    return rule, " ".join(rest), questions, hours


def _schedule_error(lang: str, code: str) -> str:
    reasons = {
        RuleError.CADENCE.value: t(lang, "Say daily or weekly first."),
        RuleError.WEEKDAY.value: t(lang, "Name the day: mon, tue, wed, thu, fri, sat or sun."),
        RuleError.CLOCK.value: t(lang, "Give the time as HH:MM, for example 09:00."),
        "hours": t(lang, "--hours wants a number from {low} to {high}.", low=HOURS_RANGE[0], high=HOURS_RANGE[1]),
        "topic": t(lang, "Name the quiz after the time."),
    }
    return reasons[code] + "\n" + texts.schedule_usage(lang)
