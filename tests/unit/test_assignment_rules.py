"""The rules of assignments: a deadline in words in the chat's time zone, and when the group
message may change."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from bot.domain.assignment import (
    AssignmentRow,
    Attempt,
    Attempted,
    ClockChange,
    Deadline,
    Place,
    UntilError,
    assignment_of,
    combined_accuracy,
    may_edit,
    parse_until,
    progress,
    read_until,
    roll,
    split_until,
    time_left,
)
from bot.domain.model import ChatRef
from bot.domain.records import Phase, RunStatus
from bot.domain.worth import RIGHT, WRONG, Verdict, Worth, record_of

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 3, 27, 20, 0, tzinfo=BERLIN).timestamp()  # a Friday evening, before the clocks go forward


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=BERLIN).timestamp()


def test_dates_and_times_read_in_the_chats_zone():
    assert parse_until(["2026-03-30", "18:00"], NOW, BERLIN) == at(2026, 3, 30, 18, 0)
    assert parse_until(["tomorrow"], NOW, BERLIN) == at(2026, 3, 28, 23, 59)  # no time: the day's end
    assert parse_until(["Today", "21:30"], NOW, BERLIN) == at(2026, 3, 27, 21, 30)
    assert parse_until(["mon", "9:05"], NOW, BERLIN) == at(2026, 3, 30, 9, 5)
    assert parse_until(["friday", "08:00"], NOW, BERLIN) == at(2026, 4, 3, 8, 0)  # today's has passed: next week's
    # 02:30 does not exist on 29 March in Berlin: it is read as 03:30, an hour after 01:30
    assert parse_until(["2026-03-29", "02:30"], NOW, BERLIN) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC).timestamp()


def test_a_wall_time_the_clocks_skip_or_repeat_is_named_so_the_admin_is_told():
    skipped = read_until(["2026-03-29", "02:30"], NOW, BERLIN)
    assert isinstance(skipped, Deadline) and skipped.change is ClockChange.SKIPPED
    assert skipped.typed == datetime(2026, 3, 29, 2, 30)
    assert read_until(["2026-03-29", "03:30"], NOW, BERLIN) == Deadline(skipped.at, datetime(2026, 3, 29, 3, 30))
    autumn = datetime(2026, 10, 20, 12, 0, tzinfo=UTC).timestamp()
    repeated = read_until(["2026-10-25", "02:59"], autumn, BERLIN)
    assert isinstance(repeated, Deadline) and repeated.change is ClockChange.REPEATED
    assert repeated.at == datetime(2026, 10, 25, 0, 59, tzinfo=UTC).timestamp()  # the first 02:59, CEST
    assert read_until(["2026-10-25", "03:00"], autumn, BERLIN).change is None  # type: ignore[union-attr]


def test_words_that_are_not_a_deadline_say_why():
    assert parse_until(["29.03.2026"], NOW, BERLIN) is UntilError.DATE
    assert parse_until(["2026-02-30"], NOW, BERLIN) is UntilError.DATE
    assert parse_until(["tomorrow", "25:00"], NOW, BERLIN) is UntilError.CLOCK
    assert parse_until(["tomorrow", "18:00", "sharp"], NOW, BERLIN) is UntilError.EXTRA
    assert parse_until(["today", "19:59"], NOW, BERLIN) is UntilError.PAST
    assert parse_until(["2027-01-01"], NOW, BERLIN) is UntilError.TOO_FAR
    assert split_until(["pipeline", "until", "fri", "18:00"]) == ("pipeline", ["fri", "18:00"])
    assert split_until(["pipeline", "fri"]) is UntilError.USAGE
    assert split_until(["until", "fri"]) is UntilError.USAGE
    assert split_until(["pipeline", "UNTIL"]) is UntilError.USAGE


def test_the_start_payload_names_one_assignment():
    assert assignment_of("assign_12") == 12
    assert [assignment_of(p) for p in ("review", "assign_", "assign_x1", "assign_1234567890123")] == [None] * 4


def test_the_message_changes_at_most_once_a_minute_and_only_when_progress_does():
    row = AssignmentRow(ChatRef("t", "g"), "demo", ("a",), 20, NOW + 3600, "en", "t:1", NOW)
    done = progress([Place("t:2", "Ann", 900, 1, 1, True), Place("t:3", "Bob", 0, 0, 0, False)])
    assert (done.started, done.finished, [p.name for p in done.top]) == (2, 1, ["Ann"])
    shown = AssignmentRow(**{**row.__dict__, "shown": done.digest, "shown_at": NOW})
    assert may_edit(row, done, NOW + 60) and not may_edit(shown, done, NOW + 600)
    fresh = AssignmentRow(**{**row.__dict__, "shown_at": NOW})
    assert not may_edit(fresh, done, NOW + 59) and may_edit(fresh, done, NOW + 60)
    assert time_left(row, NOW + 1) == (0, 1, 0) and time_left(row, NOW + 3600) == (0, 0, 0)


def test_the_roll_sorts_attempts_by_how_far_they_got_and_names_who_has_not_started():
    row = AssignmentRow(ChatRef("test", "g1"), "demo", ("q1", "q2"), 20, NOW + 3600, "en", "test:admin", NOW)
    done = Attempt("test:ann", "Ann", 1, NOW, RunStatus.FINISHED, 1, Phase.ASKING, NOW + 60, 1800)
    quit_ = Attempt("test:bob", "Bob", 2, NOW, RunStatus.STOPPED, 0, Phase.ASKING, None, 0)
    silent = Attempt("test:cy", "Cy", 3, NOW, RunStatus.SILENT, 1, Phase.ASKING, NOW + 30, 900)
    playing = Attempt("test:dee", "Dee", 4, NOW, RunStatus.OPEN, -1, Phase.POSTING, None, 0)
    seen = {"test:ann": "Ann", "test:zoe": "zoe", "test:eve": "Eve", "test:admin": "Admin", "test:bob": "Bob"}
    found = roll(row, [done, quit_, silent, playing], seen)
    assert found.finished == (done,)
    assert found.stopped == (quit_, silent, playing)
    assert [a.state for a in found.stopped] == [Attempted.STOPPED, Attempted.STOPPED, Attempted.PLAYING]
    assert found.not_started == (("test:eve", "Eve"), ("test:zoe", "zoe")), "by name; never who assigned it"
    assert [a.asked(2) for a in (done, quit_, playing)] == [2, 1, 0]
    answering = Attempt("test:dee", "Dee", 4, NOW, RunStatus.OPEN, 1, Phase.ASKING, NOW, 1000)
    assert answering.asked(2) == 1, "the question still being answered is not yet asked"


def test_the_combined_accuracy_counts_every_question_once_and_partial_credit_by_its_share():
    half = Worth(Verdict.PARTIAL, 0.5)
    ann = record_of([RIGHT, RIGHT, RIGHT], 3)
    dee = record_of([half, WRONG], 3)  # one question not answered
    assert combined_accuracy([ann, dee]) == (3 + 0.5) / 6
    assert combined_accuracy([]) is None
    assert combined_accuracy([record_of([], 0)]) is None
