"""The commands every platform shares: parse the words, call the engine, answer a Reply.

Adapters turn a platform event into `handle(name, args, caller)` or `press(data, caller)`
and show what comes back; the wording and the rules live here once: this facade, /start and
/help here, each group of commands in its own module.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.commands.assign import AssignCommands
from bot.commands.authoring import Authoring
from bot.commands.boards import BoardCommands
from bot.commands.budget import Admission, ReplyBudgets, refuses, slow_down
from bot.commands.chatsettings import SettingsCommands
from bot.commands.deeplinks import DeepLinks
from bot.commands.learning import LearningCommands
from bot.commands.quizzes import QuizCommands
from bot.commands.typed import TypedAnswers
from bot.commands.web import WebCommands
from bot.commands.weblinks import WebAddress
from bot.commands.writing import WRITING_COMMANDS, WritingCommands
from bot.domain import tokens
from bot.domain.assignment import assignment_of
from bot.domain.model import LANGUAGES, Ack, ChatRef, Player, Reply
from bot.engine.assignments import Assignments
from bot.engine.core import Engine
from bot.engine.review import ReviewDesk
from bot.engine.scheduler import Scheduler
from bot.texts import i18n
from bot.texts.render import REVIEW_START, t  # message text (isolates for RTL); command menus use i18n.t
from bot.texts.textcut import clean

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
MAX_ARGS = 200
_COMMAND = re.compile(r"^/([A-Za-z_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?:\s+(.*))?$", re.S)


@dataclass(frozen=True)
class Caller:
    chat: ChatRef
    player: Player
    is_admin: bool = False  # the adapter asks the platform; in a private chat the player is admin
    private_replies: bool = False  # the platform shows a reply to the caller alone, even in a group (Discord)
    # the chat has no buttons, polls or forms: answers and questions are typed (the terminal)
    typed_only: bool = False


def known(name: str) -> bool:
    return name in COMMANDS or name in ALIASES


def parse(text: str, bot_name: str | None = None) -> tuple[str, str] | None:
    """'/quiz@Bot pipeline 5' -> ('quiz', 'pipeline 5'); None if not a command for this bot."""
    match = _COMMAND.match((text or "").strip())
    if not match:
        return None
    name, addressee, args = match.group(1).lower(), match.group(2), (match.group(3) or "").strip()
    if addressee and bot_name and addressee.lower() != bot_name.lower():
        return None
    return ALIASES.get(name, name), args[:MAX_ARGS]


class Commands(QuizCommands, BoardCommands, SettingsCommands, LearningCommands, AssignCommands, WritingCommands):
    """Every command, press and typed answer a chat sends: the groups of commands are mixins
    (quizzes.py, boards.py, chatsettings.py, learning.py, assign.py, writing.py); this facade
    dispatches to them and decides who may configure a chat."""

    def __init__(self, engine: Engine, web: WebAddress | None = None) -> None:
        self.engine = engine
        self.web = WebCommands(engine, web or WebAddress())
        self.links = DeepLinks(engine.store, self.web.address.secret)  # what signs "Answer" deep links
        self.review = ReviewDesk(engine)
        self.scheduler = Scheduler(engine)
        self.assignments = Assignments(engine)
        self.typed = TypedAnswers(engine, self.review)
        self.authoring = Authoring(engine)
        self.budgets = ReplyBudgets(engine.clock)  # what one user's commands and messages may make us say

    async def within_budget(
        self, name: str, args: str, caller: Caller, work: Callable[[], Awaitable[Reply]]
    ) -> Reply | None:
        """`work()`'s reply to a command, within the caller's budget (budget.py): None when nothing
        is to be said (and `work` is not done); the slow-down once per burst. The same unknown
        command, or the same refused /start payload (a dead deep link), is answered once a
        minute at most."""
        user = caller.player.key
        if not known(name) and not self.budgets.may_refuse(user, name):
            return None
        admission = self.budgets.admit(user)
        if admission is Admission.QUIET:
            return None
        if admission is Admission.SLOW_DOWN:
            lang = await self.engine.language_for(caller.chat, caller.player)
            return Reply(slow_down(lang, self.budgets.seconds_to_next(user)), language=lang, kind="error")
        reply = await work()
        if name == "start" and args and reply.kind == "error" and not self.budgets.may_refuse(user, args):
            return None
        return reply

    def ack_within_budget(self, caller: Caller, ack: Ack | None) -> Ack | None:
        """The acknowledgement of a message (a typed answer), within the caller's budget: a refusal
        (nothing open to answer) once a minute at most, the others from the bucket."""
        user = caller.player.key
        if ack is None:
            return None
        if refuses(ack):
            return ack if self.budgets.may_refuse(user) else None
        admission = self.budgets.admit(user)
        if admission is Admission.SLOW_DOWN:
            return Ack(slow_down(ack.language, self.budgets.seconds_to_next(user)), False, ack.language, retry=True)
        return ack if admission is Admission.SAY else None

    async def handle(self, name: str, args: str, caller: Caller) -> Reply:
        lang = await self.engine.language_for(caller.chat, caller.player)
        handler = getattr(self, f"_cmd_{ALIASES.get(name, name)}", None)
        if not known(name) or handler is None:
            return Reply(
                t(lang, "Unknown command {command}. /help lists the commands.", command=f"/{name[:32]}"),
                language=lang,
                kind="error",
            )
        # every platform's command words come in here: cleaned as names are (a NUL, which
        # PostgreSQL refuses in a query, a lone surrogate, a directional override)
        return await handler(clean(args).strip(), caller, lang)

    async def press(self, data: str, caller: Caller) -> Ack | Reply:
        """A button: an answer token goes to the engine; quiz and language picks are handled here."""
        kind = tokens.kind_of(data)
        if kind is tokens.Kind.ANSWER:  # nearly every press: straight on, the engine checks it whole
            return await self.engine.answer(data, caller.player, caller.chat)
        if kind is tokens.Kind.REVIEW:
            return await self.review.answer(data, caller.player)
        if (question_id := tokens.undone(data)) is not None:
            return await self._undo(question_id, caller)
        if kind is tokens.Kind.SUGGESTION:
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

    async def _cmd_start(self, args: str, caller: Caller, lang: str) -> Reply:
        if args.startswith("quiz_"):  # Telegram deep link t.me/<bot>?start=quiz_<id>
            return await self._cmd_quiz(args[len("quiz_") :], caller, lang)
        if (opened := await self._opened_link(args, caller, lang)) is not None:  # a saved quiz's link
            return opened
        if args == REVIEW_START:  # the podium's "Review my misses": t.me/<bot>?start=review
            return await self._cmd_review("", caller, lang)
        if (assignment := assignment_of(args)) is not None:  # an assignment's Start: ?start=assign_<id>
            return await self._assignment_start(assignment, caller, lang)
        if caller.chat.is_private and (asked := await self.links.answer_of(args)) is not None:
            return await self.typed.sent_to_answer(asked, caller, lang)  # a typed question's "Answer" deep link
        return await self._cmd_help(args, caller, lang)

    def _may_configure(self, caller: Caller) -> bool:
        return caller.chat.is_private or caller.is_admin

    async def _cmd_help(self, args: str, caller: Caller, lang: str) -> Reply:
        if caller.typed_only:
            return Reply("\n".join(_typed_help(lang)), title=t(lang, "👋 quizhost"), language=lang, kind="help")
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


def _typed_help(lang: str) -> list[str]:
    """/help where everything is typed (the terminal): no buttons or polls, no group to assign to."""
    return [
        t(
            lang,
            "I host quizzes here: type a letter (or your answer) to answer, see why the right answer is right, "
            "and climb the leaderboard.",
        ),
        "",
        t(lang, "/quiz [topic] [count]: start a quiz"),
        t(lang, "/quizzes: the quizzes you can play"),
        t(lang, "/leaderboard [week|month|all] [topic]: this chat's ranking"),
        t(lang, "/stats: your record in this chat"),
        t(lang, "/stop: end the running quiz or review"),
        t(lang, "/language [code]: the chat's language ({codes})", codes=", ".join(LANGUAGES)),
        t(lang, "/settings: question time and pause (admins)"),
        t(lang, "/upload <file>: add a quiz file, by its path"),
        t(lang, "/remove <quiz>: delete one of this chat's quizzes (admins)"),
        t(lang, "/review: your missed questions again, spaced over days"),
        t(lang, "/quizstats [quiz]: how this chat answered each question (admins)"),
        t(lang, "/newquiz [title]: write a quiz here, a typed line per question"),
        t(lang, "/help: this message"),
        t(lang, "/quit: leave quizhost"),
    ]


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
