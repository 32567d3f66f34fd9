"""Fair play in words: a minimum account age (/settings min_age) and its refusal of a press
(bot/domain/fairplay.py holds the rules)."""

from __future__ import annotations

from bot.domain.fairplay import DAY, HOUR
from bot.texts.message import t, tn


def age(lang: str, seconds: int) -> str:
    """A minimum age as /settings wrote it: whole days, else hours ("7 days", "12 hours")."""
    if seconds % DAY == 0:
        return tn(lang, "{n} day", "{n} days", seconds // DAY)
    return tn(lang, "{n} hour", "{n} hours", seconds // HOUR)


def ack_too_young(lang: str, min_age: int) -> str:
    """A press or typed answer from a Discord account younger than the chat asks: nothing stored."""
    return t(lang, "Your account must be at least {age} old to score here.", age=age(lang, min_age))


def min_age_line(lang: str, min_age: int) -> str:
    """/settings: the minimum age, or none."""
    if not min_age:
        return t(lang, "Minimum Discord account age to score: none")
    return t(lang, "Minimum Discord account age to score: {age}", age=age(lang, min_age))


def min_age_usage(lang: str) -> str:
    return t(lang, "/settings min_age 7d (or 12h, or off): how old a Discord account must be to score here.")


def min_age_bad(lang: str) -> str:
    return t(lang, "Usage: /settings min_age 7d, /settings min_age 12h or /settings min_age off (at most 365d).")


def min_age_not_here(lang: str) -> str:
    return t(
        lang,
        "A minimum account age works only on Discord, whose user ids tell how old an account is.",
    )
