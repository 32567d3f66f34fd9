"""Texts of assignments in the chat's language (plain text, like bot/texts/render.py): the group
message with its Start button, the podium at the deadline, and every reason /assign says no."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.domain import zones
from bot.domain.assignment import (
    AssignmentRow,
    AssignmentStatus,
    ClockChange,
    Deadline,
    Place,
    Progress,
    UntilError,
    start_payload,
    time_left,
)
from bot.domain.model import Button, Reply, Standing
from bot.texts import i18n
from bot.texts.render import standing_line, t, tn
from bot.texts.render_learning import when


def heading(lang: str, title: str) -> str:
    return t(lang, "📝 Assignment: {title}", title=title)


def usage(lang: str) -> str:
    return (
        t(
            lang,
            "Usage: /assign <quiz> until <date> [HH:MM], e.g. /assign pipeline until 2026-12-24 18:00 or "
            "/assign pipeline until fri. /assign lists the open ones; /assign cancel <id> ends one.",
        )
        + " "
        + t(lang, "Add extra @member 2x (or 1.5x) to give a member more time to answer.")
    )


def until_error(lang: str, error: UntilError, zone_name: str | None, max_days: int) -> Reply:
    reasons = {
        UntilError.USAGE: "",
        UntilError.DATE: t(lang, "Give the date as YYYY-MM-DD (e.g. 2026-12-24), today, tomorrow or a weekday."),
        UntilError.CLOCK: t(lang, "Give the time as HH:MM, for example 09:00."),
        UntilError.EXTRA: t(lang, "Only a date and a time may follow “until”."),
        UntilError.PAST: t(lang, "That time has passed in this chat's time zone ({zone}).", zone=_zone(zone_name)),
        UntilError.TOO_FAR: tn(
            lang, "The deadline must be within {n} day.", "The deadline must be within {n} days.", max_days
        ),
    }
    text = "\n".join(filter(None, [reasons[error], usage(lang)]))
    return Reply(text, language=lang, kind="error")


def _zone(zone_name: str | None) -> str:
    return zone_name or "UTC"


def group_message(
    row: AssignmentRow, title: str, shown: Progress, now: float, zone_name: str | None, top: bool = True
) -> Reply:
    """The group's one message: how to play, the deadline, who finished and the top three so far
    (`top` False: none, the group keeps its standings for the podium, /settings board end)."""
    lang = row.language
    lines = [
        tn(
            lang,
            "{n} question, {seconds} s each. Press Start to play it in a private chat with me, once, "
            "at your own pace; your points count on this group's leaderboard.",
            "{n} questions, {seconds} s each. Press Start to play it in a private chat with me, once, "
            "at your own pace; your points count on this group's leaderboard.",
            len(row.question_ids),
            seconds=row.seconds,
        ),
        "",
        t(lang, "Closes {when} ({left}).", when=when(row.deadline, zone_name), left=left(lang, row, now)),
        tn(
            lang,
            "{n} member has finished · {started} started",
            "{n} members have finished · {started} started",
            shown.finished,
            started=shown.started,
        ),
    ]
    lines += [standing_line(lang, s) for s in _standings(shown.top)] if top else []
    start = Button(i18n.t(lang, "▶️ Start"), start_payload(row.id), in_private=True)
    return Reply("\n".join(lines), title=heading(lang, title), buttons=(start,), language=lang)


def ended_message(row: AssignmentRow, title: str, shown: Progress, zone_name: str | None) -> Reply:
    """The group message once closed or cancelled: no Start button any more."""
    lang = row.language
    status = (
        t(lang, "Closed {when}.", when=when(row.deadline, zone_name))
        if row.status is not AssignmentStatus.CANCELLED
        else t(lang, "Cancelled by an admin.")
    )
    finished = tn(lang, "{n} member has finished", "{n} members have finished", shown.finished)
    return Reply(f"{status}\n{finished}", title=heading(lang, title), language=lang)


def podium(lang: str, title: str, places: list[Place]) -> Reply:
    lines = [standing_line(lang, s) for s in _standings(tuple(places[:10]))] or [
        t(lang, "Nobody played this assignment.")
    ]
    lines += ["", t(lang, "See /leaderboard for this chat's ranking.")]
    return Reply(
        "\n".join(lines), title=t(lang, "🏁 Assignment closed: {title}", title=title), language=lang, kind="podium"
    )


def _standings(places: tuple[Place, ...]) -> list[Standing]:
    return [Standing(i + 1, p.player_key, p.name, p.points, p.correct, p.answered) for i, p in enumerate(places)]


def left(lang: str, row: AssignmentRow, now: float) -> str:
    days, hours, minutes = time_left(row, now)
    if days:
        return t(lang, "{days} d {hours} h left", days=days, hours=hours)
    if hours:
        return t(lang, "{hours} h {minutes} min left", hours=hours, minutes=minutes)
    return t(lang, "{minutes} min left", minutes=minutes)


def listing(lang: str, rows: list[tuple[AssignmentRow, str, Progress]], now: float, zone_name: str | None) -> Reply:
    if not rows:
        text = t(lang, "No assignment is open here. Admins start one with /assign <quiz> until <date>.")
        return Reply(text, language=lang)
    lines = [
        t(
            lang,
            "#{id} {title}: closes {when} ({left}), {finished} finished",
            id=row.id,
            title=title,
            when=when(row.deadline, zone_name),
            left=left(lang, row, now),
            finished=shown.finished,
        )
        for row, title, shown in rows
    ]
    lines += ["", t(lang, "Admins: /assign cancel <id> ends one without a podium.")]
    return Reply("\n".join(lines), title=t(lang, "📝 Open assignments"), language=lang)


def created(lang: str, row: AssignmentRow, zone_name: str | None, deadline: Deadline | None = None) -> Reply:
    text = t(
        lang,
        "Assignment #{id} is open until {when}; the podium comes then.",
        id=row.id,
        when=when(row.deadline, zone_name),
    )
    if deadline is not None and deadline.change is not None:
        text += "\n" + clock_change(lang, deadline, zone_name)
    return Reply(text, language=lang, private=True)


def clock_change(lang: str, deadline: Deadline, zone_name: str | None) -> str:
    """What the deadline made of a wall time the clocks skip or repeat that night."""
    typed, day, zone = f"{deadline.typed:%H:%M}", f"{deadline.typed:%Y-%m-%d}", _zone(zone_name)
    if deadline.change is ClockChange.SKIPPED:
        return t(
            lang,
            "There is no {typed} on {day} in {zone} (the clocks go forward): the assignment closes at {shown} instead.",
            typed=typed,
            day=day,
            zone=zone,
            shown=f"{datetime.fromtimestamp(deadline.at, zones.zone(zone_name)):%H:%M}",
        )
    return t(
        lang,
        "{typed} comes twice on {day} in {zone} (the clocks go back): the assignment closes at the first, {utc} UTC.",
        typed=typed,
        day=day,
        zone=zone,
        utc=f"{datetime.fromtimestamp(deadline.at, UTC):%H:%M}",
    )


def cancelled(lang: str, assignment_id: int) -> Reply:
    return Reply(t(lang, "Assignment #{id} is cancelled.", id=assignment_id), language=lang)


def not_open(lang: str) -> Reply:
    return Reply(t(lang, "No such open assignment here. /assign lists them."), language=lang, kind="error")


def groups_only(lang: str) -> Reply:
    text = t(lang, "Assignments are for groups: send /assign in the group whose members should play.")
    return Reply(text, language=lang, kind="error")


def admins_only(lang: str) -> Reply:
    return Reply(t(lang, "Only chat admins can assign quizzes."), language=lang, kind="error", private=True)


# a member's start, in the private chat -------------------------------------------------------


def late(lang: str, row: AssignmentRow | None, zone_name: str | None) -> Reply:
    if row is None:
        return Reply(
            t(lang, "This assignment is unknown: ask in the group for a new one."), language=lang, kind="error"
        )
    if row.status is AssignmentStatus.CANCELLED:
        return Reply(t(lang, "Sorry, this assignment was cancelled."), language=lang, kind="error")
    text = t(
        lang,
        "Sorry, this assignment closed {when}: starts are no longer taken. The group has its podium.",
        when=when(row.deadline, zone_name),
    )
    return Reply(text, language=lang, kind="error")


def repeated(lang: str, place: Place | None) -> Reply:
    points, correct, answered = (place.points, place.correct, place.answered) if place else (0, 0, 0)
    if place is not None and not place.finished:
        text = t(lang, "You are playing this assignment now: {points} points so far.", points=points)
    else:
        text = t(
            lang,
            "You have played this assignment already (once each): {points} points, {correct}/{answered} right.",
            points=points,
            correct=correct,
            answered=answered,
        )
    return Reply(text, language=lang, kind="error")


def in_private(lang: str) -> Reply:
    text = t(lang, "Assignments are played in a private chat with me: press Start on the group's message.")
    return Reply(text, language=lang, kind="error")


def not_member(lang: str, group_title: str) -> Reply:
    if not group_title:
        return Reply(t(lang, "This assignment is for the members of its group."), language=lang, kind="error")
    text = t(lang, "This assignment is for the members of {group}.", group=group_title)
    return Reply(text, language=lang, kind="error")


def unchecked(lang: str) -> Reply:
    text = t(lang, "I could not check that you are in the assignment's group just now. Please try again in a minute.")
    return Reply(text, language=lang, kind="error")


def busy(lang: str) -> Reply:
    text = t(lang, "A quiz is running in this chat: finish it or /stop it, then press Start again.")
    return Reply(text, language=lang, kind="error")


def starting(lang: str, row: AssignmentRow, zone_name: str | None) -> str:
    return t(
        lang,
        "Assignment #{id}, open until {when}: your points count on the group's leaderboard.",
        id=row.id,
        when=when(row.deadline, zone_name),
    )
