"""A hosted game's words (/host, /next, /pause, /resume, /skip, /hint, /end) and its hints."""

from __future__ import annotations

from bot.domain.hosting import HostAction, HostRefusal
from bot.domain.model import Reply
from bot.texts.message import t


def hosted(lang: str, host: str) -> str:
    """Said under a hosted game's start: nothing comes until its host says so."""
    return t(lang, "Hosted by {name}: the first question comes with /next.", name=host)


def hint(lang: str, number: int, text: str) -> Reply:
    return Reply(t(lang, "💡 Hint for question {number}: {hint}", number=number, hint=text), language=lang)


def skipped_note(lang: str) -> str:
    """A skipped question's reveal says so instead of who scored."""
    return t(lang, "Skipped by the host: this question counts for nobody.")


def paused_notice(lang: str, seconds: float | None) -> Reply:
    """`seconds`: what the question has left of its time limit; None when it has none."""
    if seconds is None:
        return Reply(t(lang, "⏸ Paused by the host."), language=lang)
    return Reply(t(lang, "⏸ Paused by the host, {seconds} s left.", seconds=round(seconds)), language=lang)


def resumed_notice(lang: str, seconds: float | None) -> Reply:
    if seconds is None:
        return Reply(t(lang, "▶️ Go on: answer now."), language=lang)
    return Reply(t(lang, "▶️ Go on: {seconds} s left.", seconds=round(seconds)), language=lang)


def done(lang: str, action: HostAction) -> Reply:
    """The host's own reply once an action is taken (the chat sees its effect)."""
    texts = {
        HostAction.NEXT: t(lang, "Next."),
        HostAction.PAUSE: t(lang, "Paused. /resume goes on."),
        HostAction.RESUME: t(lang, "Resumed."),
        HostAction.SKIP: t(lang, "Skipped."),
        HostAction.HINT: t(lang, "Hint shown."),
        HostAction.END: t(lang, "The game is over."),
    }
    return Reply(texts[action], language=lang, private=True)


def refused(lang: str, why: HostRefusal) -> Reply:
    texts = {
        HostRefusal.NO_RUN: t(lang, "No game is running here. Start one with /host <topic>."),
        HostRefusal.NOT_HOSTED: t(lang, "This quiz runs on the bot's clock: it has no host."),
        HostRefusal.NOT_HOST: t(lang, "Only the host of this game can do that."),
        HostRefusal.NO_QUESTION: t(lang, "No question is open: /next posts the next one."),
        HostRefusal.POSTING: t(lang, "The question is on its way. Try again in a moment."),
        HostRefusal.PAUSED: t(lang, "The game is paused already. /resume goes on."),
        HostRefusal.NOT_PAUSED: t(lang, "The game is not paused."),
        HostRefusal.NO_HINT: t(lang, "This question has no hint."),
        HostRefusal.HINT_SHOWN: t(lang, "The hint is shown already."),
    }
    return Reply(texts[why], language=lang, kind="error", private=True)


def may_not_host(lang: str) -> Reply:
    """/host in a group by a member when only admins may host there."""
    return Reply(
        t(lang, "Only a chat admin can host a game here (an admin can allow anyone: /settings host anyone)."),
        language=lang,
        kind="error",
        private=True,
    )


# the host's panel (bot/engine/host_panel.py) ----------------------------------------------


def panel_title(lang: str, title: str) -> str:
    return t(lang, "🎛 Host panel: {title}", title=title)


def panel_text(lang: str, number: int, total: int, answered: int, playing: int, paused: bool, asking: bool) -> str:
    if number == 0:
        return t(lang, "Next posts the first question.")
    lines = [t(lang, "Question {number} of {total}", number=number, total=total)]
    if asking:
        lines.append(t(lang, "{answered} of {playing} answered", answered=answered, playing=playing))
    else:
        lines.append(t(lang, "Closed: Next posts the next question."))
    if paused:
        lines.append(t(lang, "⏸ Paused"))
    return "\n".join(lines)


def button_label(lang: str, action: HostAction) -> str:
    labels = {
        HostAction.NEXT: t(lang, "Next"),
        HostAction.PAUSE: t(lang, "Pause"),
        HostAction.RESUME: t(lang, "Resume"),
        HostAction.SKIP: t(lang, "Skip"),
        HostAction.HINT: t(lang, "Hint"),
        HostAction.END: t(lang, "End"),
    }
    return labels[action]


def panel_over(lang: str) -> str:
    return t(lang, "The game is over.")


def no_panel(lang: str) -> str:
    """Said in the group when the host's private chat cannot be written to."""
    return t(lang, "I cannot write to you in private: start me there for the host panel. The commands work here.")


def panel_sent(lang: str) -> str:
    return t(lang, "Your host panel is in your private chat with me.")


def seconds_out_of_range(lang: str, low: int, high: int) -> Reply:
    """/host TOPIC 900s: a time limit outside what a question may have."""
    text = t(lang, "A question's time limit is {low} to {high} seconds, e.g. /host science 45s.", low=low, high=high)
    return Reply(text, language=lang, kind="error")
