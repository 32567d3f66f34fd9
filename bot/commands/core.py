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
from bot.commands.boards import BoardCommands
from bot.commands.budget import Admission, ReplyBudgets, refuses, slow_down
from bot.commands.chatsettings import SettingsCommands
from bot.commands.deeplinks import DeepLinks
from bot.commands.finding import QuizFinder
from bot.commands.hosting import HostCommands
from bot.commands.learning import LearningCommands
from bot.commands.quizzes import QuizCommands
from bot.commands.table import ALIASES, command, help_lines, picked, started
from bot.commands.teams import TeamCommands
from bot.commands.typed import TypedAnswers
from bot.commands.writing import WritingCommands
from bot.content.catalog import Catalog
from bot.content.drafts import PollSpec, QuestionForm
from bot.domain import tokens
from bot.domain.assignment import assignment_of
from bot.domain.model import Ack, ChatRef, Player, Quiz, Reply
from bot.engine.chats import Chats
from bot.engine.core import Engine
from bot.engine.review import ReviewDesk
from bot.ports.clock import Clock
from bot.texts.render import t  # message text (isolates for RTL)
from bot.texts.textcut import clean

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
    # the members the command names, as its platform marks them (a mention, the author of the
    # message it replies to), in order: /settings extra and /assign … extra take one
    mentions: tuple[Player, ...] = ()


def known(name: str) -> bool:
    return command(name) is not None


def parse(text: str, bot_name: str | None = None) -> tuple[str, str] | None:
    """'/name@Bot some words' -> ('name', 'some words'), an alias as its command's name; None
    if not a command for this bot."""
    match = _COMMAND.match((text or "").strip())
    if not match:
        return None
    name, addressee, args = match.group(1).lower(), match.group(2), (match.group(3) or "").strip()
    if addressee and bot_name and addressee.lower() != bot_name.lower():
        return None
    return ALIASES.get(name, name), args[:MAX_ARGS]


@dataclass(frozen=True)
class CommandGroups:
    """The groups of commands, each built with only what it uses (bot/app/compose.py)."""

    quizzes: QuizCommands
    boards: BoardCommands
    settings: SettingsCommands
    learning: LearningCommands
    assign: AssignCommands
    writing: WritingCommands
    teams: TeamCommands
    hosting: HostCommands


class Commands:
    """Every command, press and typed answer a chat sends: this facade runs each command's
    handler as the command table names it (table.py), in its group (quizzes.py, boards.py,
    chatsettings.py, learning.py, assign.py, writing.py); a press goes to the engine, a review
    or a group, a message to the typed answers."""

    def __init__(
        self,
        *,
        engine: Engine,
        chats: Chats,
        quizzes: QuizFinder,
        clock: Clock,
        groups: CommandGroups,
        review: ReviewDesk,
        typed: TypedAnswers,
        links: DeepLinks,
        budgets: ReplyBudgets,
    ) -> None:
        """`engine` takes the presses; `chats` says which language to answer in; `quizzes` are
        listed for the platforms' menus; `clock`: the adapters' too; `links` reads
        (and signs) the typed questions' "Answer" deep links; `budgets`: what one user's
        commands and messages may make us say."""
        self.engine, self.chats, self.quizzes, self.clock = engine, chats, quizzes, clock
        self.groups: CommandGroups = groups  # the command table's handlers are theirs (table.py)
        self.review, self.typed, self.links, self.budgets = review, typed, links, budgets

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
            lang = await self.chats.language_for(caller.chat, caller.player)
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
        lang = await self.chats.language_for(caller.chat, caller.player)
        found = command(name)
        if found is None or found.run is None:
            return Reply(
                t(lang, "Unknown command {command}. /help lists the commands.", command=f"/{name[:32]}"),
                language=lang,
                kind="error",
            )
        # every platform's command words come in here: cleaned as names are (a NUL, which
        # PostgreSQL refuses in a query, a lone surrogate, a directional override)
        return await found.run(self)(clean(args).strip(), caller, lang)

    async def deep_link(self, payload: str, caller: Caller) -> Reply:
        """/start with this payload: a deep link, or a button that goes on in a private chat."""
        return await self.handle("start", payload, caller)

    async def press(self, data: str, caller: Caller) -> Ack | Reply:
        """A button: an answer token goes to the engine; quiz and language picks are handled here."""
        kind = tokens.kind_of(data)
        if kind is tokens.Kind.ANSWER:  # nearly every press: straight on, the engine checks it whole
            return await self.engine.answer(data, caller.player, caller.chat)
        if kind is tokens.Kind.REVIEW:
            return await self.review.answer(data, caller.player)
        if (question_id := tokens.undone(data)) is not None:
            return await self.groups.writing.undo(question_id, caller)
        if kind is tokens.Kind.SUGGESTION:
            return await self.groups.writing.decide(data, caller)
        if kind is tokens.Kind.TEAM:
            return await self.groups.teams.press(data, caller)
        if kind is tokens.Kind.HOST:
            return await self.groups.hosting.panel_press(data, caller)
        if (target := tokens.form_target(data)) is not None:  # where no form opens (Discord opens one)
            return await self.groups.writing.form_button(target, caller)
        pick = tokens.pick(data)
        if pick is None:
            return await self.engine.answer(data, caller.player, caller.chat)
        lang = await self.chats.language_for(caller.chat, caller.player)
        picker = picked(pick.kind)
        assert picker is not None and picker.run is not None  # every pick's kind has its command
        return await picker.run(self)(pick.value, caller, lang)

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

    # what the adapters ask besides commands, presses and messages --------------------------

    async def language_for(self, chat: ChatRef, player: Player | None = None) -> str:
        """The language to answer in (bot/engine/chats.py)."""
        return await self.chats.language_for(chat, player)

    async def move_chat(self, old: ChatRef, new: ChatRef) -> None:
        """A chat got a new id (a Telegram group upgraded to a supergroup)."""
        await self.chats.move(old, new)

    def shared_quizzes(self) -> Catalog:
        """The quizzes every chat can play (Discord's autocomplete)."""
        return self.quizzes.catalog

    async def own_quizzes(self, chat_key: str) -> list[Quiz]:
        """The quizzes uploaded in a chat (Discord's autocomplete)."""
        return await self.quizzes.chat_quizzes.all(chat_key)

    def may_upload(self, caller: Caller) -> bool:
        """Adapters ask before they download anything: only admins add quizzes."""
        return self.groups.quizzes.may_upload(caller)

    async def upload(
        self, caller: Caller, name: str, data: bytes, size: int | None = None, language: str = "en"
    ) -> Reply:
        """A file sent with /upload (bot/commands/quizzes.py)."""
        return await self.groups.quizzes.upload(caller, name, data, size, language)

    async def poll(self, spec: PollSpec, caller: Caller) -> Reply:
        """A poll sent in a private chat: a question of the author's draft (bot/commands/writing.py)."""
        return await self.groups.writing.poll(spec, caller)

    async def draft_line(self, text: str, caller: Caller) -> Reply | None:
        """A line in the fixed layout while a draft is open (the terminal); None: no draft is open."""
        return await self.groups.writing.draft_line(text, caller)

    async def suggest_poll(self, spec: PollSpec, caller: Caller) -> Reply:
        """/suggest in reply to a poll, in a group."""
        return await self.groups.writing.suggest_poll(spec, caller)

    async def question_form(self, form: QuestionForm, target: str, caller: Caller) -> Reply:
        """A form sent (Discord's modal): "add", "suggest", or the id of the question it edits."""
        return await self.groups.writing.question_form(form, target, caller)

    async def form_defaults(self, target: str, caller: Caller) -> QuestionForm | None:
        return await self.groups.writing.form_defaults(target, caller)

    async def bot_is_back(self, chat: ChatRef) -> Reply | None:
        """The bot was added back to the chat: its paused schedules resume (bot/commands/learning.py)."""
        return await self.groups.learning.bot_is_back(chat)

    async def cmd_start(self, args: str, caller: Caller, lang: str) -> Reply:
        # Telegram deep links t.me/<bot>?start=quiz_<id>, the podium's "Review my misses" (?start=review)
        if (link := started(args)) is not None and (run := link[0].run) is not None:
            return await run(self)(link[1], caller, lang)
        if (opened := await self.groups.writing.opened_link(args, caller, lang)) is not None:  # a saved quiz's link
            return opened
        if (assignment := assignment_of(args)) is not None:  # an assignment's Start: ?start=assign_<id>
            return await self.groups.assign.start(assignment, caller, lang)
        if caller.chat.is_private and (asked := await self.links.answer_of(args)) is not None:
            return await self.typed.sent_to_answer(asked, caller, lang)  # a typed question's "Answer" deep link
        return await self.cmd_help(args, caller, lang)

    async def cmd_help(self, args: str, caller: Caller, lang: str) -> Reply:
        if caller.typed_only:  # the terminal: no buttons or polls, no group to assign to
            intro = t(
                lang,
                "I host quizzes here: type a letter (or your answer) to answer, see why the right answer is right, "
                "and climb the leaderboard.",
            )
        else:
            intro = t(
                lang,
                "I host multiple-choice quizzes: press a button to answer, see why the right answer is right, and climb this chat's leaderboard.",
            )
        lines = [intro, "", *help_lines(lang, caller.typed_only, t)]
        return Reply("\n".join(lines), title=t(lang, "👋 quizhost"), language=lang, kind="help")
