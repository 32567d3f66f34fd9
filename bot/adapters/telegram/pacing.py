"""Telling a group why the quiz waits: Telegram's 20 messages a minute can hold its next
message for most of a minute, and a silent group thinks the bot has stalled.

The rate limiter decides when (bot/adapters/telegram/limits.py: a hold longer than
HOLD_NOTICE_AFTER, once per hold, on the place of the group's minute it keeps for this); this
says it in the chat's language.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.ext import ExtBot

from bot.adapters.telegram.limits import GROUP_PER_MINUTE, OnHold, Prepaid, SlidingWindowLimiter
from bot.domain.model import ChatRef
from bot.texts.render import t

LanguageOf = Callable[[ChatRef], Awaitable[str]]


def tell_holds(bot: ExtBot[Any], platform: str, language_of: LanguageOf) -> None:
    """Have the bot's rate limiter (when it is ours) tell a held group why it waits."""
    limiter = bot.rate_limiter
    if isinstance(limiter, SlidingWindowLimiter):
        limiter.on_hold = hold_notice(bot, platform, language_of)


def hold_notice(bot: ExtBot[Any], platform: str, language_of: LanguageOf) -> OnHold:
    """Sends the notice on the place the limiter took for it (`rate_limit_args`)."""

    async def tell(chat_id: int | str, seconds: float, prepaid: Prepaid) -> None:
        lang = await language_of(ChatRef(platform, str(chat_id)))
        text = t(
            lang,
            "Telegram lets a group get {count} messages a minute: the quiz goes on in {seconds} s.",
            count=GROUP_PER_MINUTE,
            seconds=math.ceil(seconds),
        )
        await bot.send_message(chat_id, text, rate_limit_args=prepaid)

    return tell
