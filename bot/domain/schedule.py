"""When scheduled quizzes fire: daily or weekly at a wall-clock time in the chat's time zone.

Pure rules: the time zone comes in as a `tzinfo` (the application looks the IANA name up)
and times are unix seconds. The next fire time is computed from the wall clock each time,
never by adding 24 hours, so 09:00 stays 09:00 across daylight saving changes.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from enum import Enum

from bot.domain.model import ChatRef

WEEKDAYS: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
LATE_LIMIT = 3600.0  # a fire time missed while down runs at start if less late than this
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class Cadence(str, Enum):
    DAILY = "daily"
    WEEKLY = "weekly"


class RuleError(str, Enum):
    """Why words are not a schedule rule."""

    CADENCE = "cadence"  # neither daily nor weekly
    WEEKDAY = "weekday"
    CLOCK = "clock"  # not HH:MM


@dataclass(frozen=True)
class Rule:
    cadence: Cadence
    hour: int
    minute: int
    weekday: int | None = None  # 0 = Monday, weekly rules only

    def describe(self) -> str:
        """'daily 09:00', 'weekly mon 18:00': the words that set it, for lists and logs."""
        day = f" {WEEKDAYS[self.weekday]}" if self.weekday is not None else ""
        return f"{self.cadence.value}{day} {self.hour:02d}:{self.minute:02d}"


def clock_of(word: str) -> tuple[int, int] | None:
    """'09:00' -> (9, 0); None for anything that is not a wall-clock time HH:MM."""
    match = _CLOCK.match(word)
    return (int(match.group(1)), int(match.group(2))) if match else None


def parse_rule(words: list[str]) -> tuple[Rule, list[str]] | RuleError:
    """'daily 09:00 ...' or 'weekly mon 18:00 ...' -> the rule and the words after it."""
    if not words or words[0].lower() not in {c.value for c in Cadence}:
        return RuleError.CADENCE
    cadence, rest, weekday = Cadence(words[0].lower()), words[1:], None
    if cadence is Cadence.WEEKLY:
        day = rest[0].lower()[:3] if rest else ""
        if day not in WEEKDAYS:
            return RuleError.WEEKDAY
        weekday, rest = WEEKDAYS.index(day), rest[1:]
    clock = clock_of(rest[0]) if rest else None
    if clock is None:
        return RuleError.CLOCK
    return Rule(cadence, *clock, weekday), rest[1:]


def next_fire(rule: Rule, after: float, zone: tzinfo) -> float:
    """The first fire time strictly after `after`, as unix seconds.

    A wall time that does not exist on a spring-forward day (02:30 in Berlin) fires at the
    same distance past the change (03:30); one that occurs twice on a fall-back day fires at
    the first of the two (fold=0), once.
    """
    today = datetime.fromtimestamp(after, zone).date()
    day = today if rule.weekday is None else today + timedelta(days=(rule.weekday - today.weekday()) % 7)
    step = timedelta(days=1 if rule.weekday is None else 7)
    while (at := _at(day, rule, zone)) <= after:
        day += step
    return at


def _at(day: date, rule: Rule, zone: tzinfo) -> float:
    return datetime.combine(day, time(rule.hour, rule.minute), tzinfo=zone).timestamp()


class ScheduleStatus(str, Enum):
    ACTIVE = "active"
    PAUSED = "paused"  # the platform refused to post in the chat (the bot was removed)


DEFAULT_HOURS = 8  # a question of the day stays open this long


@dataclass(frozen=True)
class ScheduleRow:
    """A stored schedule: what to play where, when it fires next, and what it asked so far."""

    chat: ChatRef
    quiz_id: str
    rule: Rule
    next_due: float
    seed: int
    created_by: str
    questions: int | None = None  # None: the whole quiz; 1: a question of the day
    hours: int = DEFAULT_HOURS
    status: ScheduleStatus = ScheduleStatus.ACTIVE
    asked: frozenset[str] = frozenset()  # questions of the day asked in this round
    id: int = 0  # given by the store

    @property
    def is_daily_question(self) -> bool:
        return self.questions == 1


class Missed(str, Enum):
    RUN = "run"  # late, but not by much: run it now
    SKIP = "skip"  # too late to be what the chat expects: log it and wait for the next one


def missed(due: float, now: float) -> Missed:
    """What to do at start-up with a fire time that passed while the bot was down."""
    return Missed.RUN if now - due < LATE_LIMIT else Missed.SKIP


def question_of_the_day(question_ids: tuple[str, ...], asked: frozenset[str], seed: int) -> tuple[str, frozenset[str]]:
    """The next question of the day and the questions asked in this round so far (it included).

    No question repeats until every one was asked; then a new round starts. The order within
    a round is random but fixed by the seed and what was asked, so a retry picks the same one.
    """
    left = [q for q in question_ids if q not in asked]
    if not left:
        asked, left = frozenset(), list(question_ids)
    pick = random.Random(f"{seed}:{len(asked)}").choice(left)
    return pick, asked | {pick}
