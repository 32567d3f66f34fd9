"""Assignments: a quiz a group's members play each in private, at their own pace, until a deadline.

Pure rules: the deadline in words ("until 2026-12-24 18:00" in the chat's time zone), what the
group message shows (who finished, the top three) and when it may change (at most once a
minute), the state an assignment is in, and who its web page lists as finished, stopped or not
started. The engine (bot/engine/assignments.py) does the I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from enum import Enum, StrEnum

from bot.domain.model import ChatRef
from bot.domain.records import Phase, RunStatus, questions_asked
from bot.domain.schedule import WEEKDAYS, clock_of
from bot.domain.worth import Record

EDIT_SECONDS = 60.0  # the group message changes at most this often (Telegram: 20 messages a minute per group)
HOLD_SECONDS = 60.0  # a worker's claim on an assignment (to post, edit or close it) lasts this long
MAX_DAYS = 90  # the latest deadline, from now
DEFAULT_CLOCK = (23, 59)  # "until fri": the end of that day
PODIUM_PLACES = 3
UNTIL = "until"  # the word before the deadline in /assign's words
START_PREFIX = "assign_"  # the /start payload of the group message's button: assign_<id>


class AssignmentStatus(str, Enum):
    OPEN = "open"
    CLOSED = "closed"  # the deadline came: the podium was posted
    CANCELLED = "cancelled"  # an admin called it off


class UntilError(str, Enum):
    """Why words are not a deadline."""

    USAGE = "usage"  # no quiz, or no "until"
    DATE = "date"  # not YYYY-MM-DD, today, tomorrow or a weekday
    CLOCK = "clock"  # not HH:MM
    EXTRA = "extra"  # words after the time
    PAST = "past"
    TOO_FAR = "too_far"


class ClockChange(str, Enum):
    """A wall time the clocks' change moves: what the deadline made of it is told to the admin."""

    SKIPPED = "skipped"  # 02:30 on a spring-forward night: read as 03:30 (as schedules read it)
    REPEATED = "repeated"  # 02:30 on a fall-back night: the first of the two


@dataclass(frozen=True)
class Deadline:
    """A deadline read from words: its instant, and the wall time typed when a change moved it."""

    at: float
    typed: datetime  # the date and time as typed (naive: the chat's wall clock)
    change: ClockChange | None = None


@dataclass(frozen=True)
class AssignmentRow:
    """A stored assignment: what the members play, until when, and what the group message shows."""

    chat: ChatRef  # the group: its boards count the answers, its message shows the progress
    quiz_id: str
    question_ids: tuple[str, ...]
    seconds: int  # to answer each question (the group's setting when it was assigned)
    deadline: float
    language: str  # of the group message and the podium
    created_by: str
    created_at: float
    status: AssignmentStatus = AssignmentStatus.OPEN
    message_id: str | None = None  # the group message, once posted
    shown: str = ""  # the progress the group message shows (`Progress.digest`)
    shown_at: float = 0.0  # when it last changed
    id: int = 0  # given by the store


@dataclass(frozen=True)
class Place:
    """A member who started the assignment: their points so far, and whether they finished."""

    player_key: str
    name: str
    points: int
    correct: int
    answered: int
    finished: bool


@dataclass(frozen=True)
class Progress:
    """What the group message shows: how many started and finished, and the top three finishers."""

    started: int
    finished: int
    top: tuple[Place, ...]

    @property
    def digest(self) -> str:
        """The progress as stored text: the message is edited only when this changes."""
        return json.dumps([self.started, self.finished, [(p.player_key, p.points) for p in self.top]])


def progress(places: list[Place]) -> Progress:
    """`places` ranked (points, then right answers, as the store orders them)."""
    done = [p for p in places if p.finished]
    return Progress(len(places), len(done), tuple(done[:PODIUM_PLACES]))


def start_payload(assignment_id: int) -> str:
    return f"{START_PREFIX}{assignment_id}"


def assignment_of(payload: str) -> int | None:
    """The id in a /start payload 'assign_12'; None for any other payload."""
    digits = payload.removeprefix(START_PREFIX)
    if payload == digits or not digits.isdecimal() or len(digits) > 12:
        return None
    return int(digits)


def split_until(words: list[str]) -> tuple[str, list[str]] | UntilError:
    """'tiny until fri 18:00' -> ('tiny', ['fri', '18:00'])."""
    lowered = [w.casefold() for w in words]
    if UNTIL not in lowered:
        return UntilError.USAGE
    at = lowered.index(UNTIL)
    topic, rest = " ".join(words[:at]), words[at + 1 :]
    return (topic, rest) if topic and rest else UntilError.USAGE


def parse_until(words: list[str], now: float, zone: tzinfo) -> float | UntilError:
    """The instant of `read_until`'s deadline."""
    read = read_until(words, now, zone)
    return read if isinstance(read, UntilError) else read.at


def read_until(words: list[str], now: float, zone: tzinfo) -> Deadline | UntilError:
    """A deadline in the chat's time zone: DATE [HH:MM], DATE being YYYY-MM-DD, today, tomorrow or
    a weekday (the next one; today's if the time is still to come). No time: the day's end.

    A wall time the clocks skip (02:30 on a spring-forward night) is read as schedules read it,
    as long after the change (03:30); one they repeat (a fall-back night) is the first of the
    two. Either way the deadline says so (`change`), so the admin is told what was set."""
    if len(words) > 2:
        return UntilError.EXTRA
    today = datetime.fromtimestamp(now, zone).date()
    day = _day(words[0].casefold(), today)
    if day is None:
        return UntilError.DATE
    clock = clock_of(words[1]) if len(words) == 2 else DEFAULT_CLOCK
    if clock is None:
        return UntilError.CLOCK
    typed = datetime.combine(day, time(*clock))
    if typed.replace(tzinfo=zone).timestamp() <= now and day == today and words[0].casefold()[:3] in WEEKDAYS:
        typed += timedelta(days=7)
    deadline = typed.replace(tzinfo=zone).timestamp()
    if deadline <= now:
        return UntilError.PAST
    if deadline - now > MAX_DAYS * 86400:
        return UntilError.TOO_FAR
    return Deadline(deadline, typed, _clock_change(typed, zone))


def _clock_change(typed: datetime, zone: tzinfo) -> ClockChange | None:
    """Whether the clocks skip or repeat this wall time in `zone` (None: it happens once)."""
    first = typed.replace(tzinfo=zone)
    if datetime.fromtimestamp(first.timestamp(), zone).replace(tzinfo=None) != typed:
        return ClockChange.SKIPPED
    return ClockChange.REPEATED if first.utcoffset() != typed.replace(tzinfo=zone, fold=1).utcoffset() else None


def _day(word: str, today: date) -> date | None:
    if word == "today":
        return today
    if word == "tomorrow":
        return today + timedelta(days=1)
    if len(word) >= 3 and word[:3] in WEEKDAYS and word.isalpha():
        return today + timedelta(days=(WEEKDAYS.index(word[:3]) - today.weekday()) % 7)
    try:
        return date.fromisoformat(word) if len(word) == 10 else None
    except ValueError:
        return None


def may_edit(row: AssignmentRow, shown: Progress, now: float) -> bool:
    """Whether the group message should show `shown` now: it changed, and the last change is a
    minute old (finishes in between are shown together, at the next edit)."""
    return shown.digest != row.shown and now >= row.shown_at + EDIT_SECONDS


def is_late(row: AssignmentRow, now: float) -> bool:
    return row.status is not AssignmentStatus.OPEN or now >= row.deadline


def time_left(row: AssignmentRow, now: float) -> tuple[int, int, int]:
    """(days, hours, minutes) until the deadline, rounded up to the minute; zeros once past."""
    minutes = max(0, int(-(-(row.deadline - now) // 60)))
    return minutes // 1440, minutes % 1440 // 60, minutes % 60


class Attempted(StrEnum):
    """How far a member got with an assignment."""

    FINISHED = "finished"  # played to the last question
    STOPPED = "stopped"  # /stop, or left unanswered until the run ended itself
    PLAYING = "playing"  # the run is still open


@dataclass(frozen=True)
class Attempt:
    """A member's play of an assignment, as its web page lists it: their run, how it ended, its points."""

    player_key: str
    name: str
    run_id: int
    started_at: float
    status: RunStatus
    index: int  # the run's question: the one asked (-1 before the first), or the last when it ended
    phase: Phase  # where the run is with that question (still being answered, or waiting to be posted)
    last_answer: float | None  # when they last answered (by the bot's clock); None before a first answer
    points: int

    def asked(self, questions: int) -> int:
        """How many of the assignment's `questions` the run asked: the one still being answered
        is not yet asked, as a run report counts it (bot/domain/records.py)."""
        return questions_asked(self.status, self.phase, self.index, questions)

    @property
    def state(self) -> Attempted:
        if self.status is RunStatus.OPEN:
            return Attempted.PLAYING
        return Attempted.FINISHED if self.status is RunStatus.FINISHED else Attempted.STOPPED


@dataclass(frozen=True)
class AssignmentSummary:
    """An assignment as its chat's run history lists it: one line for every attempt of it."""

    id: int
    quiz_id: str
    created_at: float
    deadline: float
    status: AssignmentStatus
    attempts: int


@dataclass(frozen=True)
class Roll:
    """Who did what with an assignment: attempts by how far they got, and the members seen in the
    group who have not started it (by name)."""

    finished: tuple[Attempt, ...]
    stopped: tuple[Attempt, ...]  # playing now, or stopped before the end
    not_started: tuple[tuple[str, str], ...]  # (player key, name)


def roll(row: AssignmentRow, attempts: list[Attempt], seen: dict[str, str]) -> Roll:
    """`seen`: the group's members the store knows of (key -> name). Whoever assigned it is not
    asked to play it, so is never listed as not started."""
    started = {a.player_key for a in attempts}
    waiting = sorted(
        ((key, name) for key, name in seen.items() if key not in started and key != row.created_by),
        key=lambda kn: (kn[1].casefold(), kn[0]),
    )
    return Roll(
        tuple(a for a in attempts if a.state is Attempted.FINISHED),
        tuple(a for a in attempts if a.state is not Attempted.FINISHED),
        tuple(waiting),
    )


def combined_accuracy(records: Iterable[Record]) -> float | None:
    """The share right of every scored question the records count, each once (partial credit by
    its share); None when they count none."""
    counted = list(records)
    asked = sum(r.asked for r in counted)
    return sum(r.credit for r in counted) / asked if asked else None
