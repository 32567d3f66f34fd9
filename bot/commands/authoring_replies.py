"""Replies shared by writing a quiz in the chat and suggesting questions (issue #23)."""

from __future__ import annotations

from bot.domain.model import Reply
from bot.texts.render import t


def asking_poll(lang: str, text: str) -> Reply:
    """A reply that offers the platform's way to make a question (Telegram: its quiz poll composer;
    Discord: a form)."""
    return Reply(text, language=lang, poll_button=t(lang, "Make a quiz poll"))


def unusable(lang: str, problems: list[str]) -> Reply:
    """A question the quiz format refuses, with every reason: nothing was changed."""
    return error(lang, t(lang, "That question cannot be used, nothing changed:") + "\n• " + "\n• ".join(problems))


def too_big(lang: str) -> Reply:
    """A question that would take the draft past what a quiz file may be: nothing was changed."""
    text = t(
        lang,
        "This question would make the quiz larger than 1 MB, the most a quiz may be: nothing changed. "
        "/done saves it as it is.",
    )
    return error(lang, text)


def error(lang: str, text: str) -> Reply:
    return Reply(text, language=lang, kind="error")
