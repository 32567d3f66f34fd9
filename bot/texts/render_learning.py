"""Texts of reviews and schedules in the chat's language (plain text, like bot/texts/render.py)."""

from __future__ import annotations

from datetime import datetime

from bot.domain.deck import DAY, ReviewCard
from bot.domain.model import Reply
from bot.domain.schedule import ScheduleRow, ScheduleStatus
from bot.domain.zones import zone
from bot.texts import i18n
from bot.texts.render import ack_not_saved, review_button, t, tn


def when(timestamp: float, zone_name: str | None) -> str:
    """'2026-12-01 10:00 Asia/Kolkata': a time as the chat's clock shows it."""
    tz = zone(zone_name)
    return f"{datetime.fromtimestamp(timestamp, tz):%Y-%m-%d %H:%M} {tz.key}"


# review ---------------------------------------------------------------------------------


def review_in_private(lang: str) -> Reply:
    return Reply(
        t(lang, "Reviews happen in a private chat with me: open it and send /review."),
        buttons=(review_button(lang),),
        language=lang,
        private=True,
    )


def nothing_due(lang: str, deck: int, next_due: float | None, zone_name: str | None) -> Reply:
    title = t(lang, "🔁 Review")
    if not deck or next_due is None:
        text = t(lang, "Your review deck is empty. Questions you miss in a quiz land here.")
    else:
        text = tn(
            lang,
            "Nothing to review now. {n} card is in your deck; the next is due {when}.",
            "Nothing to review now. {n} cards are in your deck; the next is due {when}.",
            deck,
            when=when(next_due, zone_name),
        )
    return Reply(text, title=title, language=lang)


def review_starts(lang: str, due: int, deck: int) -> Reply:
    text = tn(
        lang,
        "{n} card is due ({total} in your deck). Answer as in a quiz; reviews change no leaderboard.",
        "{n} cards are due ({total} in your deck). Answer as in a quiz; reviews change no leaderboard.",
        due,
        total=deck,
    )
    return Reply(text, title=t(lang, "🔁 Review"), language=lang)


def review_title(lang: str, quiz_title: str) -> str:
    return t(lang, "Review · {title}", title=quiz_title)


def review_ended(lang: str) -> str:
    return t(lang, "This review has ended. Send /review to start again.")


def not_saved(lang: str) -> str:
    return ack_not_saved(lang)


def card_moved(lang: str, correct: bool, moved: ReviewCard | None, now: float) -> str:
    """What a review answer did to the card, said where a quiz says who scored."""
    if moved is None:
        return t(lang, "✅ Right, and off your deck: well learned.")
    if not correct:  # due again in a minute: at the next /review, as a session asks a card once
        return t(lang, "❌ Not this time: it comes back at your next /review.")
    days = max(round((moved.due - now) / DAY), 1)
    return tn(lang, "✅ Right: it comes back in {n} day.", "✅ Right: it comes back in {n} days.", days)


def review_done(lang: str, right: int, asked: int, deck: int, next_due: float | None, zone_name: str | None) -> Reply:
    lines = [t(lang, "{right} of {asked} right.", right=right, asked=asked)]
    if deck and next_due is not None:
        lines.append(
            tn(
                lang,
                "{n} card is left in your deck; the next is due {when}.",
                "{n} cards are left in your deck; the next is due {when}.",
                deck,
                when=when(next_due, zone_name),
            )
        )
    else:
        lines.append(t(lang, "Your review deck is empty."))
    return Reply("\n".join(lines), title=t(lang, "🔁 Review done"), language=lang)


def review_stopped(lang: str, right: int, asked: int) -> Reply:
    lines = [
        t(lang, "{right} of {asked} right.", right=right, asked=asked),
        t(lang, "The cards you did not get to stay due: /review asks them again."),
    ]
    return Reply("\n".join(lines), title=t(lang, "⏹ Review stopped"), language=lang)


# schedules ------------------------------------------------------------------------------


def schedule_line(lang: str, s: ScheduleRow, quiz_title: str, zone_name: str | None) -> str:
    what = (
        t(lang, "question of the day from {title}, open {hours} h", title=quiz_title, hours=s.hours)
        if s.is_daily_question
        else t(lang, "the quiz {title}", title=quiz_title)
    )
    line = t(
        lang,
        "#{id} {rule}: {what}; next {when}",
        id=s.id,
        rule=s.rule.describe(),
        what=what,
        when=when(s.next_due, zone_name),
    )
    if s.status is ScheduleStatus.PAUSED:
        line += (
            " · "
            + i18n.t(lang, "paused: I could not post here")
            + " · "
            + t(lang, "/schedule on {id} resumes it", id=s.id)
        )
    return line


def schedules(lang: str, lines: list[str], zone_name: str | None) -> Reply:
    title = t(lang, "⏰ Schedules")
    if not lines:
        text = t(lang, "Nothing is scheduled here. Example: /schedule daily 09:00 pipeline 1")
    else:
        text = "\n".join(lines)
    text += "\n" + _zone_note(lang, zone_name)
    return Reply(text, title=title, language=lang)


def resumed(lang: str, lines: list[str], zone_name: str | None) -> Reply:
    """Which schedules run again, when each fires next, and what became of the times missed."""
    text = (
        "\n".join(lines)
        + "\n"
        + t(lang, "A time missed while paused runs now if it is less than an hour late; older ones are skipped.")
    )
    text += "\n" + _zone_note(lang, zone_name)
    return Reply(text, title=t(lang, "▶️ Schedules resumed"), language=lang)


def _zone_note(lang: str, zone_name: str | None) -> str:
    return t(lang, "Times are in {zone}; /settings tz <Area/City> changes it.", zone=zone(zone_name).key)


def schedule_usage(lang: str) -> str:
    return t(
        lang,
        "Usage: /schedule daily 09:00 pipeline [1] [--hours 8], /schedule weekly mon 18:00 pipeline, "
        "/schedule, /schedule off [id], /schedule on [id].",
    )
