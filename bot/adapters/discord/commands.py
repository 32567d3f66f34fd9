"""The slash commands: Discord options turned into the words bot.commands.core expects.

No `from __future__ import annotations` here: discord.py reads the callbacks' annotations
to build the options, and these callbacks are closures whose annotations must be objects.
"""

from collections.abc import Awaitable, Callable, Mapping, Sequence

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.commands.core import descriptions
from bot.content.catalog import Catalog, topic_words
from bot.domain.model import FALLBACK_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, PAUSE_SECONDS, QUESTION_SECONDS, QuizInfo
from bot.texts.i18n import normalise, t

RunCommand = Callable[..., Awaitable[None]]  # (interaction, name, *args): one Commands.handle per args
Upload = Callable[[discord.Interaction, discord.Attachment], Awaitable[None]]
OwnQuizzes = Callable[[discord.Interaction], Awaitable[Sequence[QuizInfo]]]  # the channel's uploaded quizzes
OpenForm = Callable[[discord.Interaction], Awaitable[None]]  # /suggest: a question's form
CHOICES_MAX = 25  # Discord shows at most 25 autocomplete choices
CHOICE_MAX = 100  # characters in a choice's name and value
DESCRIPTION_MAX = 100
SETTINGS = ("time", "pause", "board", "tz", "notify")  # /settings options, each a change of its own


def option_texts(lang: str) -> dict[str, str]:
    """Slash option descriptions; written out so gettext extraction finds every one."""
    return {
        "topic": t(lang, "A quiz id, alias or title word, e.g. pipeline"),
        "count": t(lang, "How many questions (all when empty)"),
        "period": t(lang, "week, month or all time"),
        "board_topic": t(lang, "Only this quiz"),
        "code": t(lang, "The chat's language"),
        "time": t(
            lang, "Seconds to answer a question ({low} to {high})", low=QUESTION_SECONDS.low, high=QUESTION_SECONDS.high
        ),
        "pause": t(lang, "Seconds between questions ({low} to {high})", low=PAUSE_SECONDS.low, high=PAUSE_SECONDS.high),
        "file": t(lang, "A quiz file: YAML, GIFT, Aiken, Open Trivia DB JSON, Kahoot or Quizizz .xlsx"),
        "quiz": t(lang, "The id of one of this chat's own quizzes"),
        "board": t(lang, "Whether the leaderboard has a public link (/board)"),
        "tz": t(lang, "The chat's time zone, e.g. Asia/Kolkata"),
        "notify": t(lang, "A short reply as well when a question closes"),
        "stats_topic": t(lang, "The quiz to show"),
        "dashboard": t(lang, "revoke: end every link to this chat's pages given so far"),
        "schedule": t(lang, "daily 09:00 pipeline 1 · weekly mon 18:00 pipeline · off 2 (empty: list)"),
        "assign": t(lang, "pipeline until 2026-12-24 18:00 · cancel 3 (empty: list)"),
        "title": t(lang, "The quiz's title"),
        "suggestions": t(lang, "approve N [quiz] · reject N [why] · edit N prompt | *right | option (empty: list)"),
    }


class QuizTranslator(app_commands.Translator):
    """Descriptions and choice names in the user's Discord language, from the bot's catalogs.

    Discord has a Hindi locale ("hi") but none for Shona or Urdu: those users see English.
    Command and option names stay the same words everywhere.
    """

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = normalise(locale.value)
        if lang is None or lang == FALLBACK_LANGUAGE:
            return None
        option = string.extras.get("option")  # an option text with its values filled in: look it up by key
        text = option_texts(lang)[option] if option else t(lang, string.message)
        return text[:DESCRIPTION_MAX] if text != string.message else None


def topic_choices(catalog: Catalog, current: str, lang: str, own: Sequence[QuizInfo] = ()) -> list[Choice[str]]:
    """Quizzes whose id, alias, title or tag matches what has been typed so far: the channel's
    own first (Discord shows 25 at most, and they are what this channel made), then shipped ones."""
    quizzes = catalog.all()
    typed = " ".join(topic_words(current))
    if typed:
        matched = catalog.match(current)
        ids = {q.id for q in matched}
        matched += [q for q in quizzes if q.id not in ids and typed in _searchable(q)]
        quizzes = matched
        own = [q for q in own if typed in _searchable(q)]
    return [
        Choice(name=_choice_name(f"{q.title.get(lang)} ({q.id})"), value=q.id[:CHOICE_MAX])
        for q in [*own, *quizzes][:CHOICES_MAX]
    ]


def _searchable(quiz: QuizInfo) -> str:
    return " ".join(topic_words(" ".join([quiz.id, *quiz.aliases, *quiz.tags, *quiz.title.all()])))


def _choice_name(text: str) -> str:
    return text if len(text) <= CHOICE_MAX else text[: CHOICE_MAX - 1] + "…"


def _words(*parts: object) -> str:
    return " ".join(str(p) for p in parts if p not in (None, ""))


def command_words(name: str, options: Mapping[str, object]) -> tuple[str, ...]:
    """The arguments of one `Commands.handle` call each (several: /settings time 20 pause 3),
    from a slash command's options as Discord sends them (a choice's value, not its name).
    The gateway's callbacks and the interactions endpoint's JSON both come through here."""
    get = options.get
    if name == "quiz":
        return (_words(get("topic"), get("count")),)
    if name == "leaderboard":
        return (_words(get("period") or "all", get("topic")),)
    if name == "settings":
        changes = [
            f"{key} {get(key)}" for key in ("time", "pause", "board", "tz", "notify") if get(key) not in (None, "")
        ]
        return tuple(changes)
    if name == "dashboard":
        return (str(get("action")),) if get("action") else ()
    single = {
        "language": "code",
        "remove": "quiz",
        "quizstats": "topic",
        "schedule": "what",
        "assign": "what",
        "newquiz": "title",
        "suggestions": "what",
    }.get(name)
    return (str(get(single) or ""),) if single else ()


def _value(choice: Choice[str] | None) -> str | None:
    return choice.value if choice is not None else None


def register(
    tree: app_commands.CommandTree,
    run: RunCommand,
    catalog: Catalog,
    upload: Upload,
    own_quizzes: OwnQuizzes,
    suggest: OpenForm,
) -> None:
    """Add quizhost's commands to the tree (synced later, globally or per server)."""
    en, opt = descriptions("en"), option_texts("en")

    def d(text: str) -> locale_str:
        return locale_str(text[:DESCRIPTION_MAX])

    def o(key: str) -> locale_str:
        return locale_str(opt[key][:DESCRIPTION_MAX], option=key)

    async def complete_topic(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = normalise(interaction.locale.value) or FALLBACK_LANGUAGE
        return topic_choices(catalog, current, lang, await own_quizzes(interaction))

    @tree.command(name="quiz", description=d(en["quiz"]))
    @app_commands.describe(topic=o("topic"), count=o("count"))
    @app_commands.autocomplete(topic=complete_topic)
    async def quiz(
        interaction: discord.Interaction, topic: str | None = None, count: app_commands.Range[int, 1, 100] | None = None
    ) -> None:
        await run(interaction, "quiz", *command_words("quiz", {"topic": topic, "count": count}))

    @tree.command(name="quizzes", description=d(en["quizzes"]))
    async def quizzes(interaction: discord.Interaction) -> None:
        await run(interaction, "quizzes")

    @tree.command(name="leaderboard", description=d(en["leaderboard"]))
    @app_commands.describe(period=o("period"), topic=o("board_topic"))
    @app_commands.choices(
        period=[
            Choice(name=locale_str("this week"), value="week"),
            Choice(name=locale_str("this month"), value="month"),
            Choice(name=locale_str("all time"), value="all"),
        ]
    )
    @app_commands.autocomplete(topic=complete_topic)
    async def leaderboard(
        interaction: discord.Interaction, period: Choice[str] | None = None, topic: str | None = None
    ) -> None:
        await run(interaction, "leaderboard", *command_words("leaderboard", {"period": _value(period), "topic": topic}))

    @tree.command(name="stats", description=d(en["stats"]))
    async def stats(interaction: discord.Interaction) -> None:
        await run(interaction, "stats")

    @tree.command(name="stop", description=d(en["stop"]))
    async def stop(interaction: discord.Interaction) -> None:
        await run(interaction, "stop")

    @tree.command(name="language", description=d(en["language"]))
    @app_commands.describe(code=o("code"))
    @app_commands.choices(code=[Choice(name=LANGUAGE_NAMES[c], value=c) for c in LANGUAGES])
    async def language(interaction: discord.Interaction, code: Choice[str] | None = None) -> None:
        await run(interaction, "language", *command_words("language", {"code": _value(code)}))

    @tree.command(name="settings", description=d(en["settings"]))
    @app_commands.describe(time=o("time"), pause=o("pause"), board=o("board"), tz=o("tz"), notify=o("notify"))
    @app_commands.choices(
        board=[Choice(name="public", value="public"), Choice(name="private", value="private")],
        notify=[Choice(name="on", value="on"), Choice(name="off", value="off")],
    )
    async def settings(
        interaction: discord.Interaction,
        time: app_commands.Range[int, QUESTION_SECONDS.low, QUESTION_SECONDS.high] | None = None,
        pause: app_commands.Range[int, PAUSE_SECONDS.low, PAUSE_SECONDS.high] | None = None,
        board: Choice[str] | None = None,
        tz: str | None = None,
        notify: Choice[str] | None = None,
    ) -> None:
        chosen = {"time": time, "pause": pause, "board": _value(board), "tz": tz, "notify": _value(notify)}
        await run(interaction, "settings", *command_words("settings", chosen))

    @tree.command(name="upload", description=d(en["upload"]))
    @app_commands.describe(file=o("file"))
    async def upload_(interaction: discord.Interaction, file: discord.Attachment) -> None:
        await upload(interaction, file)

    @tree.command(name="remove", description=d(en["remove"]))
    @app_commands.describe(quiz=o("quiz"))
    async def remove(interaction: discord.Interaction, quiz: str) -> None:
        await run(interaction, "remove", *command_words("remove", {"quiz": quiz}))

    @tree.command(name="dashboard", description=d(en["dashboard"]))
    @app_commands.describe(action=o("dashboard"))
    @app_commands.choices(action=[Choice(name="revoke", value="revoke")])
    async def dashboard(interaction: discord.Interaction, action: Choice[str] | None = None) -> None:
        await run(interaction, "dashboard", *command_words("dashboard", {"action": _value(action)}))

    @tree.command(name="board", description=d(en["board"]))
    async def board_link(interaction: discord.Interaction) -> None:
        await run(interaction, "board")

    @tree.command(name="review", description=d(en["review"]))
    async def review(interaction: discord.Interaction) -> None:
        await run(interaction, "review")

    @tree.command(name="quizstats", description=d(en["quizstats"]))
    @app_commands.describe(topic=o("stats_topic"))
    @app_commands.autocomplete(topic=complete_topic)
    async def quizstats(interaction: discord.Interaction, topic: str | None = None) -> None:
        await run(interaction, "quizstats", *command_words("quizstats", {"topic": topic}))

    @tree.command(name="schedule", description=d(en["schedule"]))
    @app_commands.describe(what=o("schedule"))
    async def schedule(interaction: discord.Interaction, what: str | None = None) -> None:
        await run(interaction, "schedule", *command_words("schedule", {"what": what}))

    @tree.command(name="assign", description=d(en["assign"]))
    @app_commands.describe(what=o("assign"))
    async def assign(interaction: discord.Interaction, what: str | None = None) -> None:
        await run(interaction, "assign", *command_words("assign", {"what": what}))

    @tree.command(name="newquiz", description=d(en["newquiz"]))
    @app_commands.describe(title=o("title"))
    async def newquiz(interaction: discord.Interaction, title: str | None = None) -> None:
        await run(interaction, "newquiz", *command_words("newquiz", {"title": title}))

    @tree.command(name="done", description=d(en["done"]))
    async def done(interaction: discord.Interaction) -> None:
        await run(interaction, "done")

    @tree.command(name="suggest", description=d(en["suggest"]))
    async def suggest_(interaction: discord.Interaction) -> None:
        await suggest(interaction)

    @tree.command(name="suggestions", description=d(en["suggestions"]))
    @app_commands.describe(what=o("suggestions"))
    async def suggestions(interaction: discord.Interaction, what: str | None = None) -> None:
        await run(interaction, "suggestions", *command_words("suggestions", {"what": what}))

    @tree.command(name="help", description=d(en["help"]))
    async def help_(interaction: discord.Interaction) -> None:
        await run(interaction, "help")
