"""Extra time for a member (bot/domain/extra_time.py): `/settings extra <member> 1.5x|2x|off`, a
standing rule of the chat, and the `extra <member> 2x` clause of /assign, for that assignment.

The member is the one the platform marked in the command (`Caller.mentions`: a mention, or the
author of the message it replies to); the other words after `extra` are that mention's text, and
the last word the factor. In a private chat a player names nobody: the rule is their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from bot.domain.extra_time import FACTORS, NO_EXTRA, ExtraTime, read_factor
from bot.domain.model import Player, Reply
from bot.ports.store import ExtraTimeRecords
from bot.texts import render_extra as texts

if TYPE_CHECKING:
    from bot.commands.core import Caller

EXTRA = "extra"  # the word that starts the clause


class ExtraRefused(Enum):
    FACTOR = "factor"  # not 1.5x, 2x (or off where the usual time may be given back)
    MEMBER = "member"  # no member named, or several


@dataclass(frozen=True)
class ExtraAsked:
    member: Player
    factor: float


def split_extra(words: list[str], after: str) -> tuple[list[str], list[str] | None]:
    """The words before `extra`, and those after it (None: the command has no such clause); the
    clause comes after the word `after` ("until": a quiz may be called extra)."""
    folded = [w.casefold() for w in words]
    start = folded.index(after) if after in folded else 0
    if EXTRA not in folded[start:]:
        return words, None
    at = folded.index(EXTRA, start)
    return words[:at], words[at + 1 :]


def read_extra(words: list[str], caller: Caller, off_allowed: bool = True) -> ExtraAsked | ExtraRefused:
    """The member and the factor the clause's words give, or why they do not."""
    factor = read_factor(words[-1]) if words else None
    if factor is None or (factor == NO_EXTRA and not off_allowed):
        return ExtraRefused.FACTOR
    if len(caller.mentions) == 1:
        return ExtraAsked(caller.mentions[0], factor)
    if not caller.mentions and caller.chat.is_private and len(words) == 1:
        return ExtraAsked(caller.player, factor)  # a private chat's rule: its player's own
    return ExtraRefused.MEMBER


def refusal(lang: str, refused: ExtraRefused) -> Reply:
    if refused is ExtraRefused.FACTOR:
        return texts.bad_factor(lang, tuple(FACTORS))
    return texts.name_a_member(lang)


class ExtraTimeStore(ExtraTimeRecords, Protocol):
    """The rules of extra time (the /settings listing names members as the admins did)."""


class ExtraTimeSettings:
    """`/settings extra`: a member's standing rule in the chat, and the chat's rules listed."""

    def __init__(self, store: ExtraTimeStore) -> None:
        self.store = store

    async def apply(self, words: list[str], caller: Caller, lang: str) -> Reply | None:
        """Store the rule the words give (None: done, the settings are shown), or a refusal."""
        asked = read_extra(words, caller)
        if isinstance(asked, ExtraRefused):
            return refusal(lang, asked)
        member = asked.member
        await self.store.set_extra_time(ExtraTime(caller.chat.key, member.key, asked.factor, name=member.name))
        return None

    async def listed(self, caller: Caller, lang: str) -> str:
        """The chat's standing rules as a line of /settings ("" when there are none)."""
        rules = await self.store.extra_times(caller.chat.key)
        return texts.listing(lang, rules) if rules else ""
