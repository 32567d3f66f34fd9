"""Every command a chat can send, declared once: its name and aliases, its options, who may use
it, its lines in /help and in the command menus, and its handler.

What each platform shows and accepts comes from here: /help (bot/commands/core.py), Telegram's
command menus (setMyCommands), Discord's slash commands and their options, the terminal's
commands, `known`/`parse`, and docs/COMMANDS.md (written from this table by
tests/unit/test_command_table.py, which fails when the page is stale). A new command is one more
entry here (its handler a method of the facade's groups, or a function beside it) and its texts in
the catalogs.

Texts are `later(...)` msgids, translated when shown: /help with `bot.texts.render.t` (message
text), the menus with `bot.texts.i18n.t` (plain).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from bot.domain import tokens
from bot.domain.model import LANGUAGE_NAMES, LANGUAGES, PAUSE_SECONDS, QUESTION_SECONDS, Reply
from bot.texts.i18n import Later, later, shown
from bot.texts.render import REVIEW_START

if TYPE_CHECKING:
    from bot.commands.core import Caller, Commands

Handler = Callable[[str, "Caller", str], Awaitable[Reply]]  # (words, caller, language) -> the reply


class Rights(Enum):
    """Whose command it is, as the platform is asked before it runs."""

    ANYONE = "anyone"  # nobody's rights are asked
    ADMINS = "admins"  # the chat's admins may change what it changes (a private chat's player is its admin)
    MODERATORS = "moderators"  # admins, or (Discord) those who manage the channel's messages


class OptionKind(Enum):
    """What an option's value is (Discord's option types)."""

    TEXT = "text"
    NUMBER = "number"  # a whole number, within `low` and `high`
    FILE = "file"  # a quiz file: Discord's attachment, Telegram's document, a path in the terminal


@dataclass(frozen=True)
class Option:
    name: str
    help: Later
    kind: OptionKind = OptionKind.TEXT
    required: bool = False
    choices: tuple[tuple[Later | str, str], ...] = ()  # (label, value); a str label is the same in every language
    low: int | None = None
    high: int | None = None
    quizzes: bool = False  # offers the quizzes matching what has been typed (Discord's autocomplete)
    default: str = ""  # the word when no value is given


@dataclass(frozen=True)
class HelpLines:
    """A command's line in /help: where buttons and polls are (a chat), and where everything is
    typed (the terminal); None leaves it out there."""

    chat: Later | None
    typed: Later | None


def everywhere(line: Later) -> HelpLines:
    return HelpLines(line, line)


NO_HELP = HelpLines(None, None)


@dataclass(frozen=True)
class Command:
    name: str
    # the handler, given the Commands facade; None: the terminal's own (leaving it), no chat's command
    run: Callable[[Commands], Handler] | None
    menu: Later | None = None  # its line in the command menus (Telegram's, Discord's slash commands); None: in none
    help: HelpLines = NO_HELP
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    rights: Rights = Rights.ANYONE
    apart: bool = False  # each option given is a change of its own, "name value" (/settings time 20 pause 3)
    takes_question: bool = False  # a question comes with it: Discord's form (in a server), a quiz poll replied to
    posts: bool = False  # it posts a quiz to the chat, beyond its reply (Discord first checks the bot may)
    stops: bool = False  # it ends what the chat is playing (the terminal sends it when its input ends)
    picked_by: tokens.Kind | None = None  # a button that picks its words (tokens.pick)
    started_by: str | None = None  # a /start payload (a deep link) that runs it with no words
    started_with: str | None = None  # a /start payload prefix that runs it with the rest as its words
    doc: str = ""  # what it does, for docs/COMMANDS.md, where no menu or help line says it

    @property
    def file(self) -> Option | None:
        """The option that is a quiz file, if it takes one (/upload)."""
        return next((o for o in self.options if o.kind is OptionKind.FILE), None)


_WHAT = "what"  # the free words of a command whose Discord option is one line

COMMANDS: tuple[Command, ...] = (
    Command(
        "quiz",
        lambda c: c.groups.quizzes.cmd_quiz,
        menu=later("Start a quiz: /quiz [topic] [count]"),
        help=everywhere(later("/quiz [topic] [count]: start a quiz")),
        options=(
            Option("topic", later("A quiz id, alias or title word, e.g. pipeline"), quizzes=True),
            Option("count", later("How many questions (all when empty)"), OptionKind.NUMBER, low=1, high=100),
        ),
        posts=True,
        picked_by=tokens.Kind.QUIZ,
        started_with="quiz_",
    ),
    Command(
        "quizzes",
        lambda c: c.groups.quizzes.cmd_quizzes,
        menu=later("The quizzes you can play"),
        help=everywhere(later("/quizzes: the quizzes you can play")),
    ),
    Command(
        "leaderboard",
        lambda c: c.groups.boards.cmd_leaderboard,
        menu=later("This chat's ranking: week, month or all time"),
        help=everywhere(later("/leaderboard [week|month|all] [topic]: this chat's ranking")),
        aliases=("top",),
        options=(
            Option(
                "period",
                later("week, month or all time"),
                choices=((later("this week"), "week"), (later("this month"), "month"), (later("all time"), "all")),
                default="all",
            ),
            Option("topic", later("Only this quiz"), quizzes=True),
        ),
    ),
    Command(
        "stats",
        lambda c: c.groups.boards.cmd_stats,
        menu=later("Your record in this chat"),
        help=everywhere(later("/stats: your record in this chat")),
        aliases=("me",),
    ),
    Command(
        "stop",
        lambda c: c.groups.quizzes.cmd_stop,
        menu=later("End the running quiz"),
        help=HelpLines(
            later("/stop: end the running quiz (its starter or an admin)"),
            later("/stop: end the running quiz or review"),
        ),
        rights=Rights.MODERATORS,
        stops=True,
    ),
    Command(
        "language",
        lambda c: c.groups.settings.cmd_language,
        menu=later("The chat's language"),
        help=everywhere(later("/language [code]: the chat's language ({codes})", codes=", ".join(LANGUAGES))),
        options=(
            Option("code", later("The chat's language"), choices=tuple((LANGUAGE_NAMES[c], c) for c in LANGUAGES)),
        ),
        rights=Rights.ADMINS,
        picked_by=tokens.Kind.LANGUAGE,
    ),
    Command(
        "settings",
        lambda c: c.groups.settings.cmd_settings,
        menu=later("Question time and pause (admins)"),
        help=everywhere(later("/settings: question time and pause (admins)")),
        options=(
            Option(
                "time",
                later(
                    "Seconds to answer a question ({low} to {high})",
                    low=QUESTION_SECONDS.low,
                    high=QUESTION_SECONDS.high,
                ),
                OptionKind.NUMBER,
                low=QUESTION_SECONDS.low,
                high=QUESTION_SECONDS.high,
            ),
            Option(
                "pause",
                later("Seconds between questions ({low} to {high})", low=PAUSE_SECONDS.low, high=PAUSE_SECONDS.high),
                OptionKind.NUMBER,
                low=PAUSE_SECONDS.low,
                high=PAUSE_SECONDS.high,
            ),
            Option(
                "board",
                later("Whether the leaderboard has a public link (/board)"),
                choices=(
                    ("public", "public"),
                    ("private", "private"),
                    (later("live: standings during the game"), "live"),
                    (later("end: no standings before the podium"), "end"),
                ),
            ),
            Option("tz", later("The chat's time zone, e.g. Asia/Kolkata")),
            Option(
                "notify", later("A short reply as well when a question closes"), choices=(("on", "on"), ("off", "off"))
            ),
            Option(
                "host",
                later("Who may host a game (/host)"),
                choices=((later("anyone"), "anyone"), (later("admins"), "admins")),
            ),
            Option(
                "plain",
                later("Plain text for screen readers: no bars or emoji, counts in words"),
                choices=(("on", "on"), ("off", "off")),
            ),
            Option("extra", later("A member's extra time in assignments and private play: @member 1.5x, 2x or off")),
            Option(
                "scoring",
                later("How a right answer scores"),
                choices=(
                    (later("speed: a faster right answer earns more"), "speed"),
                    (later("accuracy: every right answer earns the same"), "accuracy"),
                ),
            ),
            Option("streaks", later("A bonus for right answers in a row"), choices=(("on", "on"), ("off", "off"))),
            Option("min_age", later("Discord only: how old an account must be to score (7d, 12h or off)")),
        ),
        rights=Rights.ADMINS,
        apart=True,
    ),
    Command(
        "upload",
        lambda c: c.groups.quizzes.cmd_upload,
        menu=later("Add a quiz file to this chat (admins)"),
        help=HelpLines(
            later("/upload: add a quiz file to this chat (admins)"),
            later("/upload <file>: add a quiz file, by its path"),
        ),
        options=(
            Option(
                "file",
                later("A quiz file: YAML, GIFT, Aiken, Open Trivia DB JSON, Kahoot or Quizizz .xlsx"),
                OptionKind.FILE,
                required=True,
            ),
        ),
        rights=Rights.ADMINS,
    ),
    Command(
        "remove",
        lambda c: c.groups.quizzes.cmd_remove,
        menu=later("Delete one of this chat's quizzes (admins)"),
        help=everywhere(later("/remove <quiz>: delete one of this chat's quizzes (admins)")),
        options=(Option("quiz", later("The id of one of this chat's own quizzes"), required=True),),
        rights=Rights.ADMINS,
    ),
    Command(
        "dashboard",
        lambda c: c.groups.boards.cmd_dashboard,
        menu=later("A link to this chat's web pages (admins)"),
        help=HelpLines(later("/dashboard: a link to this chat's web pages (admins)"), None),
        options=(
            Option(
                "action",
                later("revoke: end every link to this chat's pages given so far"),
                choices=(("revoke", "revoke"),),
            ),
        ),
        rights=Rights.ADMINS,
    ),
    Command(
        "board",
        lambda c: c.groups.boards.cmd_board,
        menu=later("The link to this chat's public leaderboard"),
        help=HelpLines(later("/board: the link to this chat's public leaderboard"), None),
    ),
    Command(
        "review",
        lambda c: c.groups.learning.cmd_review,
        menu=later("Your missed questions again (private chat)"),
        help=HelpLines(
            later("/review: your missed questions again, spaced over days (in a private chat)"),
            later("/review: your missed questions again, spaced over days"),
        ),
        started_by=REVIEW_START,
    ),
    Command(
        "quizstats",
        lambda c: c.groups.learning.cmd_quizstats,
        menu=later("How this chat answered each question (admins)"),
        help=everywhere(later("/quizstats [quiz]: how this chat answered each question (admins)")),
        options=(Option("topic", later("The quiz to show"), quizzes=True),),
        rights=Rights.ADMINS,
    ),
    Command(
        "schedule",
        lambda c: c.groups.learning.cmd_schedule,
        menu=later("A quiz or a question of the day at fixed times (admins)"),
        help=HelpLines(later("/schedule: a quiz or a question of the day at fixed times (admins)"), None),
        options=(Option(_WHAT, later("daily 09:00 pipeline 1 · weekly mon 18:00 pipeline · off 2 (empty: list)")),),
        rights=Rights.ADMINS,
    ),
    Command(
        "assign",
        lambda c: c.groups.assign.cmd_assign,
        menu=later("A quiz members play in private by a deadline (admins)"),
        help=HelpLines(later("/assign <quiz> until <date>: members play it in private by a deadline (admins)"), None),
        options=(Option(_WHAT, later("pipeline until 2026-12-24 18:00 · cancel 3 (empty: list)")),),
        rights=Rights.ADMINS,
    ),
    Command(
        "newquiz",
        lambda c: c.groups.writing.cmd_newquiz,
        menu=later("Write a quiz: send quiz polls (private chat)"),
        help=HelpLines(
            later("/newquiz [title]: write a quiz here, a quiz poll per question (in a private chat)"),
            later("/newquiz [title]: write a quiz here, a typed line per question"),
        ),
        options=(Option("title", later("The quiz's title")),),
    ),
    Command(
        "edit",
        lambda c: c.groups.writing.cmd_edit,
        doc="/edit N [line]: replace question N of the quiz you are writing",
    ),
    Command(
        "delete",
        lambda c: c.groups.writing.cmd_delete,
        doc="/delete N: take question N out of the quiz you are writing",
    ),
    Command(
        "move",
        lambda c: c.groups.writing.cmd_move,
        doc="/move N M: put question N of the quiz you are writing at place M",
    ),
    Command("done", lambda c: c.groups.writing.cmd_done, menu=later("Save the quiz you are writing")),
    Command(
        "round",
        lambda c: c.groups.writing.cmd_round,
        menu=later("Start a round of the quiz you are writing"),
        doc="/round <name> [x2]: the next questions of the quiz you are writing make a round",
        options=(Option(_WHAT, later("Science x2: its name, and its points multiplier if not 1")),),
    ),
    Command(
        "hint",
        lambda c: c.groups.hosting.cmd_hint,  # a draft's hint while one is written, else the host's
        menu=later("Give the last question you wrote a hint"),
        help=everywhere(later("/hint: (host) show the question's hint: answers after it earn half the speed points")),
        doc="/hint <text>: a hint for the last question of the quiz you are writing",
        options=(Option(_WHAT, later("The hint: it helps without giving the answer away")),),
    ),
    Command(
        "discard",
        lambda c: c.groups.writing.cmd_discard,
        doc="/discard: throw away the quiz you are writing",
    ),
    Command(
        "suggest",
        lambda c: c.groups.writing.cmd_suggest,
        menu=later("Suggest a question to this group"),
        help=HelpLines(
            later("/suggest: suggest a question to this group; /suggestions: decide on them (admins)"), None
        ),
        takes_question=True,
    ),
    Command(
        "suggestions",
        lambda c: c.groups.writing.cmd_suggestions,
        menu=later("Approve or reject suggested questions (admins)"),
        options=(
            Option(_WHAT, later("approve N [quiz] · reject N [why] · edit N prompt | *right | option (empty: list)")),
        ),
        rights=Rights.ADMINS,
    ),
    # teams (issue #49): a chat's line-up for its next quiz, and joining it by typing
    Command(
        "teams",
        lambda c: c.groups.teams.cmd_teams,
        menu=later("Teams for the next quiz (admins): /teams [2-8 | names] [mean | sum | top3]"),
        help=everywhere(later("/teams [2-8 | names | balanced | off]: teams for the next quiz (admins)")),
        options=(Option(_WHAT, later("2-8 or the teams' names, then mean, sum or top3; balanced; off")),),
        rights=Rights.ADMINS,
    ),
    Command(
        "join",
        lambda c: c.groups.teams.cmd_join,
        menu=later("Join a team: /join N"),
        help=everywhere(later("/join N: join team N for the next quiz")),
        options=(Option("team", later("The team's number"), OptionKind.NUMBER, required=True, low=1, high=8),),
    ),
    Command(
        "help", lambda c: c.cmd_help, menu=later("What this bot does"), help=everywhere(later("/help: this message"))
    ),
    # /start: a deep link's payload, a button that goes on in a private chat; else /help.
    # A saved quiz's "Play in a group" link adds it to the group, which admins alone may do
    Command(
        "start",
        lambda c: c.cmd_start,
        rights=Rights.ADMINS,
        doc="/start [payload]: a deep link (a quiz, a saved quiz, a review, an assignment, an answer); else /help",
    ),
    # the terminal's own, as Ctrl-D: leave it (a running quiz is stopped)
    Command("quit", None, help=HelpLines(None, later("/quit: leave quizhost")), aliases=("exit",)),
    # the big screen (bot/adapters/web/screen.py): anyone may watch; an admin also gets the controls
    Command(
        "screen",
        lambda c: c.groups.boards.cmd_screen,
        menu=later("A live page of the game for a projector or a stream"),
        help=everywhere(later("/screen [join link]: a live page of the game for a projector or a stream")),
        options=(Option("join", later("The link players join this chat with, shown as a QR code")),),
    ),
)


# a hosted game (/host): its host paces it; the engine checks that the one asking is its host
COMMANDS += (
    Command(
        "host",
        lambda c: c.groups.hosting.cmd_host,
        menu=later("Host a game you pace: /host [topic] [count]"),
        help=everywhere(later("/host [topic] [count] [30s]: host a game: you post each question (30s: a time limit)")),
        options=(
            Option("topic", later("A quiz id, alias or title word, e.g. pipeline"), quizzes=True),
            Option("count", later("How many questions (all when empty)"), OptionKind.NUMBER, low=1, high=100),
        ),
        rights=Rights.ADMINS,  # the platform is asked: in a group an admin hosts, unless the group lets anyone
        posts=True,
    ),
    Command(
        "next",
        lambda c: c.groups.hosting.cmd_next,
        menu=later("Host: close the question, or post the next"),
        help=everywhere(later("/next: (host) close the question, or post the next")),
    ),
    Command(
        "pause",
        lambda c: c.groups.hosting.cmd_pause,
        menu=later("Host: pause the question's clock"),
        help=everywhere(later("/pause, /resume: (host) stop the question's clock, and go on")),
    ),
    Command("resume", lambda c: c.groups.hosting.cmd_resume, menu=later("Host: go on after a pause")),
    Command(
        "skip",
        lambda c: c.groups.hosting.cmd_skip,
        menu=later("Host: skip the question (it counts for nobody)"),
        help=everywhere(later("/skip: (host) skip the question: it counts for nobody")),
    ),
    Command(
        "end",
        lambda c: c.groups.hosting.cmd_end,
        menu=later("Host: end the game, with its podium"),
        help=everywhere(later("/end: (host) end the game, with its podium")),
    ),
)

_CHAT_COMMANDS = {c.name: c for c in COMMANDS if c.run is not None}
NAMES = tuple(_CHAT_COMMANDS)  # what a chat may send, aliases aside
ALIASES = {alias: c.name for c in _CHAT_COMMANDS.values() for alias in c.aliases}
_LEAVING = frozenset(name for c in COMMANDS if c.run is None for name in (c.name, *c.aliases))


def command(name: str) -> Command | None:
    """The command a chat sends by this name or alias; None for any other word."""
    return _CHAT_COMMANDS.get(ALIASES.get(name, name))


def leaves(parsed: tuple[str, str] | None) -> bool:
    """Whether a parsed line is the terminal's own /quit (or /exit), which leaves it."""
    return parsed is not None and parsed[0] in _LEAVING and not parsed[1]


def stopping() -> Command:
    """The command that ends what a chat is playing (/stop)."""
    return next(c for c in COMMANDS if c.stops)


def picked(kind: tokens.Kind) -> Command | None:
    """The command a pick button of this kind runs (a quiz or a language picked)."""
    return next((c for c in COMMANDS if c.picked_by is kind), None)


def started(payload: str) -> tuple[Command, str] | None:
    """The command a /start payload runs, and its words; None when the payload names none."""
    for c in COMMANDS:
        if c.started_by is not None and payload == c.started_by:
            return c, ""
        if c.started_with is not None and payload.startswith(c.started_with):
            return c, payload[len(c.started_with) :]
    return None


def descriptions(lang: str) -> dict[str, str]:
    """One line per command for the platforms' command menus (Telegram setMyCommands, Discord)."""
    return {c.name: shown(lang, c.menu) for c in COMMANDS if c.menu is not None}


def help_lines(lang: str, typed: bool, translate: Callable[..., str]) -> list[str]:
    """The commands' lines of /help, in a chat or where everything is typed (the terminal)."""
    lines = (c.help.typed if typed else c.help.chat for c in COMMANDS)
    return [shown(lang, line, translate) for line in lines if line is not None]
