"""Texts of extra time (bot/domain/extra_time.py) in the chat's language: the members who have it,
what an assignment gives, and why /settings extra or /assign … extra says no."""

from __future__ import annotations

from bot.domain.extra_time import ExtraTime, factor_word
from bot.domain.model import Reply
from bot.texts.render import t


def listing(lang: str, rules: list[ExtraTime]) -> str:
    members = ", ".join(f"{rule.name or '?'} {factor_word(rule.factor)}" for rule in rules)
    return t(lang, "Extra time in assignments and private play: {members}", members=members)


def usage(lang: str) -> str:
    return t(lang, "/settings extra @member 1.5x, 2x or off: more time to answer in assignments and private play.")


def given_for_assignment(lang: str, name: str, factor: float) -> str:
    return t(
        lang, "{name} has {factor} time on each question of this assignment.", name=name, factor=factor_word(factor)
    )


def own_time(lang: str, factor: float) -> str:
    """What a member with extra time is told as their run starts (its limits follow, stretched)."""
    return t(lang, "Your extra time: {factor}.", factor=factor_word(factor))


def bad_factor(lang: str, words: tuple[str, ...]) -> Reply:
    return Reply(
        t(lang, "Extra time is {factors} (and off, in /settings, takes it back).", factors=" or ".join(words)),
        language=lang,
        kind="error",
    )


def name_a_member(lang: str) -> Reply:
    return Reply(
        t(lang, "Name one member: mention them, or reply to one of their messages with the command."),
        language=lang,
        kind="error",
    )
