"""The words of the buttons and prompts through which a question that is not one press is
answered on a chat platform: "Answer" (typed, numeric), "Done" (select all that apply, in a
private chat), and the Discord modal an "Answer" opens."""

from __future__ import annotations

from bot.texts.render import t

MODAL_TITLE_MAX = 45  # Discord's modal title and text input label


def answer_label(lang: str) -> str:
    return t(lang, "✍️ Answer")


def done_label(lang: str) -> str:
    return t(lang, "✅ Done")


def modal_title(lang: str, number: int) -> str:
    return t(lang, "Answer question {number}", number=number)[:MODAL_TITLE_MAX]


def modal_field(lang: str) -> str:
    return t(lang, "Your answer")[:MODAL_TITLE_MAX]
