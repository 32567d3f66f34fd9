"""The slash commands: Discord options turned into the words bot.commands.core expects.

Each command of the table (bot/commands/table.py) with a menu line is a slash command: its
options are the parameters of its callback's signature, built from the table, which is what
discord.py reads to make the options (`__signature__`, as `inspect.signature` honours it).
"""

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.commands import table
from bot.commands.table import Command, Option, OptionKind
from bot.content.catalog import Catalog, topic_words
from bot.domain.model import FALLBACK_LANGUAGE, QuizInfo
from bot.texts.i18n import Later, normalise, shown, t

RunCommand = Callable[..., Awaitable[None]]  # (interaction, name, *args): one Commands.handle per args
Upload = Callable[[discord.Interaction, discord.Attachment], Awaitable[None]]
OwnQuizzes = Callable[[discord.Interaction], Awaitable[Sequence[QuizInfo]]]  # the channel's uploaded quizzes
OpenForm = Callable[[discord.Interaction, str], Awaitable[None]]  # (interaction, name): a question's form
CHOICES_MAX = 25  # Discord shows at most 25 autocomplete choices
CHOICE_MAX = 100  # characters in a choice's name and value
DESCRIPTION_MAX = 100
Complete = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[Choice[str]]]]  # an autocomplete


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
        text = shown(lang, string.extras["text"]) if "text" in string.extras else t(lang, string.message)
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
    command = table.command(name)
    if command is None:
        return ()
    given = {o.name: options.get(o.name) for o in command.options if o.kind is not OptionKind.FILE}
    if command.apart:
        return tuple(f"{key} {value}" for key, value in given.items() if value not in (None, ""))
    words = _words(
        *(o.default if given[o.name] in (None, "") else given[o.name] for o in command.options if o.name in given)
    )
    return (words,) if words else ()


def _text(text: Later | str) -> locale_str | str:
    """A text of the table as discord.py takes it: English, cut to Discord's length, carrying
    the msgid that QuizTranslator translates (a plain str stays the same in every language)."""
    if isinstance(text, str):
        return text
    return locale_str(shown(FALLBACK_LANGUAGE, text)[:DESCRIPTION_MAX], text=text)


def _annotation(option: Option) -> Any:
    if option.kind is OptionKind.FILE:
        return discord.Attachment
    if option.choices:
        kind: Any = Choice[str]
    elif option.kind is OptionKind.NUMBER:
        kind = app_commands.Range[int, option.low, option.high]
    else:
        kind = str
    return kind if option.required else Optional[kind]  # noqa: UP045 (a runtime object, not an annotation)


def _signature(command: Command) -> inspect.Signature:
    """What discord.py reads as the command's options: (interaction, *options)."""
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature(
        [
            inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
            *(
                inspect.Parameter(
                    o.name,
                    keyword,
                    annotation=_annotation(o),
                    default=inspect.Parameter.empty if o.required else None,
                )
                for o in command.options
            ),
        ]
    )


def register(
    tree: app_commands.CommandTree,
    run: RunCommand,
    catalog: Catalog,
    upload: Upload,
    own_quizzes: OwnQuizzes,
    open_form: OpenForm,
) -> None:
    """Add quizhost's commands to the tree (synced later, globally or per server)."""

    async def complete_topic(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = normalise(interaction.locale.value) or FALLBACK_LANGUAGE
        return topic_choices(catalog, current, lang, await own_quizzes(interaction))

    for command in table.COMMANDS:
        if command.menu is not None:
            tree.command(name=command.name, description=_text(command.menu))(
                _callback(command, run, upload, open_form, complete_topic)
            )


def _callback(
    command: Command,
    run: RunCommand,
    upload: Upload,
    open_form: OpenForm,
    complete_topic: Complete,
) -> Callable[..., Coroutine[Any, Any, None]]:
    """The slash command's callback, which hands its options on; its signature, descriptions,
    choices and autocompletes are the command's options."""

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        if command.takes_question:
            await open_form(interaction, command.name)
        elif command.file is not None:
            await upload(interaction, given[command.file.name])
        else:
            values = {name: value.value if isinstance(value, Choice) else value for name, value in given.items()}
            await run(interaction, command.name, *command_words(command.name, values))

    callback.__signature__ = _signature(command)  # type: ignore[attr-defined]
    options = command.options
    if options:
        app_commands.describe(**{o.name: _text(o.help) for o in options})(callback)
    if choices := {
        o.name: [Choice(name=_text(label), value=value) for label, value in o.choices] for o in options if o.choices
    }:
        app_commands.choices(**choices)(callback)
    if quizzes := {o.name: complete_topic for o in options if o.quizzes}:
        app_commands.autocomplete(**quizzes)(callback)
    return callback
