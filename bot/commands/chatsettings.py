"""/language and /settings: the chat's language, question time, pause, time zone, close notice
and public board, shown to anyone and changed by admins (a private chat is its player's own).

One group of `bot.commands.core.Commands`: `(args, caller, lang) -> Reply` handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.extra import EXTRA, ExtraTimeSettings
from bot.commands.group import may_configure
from bot.domain import fairplay, tokens, zones
from bot.domain.model import (
    LANGUAGE_NAMES,
    LANGUAGES,
    PAUSE_SECONDS,
    QUESTION_SECONDS,
    Button,
    ChatRef,
    Reply,
    SettingRange,
)
from bot.domain.records import ChatSettings
from bot.domain.scoring import ACCURACY_POINTS, Scoring
from bot.texts import i18n, render_extra, render_fairplay
from bot.texts.render import t

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.commands.web import WebCommands
    from bot.engine.chats import Chats
    from bot.engine.run_start import EngineSettings

# /settings words that choose a run's rules -> (the chat setting, its value for each word)
RULES: dict[str, tuple[str, dict[str, object]]] = {
    "scoring": ("scoring", {"speed": Scoring.SPEED, "accuracy": Scoring.ACCURACY}),
    "streaks": ("streaks", {"on": True, "off": False}),
    "board": ("board_end", {"live": False, "end": True}),
}

# /settings words -> (the chat setting, its range)
SETTINGS: dict[str, tuple[str, SettingRange]] = {
    "time": ("question_seconds", QUESTION_SECONDS),
    "pause": ("pause_seconds", PAUSE_SECONDS),
}


class SettingsCommands:
    def __init__(self, chats: Chats, settings: EngineSettings, web: WebCommands, extra: ExtraTimeSettings) -> None:
        """`settings`: the bot's defaults a chat's own settings replace; `web`: /settings board;
        `extra`: members' extra time."""
        self.chats, self.settings, self.web, self.extra = chats, settings, web, extra

    async def cmd_language(self, args: str, caller: Caller, lang: str) -> Reply:
        code = i18n.normalise(args.strip()) or args.strip().lower()  # "hi-IN", "UR" name hi, ur
        if not code:
            buttons = tuple(Button(LANGUAGE_NAMES[c], tokens.language_pick(c)) for c in LANGUAGES)
            return Reply(t(lang, "Choose the chat's language:"), buttons=buttons, language=lang)
        if not may_configure(caller):
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
        await self.chats.update(caller.chat, language=code)
        lang = await self.chats.language_for(caller.chat, caller.player)  # the new one, plain or not
        return Reply(t(lang, "Language set to {name}.", name=LANGUAGE_NAMES[code]), language=lang)

    async def cmd_settings(self, args: str, caller: Caller, lang: str) -> Reply:
        words = args.lower().split()
        if words:
            if not may_configure(caller):
                return _admins_only(lang)
            if words[0] == "board" and words[1:] not in (["end"], ["live"]):  # public or private: the web board
                return await self.web.set_board(caller.chat, words[1:], lang)
            if words[0] == EXTRA:
                if (refused := await self.extra.apply(words[1:], caller, lang)) is not None:
                    return refused
            elif error := await self._apply_settings(words, caller.chat, lang):
                return Reply(error, language=lang, kind="error")
            lang = await self.chats.language_for(caller.chat, caller.player)  # plain text from now on, or not
        current = await self.chats.fresh_settings(caller.chat.key)  # as stored: set on any worker
        seconds = current.question_seconds or self.settings.question_seconds
        pause = current.pause_seconds if current.pause_seconds is not None else self.settings.pause_seconds
        text = t(
            lang, "Question time: {seconds} s · pause between questions: {pause} s", seconds=seconds, pause=f"{pause:g}"
        )
        text += "\n" + t(lang, "Time zone: {zone}", zone=zones.zone(current.time_zone).key)
        text += "\n" + (
            t(lang, "A short reply when a question closes: on")
            if current.close_notice
            else t(lang, "A short reply when a question closes: off")
        )
        text += "\n" + (
            t(lang, "Who may host a game (/host): anyone")
            if current.host_anyone
            else t(lang, "Who may host a game (/host): admins")
        )
        text += "\n" + (
            t(lang, "Plain text for screen readers: on")
            if current.plain_text
            else t(lang, "Plain text for screen readers: off")
        )
        if extra := await self.extra.listed(caller, lang):
            text += "\n" + extra
        text += "\n" + "\n".join(_rules_lines(lang, current))
        usage = t(lang, "Change them with /settings time 20, /settings pause 3 or /settings tz Asia/Kolkata (admins).")
        usage += "\n" + t(
            lang, "/settings notify on: a short reply as well when a question closes (off: the edit only)."
        )
        usage += "\n" + t(lang, "/settings host anyone: any member may host a game (admins: only admins).")
        usage += "\n" + t(
            lang, "/settings plain on: messages for screen readers, without bars or emoji (in a private chat: yours)."
        )
        usage += "\n" + render_extra.usage(lang)
        usage += "\n" + t(
            lang,
            "/settings scoring accuracy: no speed points · /settings streaks off: no streak bonus · "
            "/settings board end: no standings before the podium.",
        )
        if caller.chat.platform == fairplay.DISCORD:
            text += "\n" + render_fairplay.min_age_line(lang, current.min_age)
            usage += "\n" + render_fairplay.min_age_usage(lang)
        return Reply(f"{text}\n{usage}", title=t(lang, "⚙️ Settings"), language=lang)

    async def _apply_settings(self, words: list[str], chat: ChatRef, lang: str) -> str | None:
        if words[0] == "tz":
            return await self._set_time_zone(words[1:], chat, lang)
        if words[0] == "host":
            if words[1:] not in (["anyone"], ["admins"]):
                return t(lang, "Usage: /settings host anyone or /settings host admins.")
            await self.chats.update(chat, host_anyone=words[1] == "anyone")
            return None
        if words[0] == "plain":
            if words[1:] not in (["on"], ["off"]):
                return t(lang, "Usage: /settings plain on or /settings plain off.")
            await self.chats.update(chat, plain_text=words[1] == "on")
            return None
        if words[0] in RULES:
            return await self._set_rule(words, chat, lang)
        if words[0] == "min_age":
            return await self._set_min_age(words[1:], chat, lang)
        if words[0] == "notify":
            if words[1:] not in (["on"], ["off"]):
                return t(lang, "Usage: /settings notify on or /settings notify off.")
            await self.chats.update(chat, close_notice=words[1] == "on")
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
        await self.chats.update(chat, **{field: value})
        return None

    async def _set_rule(self, words: list[str], chat: ChatRef, lang: str) -> str | None:
        """/settings scoring, streaks or board end|live: the rules of the chat's next runs."""
        field, values = RULES[words[0]]
        if len(words) != 2 or words[1] not in values:
            return _rule_usage(lang, words[0])
        await self.chats.update(chat, **{field: values[words[1]]})
        return None

    async def _set_min_age(self, words: list[str], chat: ChatRef, lang: str) -> str | None:
        """How old a Discord account must be to score here, from the next game on (a run keeps
        the age it started with)."""
        if chat.platform != fairplay.DISCORD:
            return render_fairplay.min_age_not_here(lang)
        seconds = fairplay.parse_min_age(words[0]) if len(words) == 1 else None
        if seconds is None:
            return render_fairplay.min_age_bad(lang)
        await self.chats.update(chat, min_age=seconds)
        return None

    async def _set_time_zone(self, words: list[str], chat: ChatRef, lang: str) -> str | None:
        name = zones.canonical(words[0]) if len(words) == 1 else None
        if name is None:
            return t(
                lang,
                "Unknown time zone “{zone}”. Use an IANA name such as Asia/Kolkata or Europe/Berlin.",
                zone=" ".join(words)[:40],
            )
        await self.chats.update(chat, time_zone=name)
        return None


def _rule_usage(lang: str, word: str) -> str:
    if word == "scoring":
        return t(lang, "Usage: /settings scoring speed or /settings scoring accuracy.")
    if word == "streaks":
        return t(lang, "Usage: /settings streaks on or /settings streaks off.")
    return t(lang, "Usage: /settings board live or /settings board end.")


def _rules_lines(lang: str, current: ChatSettings) -> list[str]:
    """How the chat's runs score and when they show standings (each run keeps them as it started)."""
    return [
        t(lang, "Scoring: accuracy (every right answer earns {points})", points=ACCURACY_POINTS)
        if current.scoring is Scoring.ACCURACY
        else t(lang, "Scoring: speed (a faster right answer earns more)"),
        t(lang, "Streak bonus: on") if current.streaks else t(lang, "Streak bonus: off"),
        t(lang, "Standings: at the end only") if current.board_end else t(lang, "Standings: shown during the game"),
    ]


def _admins_only(lang: str) -> Reply:
    return Reply(t(lang, "Only chat admins can change this."), language=lang, kind="error", private=True)
