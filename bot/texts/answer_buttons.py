"""The words of the buttons and prompts through which a question that is not one press is
answered on a chat platform: "Answer" (typed, numeric), "Done" (select all that apply, in a
private chat), and what the private chat or a Discord modal says when one is pressed."""

from __future__ import annotations

from bot.texts.render import t

MODAL_TITLE_MAX = 45  # Discord's modal title and text input label


def answer_label(lang: str) -> str:
    return t(lang, "✍️ Answer")


def done_label(lang: str) -> str:
    return t(lang, "✅ Done")


def send_answer_now(lang: str, number: int) -> str:
    """In the private chat, after the group's "Answer" button opened it."""
    return t(lang, "Send your answer to question {number} as your next message here.", number=number)


def modal_title(lang: str, number: int) -> str:
    return t(lang, "Answer question {number}", number=number)[:MODAL_TITLE_MAX]


def modal_field(lang: str) -> str:
    return t(lang, "Your answer")[:MODAL_TITLE_MAX]
