"""What an answer was worth, in words and as a mark: the same words in a reveal, a podium, the
run report and the downloads (bot/domain/worth.py decides the verdict)."""

from __future__ import annotations

from bot.domain.worth import Verdict, Worth
from bot.texts import i18n
from bot.texts.plain import decor

# a mark beside the word, never instead of it (meaning not by colour or symbol alone)
MARKS = {
    Verdict.RIGHT: "✓",
    Verdict.PARTIAL: "◐",
    Verdict.WRONG: "✗",
    Verdict.UNANSWERED: "–",
    Verdict.VOTE: "•",
    Verdict.SKIPPED: "⏭",
}


def verdict_text(lang: str, worth: Worth) -> str:
    """A fragment in plain text: "right", "partly right, 67%", "wrong", "not answered", "vote"."""
    verdict = worth.verdict
    if verdict is Verdict.PARTIAL:
        if worth.share is None:
            return i18n.t(lang, "partly right")
        return i18n.t(lang, "partly right, {percent}%", percent=round(100 * worth.share))
    words = {
        Verdict.RIGHT: i18n.t(lang, "right"),
        Verdict.WRONG: i18n.t(lang, "wrong"),
        Verdict.UNANSWERED: i18n.t(lang, "not answered"),
        Verdict.VOTE: i18n.t(lang, "vote"),
        Verdict.SKIPPED: i18n.t(lang, "skipped by the host"),
    }
    return words[verdict]


def marked(lang: str, worth: Worth) -> str:
    """The verdict's mark and its words: "✓ right" (in plain text the words alone)."""
    return f"{decor(lang, MARKS[worth.verdict] + ' ')}{verdict_text(lang, worth)}"
