"""The commands every platform shares: parse the words, call the engine, answer a Reply.

Adapters turn a platform event into `handle(name, args, caller)` or `press(data, caller)`
and show what comes back; the wording and the rules live here once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.commands import upload_replies
from bot.commands.assign import AssignCommands
from bot.commands.authoring import Authoring
from bot.commands.learning import LearningCommands
from bot.commands.typed import TypedAnswers
from bot.commands.web import WebCommands
from bot.commands.weblinks import WebAddress
from bot.commands.writing import WRITING_COMMANDS, WritingCommands
from bot.domain import tokens, zones
from bot.domain.assignment import assignment_of
from bot.domain.model import (
    LANGUAGE_NAMES,
    LANGUAGES,
    PAUSE_SECONDS,
    QUESTION_SECONDS,
    Ack,
    Button,
    ChatRef,
    Player,
    Reply,
    SettingRange,
)
from bot.engine.assignments import Assignments
from bot.engine.core import Engine, StartOutcome, StartStatus, StopStatus
from bot.engine.review import ReviewDesk
from bot.engine.scheduler import Scheduler
from bot.texts import i18n, render
from bot.texts.render import REVIEW_START, t, tn  # message text (isolates for RTL); command menus use i18n.t

PERIODS = ("week", "month", "all")
ALIASES = {"top": "leaderboard", "me": "stats"}
COMMANDS = (
    "quiz",
    "quizzes",
    "leaderboard",
    "stats",
    "stop",
    "language",
    "settings",
    "help",
    "start",
    "upload",
    "remove",
    "dashboard",
    "board",
    "review",
    "quizstats",
    "schedule",
    "assign",
    *WRITING_COMMANDS,
)
# /settings words -> (the chat setting, its range)
SETTINGS: dict[str, tuple[str, SettingRange]] = {
    "time": ("question_seconds", QUESTION_SECONDS),
    "pause": ("pause_seconds", PAUSE_SECONDS),
}
MAX_ARGS = 200
_COMMAND = re.compile(r"^/([A-Za-z_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?:\s+(.*))?$", re.S)


@dataclass(frozen=True)
class Caller:
    chat: ChatRef
    player: Player
    is_admin: bool = False  # the adapter asks the platform; in a private chat the player is admin
    private_replies: bool = False  # the platform shows a reply to the caller alone, even in a group (Discord)


def parse(text: str, bot_name: str | None = None) -> tuple[str, str] | None:
    """'/quiz@Bot pipeline 5' -> ('quiz', 'pipeline 5'); None if not a command for this bot."""
    match = _COMMAND.match((text or "").strip())
    if not match:
        return None
    name, addressee, args = match.group(1).lower(), match.group(2), (match.group(3) or "").strip()
    if addressee and bot_name and addressee.lower() != bot_name.lower():
        return None
    return ALIASES.get(name, name), args[:MAX_ARGS]


class Commands(LearningCommands, AssignCommands, WritingCommands):
    def __init__(self, engine: Engine, web: WebAddress | None = None) -> None:
        self.engine = engine
        self.web = WebCommands(engine, web or WebAddress())
        self.review = ReviewDesk(engine)
        self.scheduler = Scheduler(engine)
        self.assignments = Assignments(engine)
        self.typed = TypedAnswers(engine, self.review)
        self.authoring = Authoring(engine)

    async def handle(self, name: str, args: str, caller: Caller) -> Reply:
        lang = await self.engine.language_for(caller.chat, caller.player)
        handler = getattr(self, f"_cmd_{ALIASES.get(name, name)}", None)
        if (name not in COMMANDS and name not in ALIASES) or handler is None:
            return Reply(
                t(lang, "Unknown command {command}. /help lists the commands.", command=f"/{name[:32]}"),
                language=lang,
                kind="error",
            )
        return await handler(args.strip(), caller, lang)

    async def press(self, data: str, caller: Caller) -> Ack | Reply:
        """A button: an answer token goes to the engine; quiz and language picks are handled here."""
        if tokens.kind_of(data) is tokens.Kind.REVIEW:
            return await self.review.answer(data, caller.player)
        if (question_id := tokens.undone(data)) is not None:
            return await self._undo(question_id, caller)
        if tokens.kind_of(data) is tokens.Kind.SUGGESTION:
            return await self._decide(data, caller)
        if (target := tokens.form_target(data)) is not None:  # where no form opens (Discord opens one)
            return await self._form_button(target, caller)
        picked = tokens.pick(data)
        if picked is None:
            return await self.engine.answer(data, caller.player, caller.chat)
        lang = await self.engine.language_for(caller.chat, caller.player)
        if picked.kind is tokens.Kind.QUIZ:
            return await self._cmd_quiz(picked.value, caller, lang)
        return await self._cmd_language(picked.value, caller, lang)

    async def answer_text(
        self,
        caller: Caller,
        text: str,
        run_id: int | None = None,
        number: int | None = None,
        reply_to: str | None = None,
    ) -> Ack | None:
        """A message that may answer a typed or numeric question: the chat's quiz (or the run
        and number given, or, in a private chat, the question the player was sent to answer
        there), else the player's open review card; None when it is ordinary chat
        (bot/commands/typed.py)."""
        return await self.typed.answer(caller, text, run_id, number, reply_to)

    # /quiz -------------------------------------------------------------------------------

    async def _cmd_quiz(self, args: str, caller: Caller, lang: str) -> Reply:
        topic, count = _split_count(args)
        if count is not None and count < 1:
            return Reply(t(lang, "The number of questions must be at least 1."), language=lang, kind="error")
        outcome = await self.engine.start(caller.chat, topic, caller.player, count)
        return self._started(outcome, topic, lang)

    def _started(self, outcome: StartOutcome, topic: str, lang: str) -> Reply:
        if outcome.status is StartStatus.STARTED and (run := outcome.run) is not None:
            rl = run.row.language
            limits = sorted({run.quiz_question(i).seconds or run.row.seconds for i in range(run.total)})
            text = (
                tn(
                    rl,
                    "{n} question, {seconds} s each. Get ready!",
                    "{n} questions, {seconds} s each. Get ready!",
                    run.total,
                    seconds=limits[0],
                )
                if len(limits) == 1
                else tn(
                    rl,
                    "{n} question, {low} to {high} s each. Get ready!",
                    "{n} questions, {low} to {high} s each. Get ready!",
                    run.total,
                    low=limits[0],
                    high=limits[-1],
                )
            )  # a file that times its questions
            return Reply(text, title=render.quiz_heading(rl, run.quiz.title.get(rl)), language=rl, kind="start")
        if outcome.status is StartStatus.RUNNING:
            quiz = outcome.run.quiz if outcome.run is not None else outcome.quizzes[0]
            title = quiz.title.get(lang)
            return Reply(
                t(lang, "A quiz is already running here: {title}. /stop ends it.", title=title),
                language=lang,
                kind="error",
            )
        buttons = tuple(Button(q.title.get(lang), tokens.quiz_pick(q.id)) for q in outcome.quizzes[:20])
        if outcome.status is StartStatus.CHOICES:
            text = t(lang, "Several quizzes match “{topic}”. Pick one:", topic=topic)
            return Reply(text, buttons=buttons, language=lang)
        if outcome.status is StartStatus.CATALOG:
            return Reply(t(lang, "Pick a quiz:"), buttons=buttons, language=lang)
        names = ", ".join(q.id for q in outcome.quizzes) or "-"
        text = t(
            lang, "No quiz matches “{topic}”. Available: {names}. /quizzes lists them.", topic=topic[:60], names=names
        )
        return Reply(text, buttons=buttons, language=lang, kind="error")

    async def _cmd_start(self, args: str, caller: Caller, lang: str) -> Reply:
        if args.startswith("quiz_"):  # Telegram deep link t.me/<bot>?start=quiz_<id>
            return await self._cmd_quiz(args[len("quiz_") :], caller, lang)
        if (opened := await self._opened_link(args, caller, lang)) is not None:  # a saved quiz's link
            return opened
        if args == REVIEW_START:  # the podium's "Review my misses": t.me/<bot>?start=review
            return await self._cmd_review("", caller, lang)
        if (assignment := assignment_of(args)) is not None:  # an assignment's Start: ?start=assign_<id>
            return await self._assignment_start(assignment, caller, lang)
        if caller.chat.is_private and (asked := tokens.decode_answer_start(args)) is not None:
            return await self.typed.sent_to_answer(asked, caller, lang)  # a typed question's "Answer" deep link
        return await self._cmd_help(args, caller, lang)

    async def _cmd_quizzes(self, args: str, caller: Caller, lang: str) -> Reply:
        own = await self.engine.chat_quizzes.all(caller.chat.key)
        return render.catalog(lang, self.engine.catalog.all(), own)

    # chat quizzes --------------------------------------------------------------------------

    def may_upload(self, caller: Caller) -> bool:
        """Adapters ask before they download anything: only admins add quizzes."""
        return self._may_configure(caller)

    async def upload(
        self, caller: Caller, name: str, data: bytes, size: int | None = None, language: str = "en"
    ) -> Reply:
        """A file sent with /upload: stored as this chat's quiz, or every reason it was not.

        `size` is the file's size when the adapter did not fetch a file too big to accept;
        `language` what an imported file's texts are in (`/upload es`: any language tag)."""
        lang = await self.engine.language_for(caller.chat, caller.player)
        if not self.may_upload(caller):
            return upload_replies.admins_only(lang)
        outcome = await self.engine.chat_quizzes.upload(caller.chat, caller.player, name, data, size, language)
        return upload_replies.outcome(lang, name, outcome)

    async def _cmd_upload(self, args: str, caller: Caller, lang: str) -> Reply:
        """/upload with no file attached (an adapter handles the ones with a file)."""
        if not self.may_upload(caller):
            return upload_replies.admins_only(lang)
        return upload_replies.usage(lang)

    async def _cmd_remove(self, args: str, caller: Caller, lang: str) -> Reply:
        if not self._may_configure(caller):
            return upload_replies.admins_only(lang)
        quiz_id = args.strip().casefold()
        removed = bool(quiz_id) and await self.engine.chat_quizzes.remove(caller.chat.key, quiz_id)
        return upload_replies.removed(lang, quiz_id, removed)

    # boards --------------------------------------------------------------------------------

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

    # the web pages -------------------------------------------------------------------------

    async def _cmd_dashboard(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.dashboard(caller.chat, caller.player, lang, self._may_configure(caller), args)

    async def _cmd_board(self, args: str, caller: Caller, lang: str) -> Reply:
        return await self.web.board(caller.chat, lang)

    # control -------------------------------------------------------------------------------

    async def _cmd_stop(self, args: str, caller: Caller, lang: str) -> Reply:
        outcome = await self.engine.stop(caller.chat, caller.player, caller.is_admin)
        texts = {
            StopStatus.STOPPED: t(lang, "Quiz stopped by {name}. Answers so far count.", name=caller.player.name),
            StopStatus.NONE: t(lang, "No quiz is running here. Start one with /quiz."),
            StopStatus.REFUSED: t(lang, "Only the person who started this quiz or a chat admin can stop it."),
        }
        stopped = outcome.status is StopStatus.STOPPED
        return Reply(
            texts[outcome.status],
            language=lang,
            kind="text" if stopped else "error",
            private=outcome.status is StopStatus.REFUSED,
        )

    async def _cmd_language(self, args: str, caller: Caller, lang: str) -> Reply:
        code = i18n.normalise(args.strip()) or args.strip().lower()  # "hi-IN", "UR" name hi, ur
        if not code:
            buttons = tuple(Button(LANGUAGE_NAMES[c], tokens.language_pick(c)) for c in LANGUAGES)
            return Reply(t(lang, "Choose the chat's language:"), buttons=buttons, language=lang)
        if not self._may_configure(caller):
            return _admins_only(lang)
        if code not in LANGUAGES:
            return Reply(
                t(
                    lang,
                    "Unknown language “{code}”. Choose one of: {codes}.",
                    code=code[:20],
                    codes=", ".join(LANGUAGES),
                ),
                language=lang,
                kind="error",
            )
        await self.engine.update_chat(caller.chat, language=code)
        return Reply(t(code, "Language set to {name}.", name=LANGUAGE_NAMES[code]), language=code)

    async def _cmd_settings(self, args: str, caller: Caller, lang: str) -> Reply:
        words = args.lower().split()
        if words:
            if not self._may_configure(caller):
                return _admins_only(lang)
            if words[0] == "board":
                return await self.web.set_board(caller.chat, words[1:], lang)
            error = await self._apply_settings(words, caller.chat, lang)
            if error:
                return Reply(error, language=lang, kind="error")
        current = await self.engine.chat_settings(caller.chat)
        seconds = current.question_seconds or self.engine.settings.question_seconds
        pause = current.pause_seconds if current.pause_seconds is not None else self.engine.settings.pause_seconds
        text = t(
            lang, "Question time: {seconds} s · pause between questions: {pause} s", seconds=seconds, pause=f"{pause:g}"
        )
        text += "\n" + t(lang, "Time zone: {zone}", zone=zones.zone(current.time_zone).key)
        text += "\n" + (
            t(lang, "A short reply when a question closes: on")
            if current.close_notice
            else t(lang, "A short reply when a question closes: off")
        )
        usage = t(lang, "Change them with /settings time 20, /settings pause 3 or /settings tz Asia/Kolkata (admins).")
        usage += "\n" + t(
            lang, "/settings notify on: a short reply as well when a question closes (off: the edit only)."
        )
        return Reply(f"{text}\n{usage}", title=t(lang, "⚙️ Settings"), language=lang)

    async def _apply_settings(self, words: list[str], chat: ChatRef, lang: str) -> str | None:
        if words[0] == "tz":
            return await self._set_time_zone(words[1:], chat, lang)
        if words[0] == "notify":
            if words[1:] not in (["on"], ["off"]):
                return t(lang, "Usage: /settings notify on or /settings notify off.")
            await self.engine.update_chat(chat, close_notice=words[1] == "on")
            return None
        if len(words) != 2 or words[0] not in SETTINGS or not words[1].isdecimal():
            return t(lang, "Usage: /settings time <seconds> or /settings pause <seconds>.")
        (field, allowed), value = SETTINGS[words[0]], int(words[1])
        if value not in allowed:
            if words[0] == "time":
                return t(
                    lang,
                    "The question time must be between {low} and {high} seconds.",
                    low=allowed.low,
                    high=allowed.high,
                )
            return t(lang, "The pause must be between {low} and {high} seconds.", low=allowed.low, high=allowed.high)
        await self.engine.update_chat(chat, **{field: value})
        return None

    def _may_configure(self, caller: Caller) -> bool:
        return caller.chat.is_private or caller.is_admin

    async def _cmd_help(self, args: str, caller: Caller, lang: str) -> Reply:
        lines = [
            t(
                lang,
                "I host multiple-choice quizzes: press a button to answer, see why the right answer is right, and climb this chat's leaderboard.",
            ),
            "",
            t(lang, "/quiz [topic] [count]: start a quiz"),
            t(lang, "/quizzes: the quizzes you can play"),
            t(lang, "/leaderboard [week|month|all] [topic]: this chat's ranking"),
            t(lang, "/stats: your record in this chat"),
            t(lang, "/stop: end the running quiz (its starter or an admin)"),
            t(lang, "/language [code]: the chat's language ({codes})", codes=", ".join(LANGUAGES)),
            t(lang, "/settings: question time and pause (admins)"),
            t(lang, "/upload: add a quiz file to this chat (admins)"),
            t(lang, "/remove <quiz>: delete one of this chat's quizzes (admins)"),
            t(lang, "/dashboard: a link to this chat's web pages (admins)"),
            t(lang, "/board: the link to this chat's public leaderboard"),
            t(lang, "/review: your missed questions again, spaced over days (in a private chat)"),
            t(lang, "/quizstats [quiz]: how this chat answered each question (admins)"),
            t(lang, "/schedule: a quiz or a question of the day at fixed times (admins)"),
            t(lang, "/assign <quiz> until <date>: members play it in private by a deadline (admins)"),
            t(lang, "/newquiz [title]: write a quiz here, a quiz poll per question (in a private chat)"),
            t(lang, "/suggest: suggest a question to this group; /suggestions: decide on them (admins)"),
            t(lang, "/help: this message"),
        ]
        return Reply("\n".join(lines), title=t(lang, "👋 quizhost"), language=lang, kind="help")


def descriptions(lang: str) -> dict[str, str]:
    """One line per command for the platforms' command menus (Telegram setMyCommands, Discord)."""
    return {
        "quiz": i18n.t(lang, "Start a quiz: /quiz [topic] [count]"),
        "quizzes": i18n.t(lang, "The quizzes you can play"),
        "leaderboard": i18n.t(lang, "This chat's ranking: week, month or all time"),
        "stats": i18n.t(lang, "Your record in this chat"),
        "stop": i18n.t(lang, "End the running quiz"),
        "language": i18n.t(lang, "The chat's language"),
        "settings": i18n.t(lang, "Question time and pause (admins)"),
        "upload": i18n.t(lang, "Add a quiz file to this chat (admins)"),
        "remove": i18n.t(lang, "Delete one of this chat's quizzes (admins)"),
        "dashboard": i18n.t(lang, "A link to this chat's web pages (admins)"),
        "board": i18n.t(lang, "The link to this chat's public leaderboard"),
        "review": i18n.t(lang, "Your missed questions again (private chat)"),
        "quizstats": i18n.t(lang, "How this chat answered each question (admins)"),
        "schedule": i18n.t(lang, "A quiz or a question of the day at fixed times (admins)"),
        "assign": i18n.t(lang, "A quiz members play in private by a deadline (admins)"),
        "newquiz": i18n.t(lang, "Write a quiz: send quiz polls (private chat)"),
        "done": i18n.t(lang, "Save the quiz you are writing"),
        "suggest": i18n.t(lang, "Suggest a question to this group"),
        "suggestions": i18n.t(lang, "Approve or reject suggested questions (admins)"),
        "help": i18n.t(lang, "What this bot does"),
    }


def _split_count(args: str) -> tuple[str, int | None]:
    """'pipeline 5' -> ('pipeline', 5); a lone trailing number is the question count."""
    words = args.split()
    if words and words[-1].isdecimal() and len(words[-1]) <= 3:
        return " ".join(words[:-1]), int(words[-1])
    return " ".join(words), None


def _admins_only(lang: str) -> Reply:
    return Reply(t(lang, "Only chat admins can change this."), language=lang, kind="error", private=True)
