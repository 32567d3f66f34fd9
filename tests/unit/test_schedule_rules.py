"""Schedule times: wall-clock times in the chat's zone, across daylight saving changes."""

from datetime import UTC, datetime

import pytest

from bot.domain import zones
from bot.domain.schedule import Cadence, Missed, Rule, RuleError, missed, next_fire, parse_rule, question_of_the_day

BERLIN = zones.zone("Europe/Berlin")


def utc(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()


def fires(rule: Rule, after: float, zone, count: int) -> list[float]:
    times = []
    for _ in range(count):
        after = next_fire(rule, after, zone)
        times.append(after)
    return times


def test_daily_0900_in_berlin_stays_0900_across_spring_forward():
    rule, _ = parse_rule(["daily", "09:00"])
    # 2026-03-29 02:00 CET becomes 03:00 CEST: 09:00 is 08:00 UTC before, 07:00 UTC after
    assert fires(rule, utc(2026, 3, 27, 12), BERLIN, 3) == [
        utc(2026, 3, 28, 8),
        utc(2026, 3, 29, 7),
        utc(2026, 3, 30, 7),
    ]


def test_daily_0900_in_berlin_stays_0900_across_fall_back():
    rule, _ = parse_rule(["daily", "09:00"])
    # 2026-10-25 03:00 CEST becomes 02:00 CET: 07:00 UTC before, 08:00 UTC after (25 hours apart)
    assert fires(rule, utc(2026, 10, 23, 12), BERLIN, 3) == [
        utc(2026, 10, 24, 7),
        utc(2026, 10, 25, 8),
        utc(2026, 10, 26, 8),
    ]


def test_a_time_skipped_by_the_clock_change_fires_once_just_after_it():
    rule, _ = parse_rule(["daily", "02:30"])
    # 02:30 does not exist on 2026-03-29 in Berlin: it fires at 03:30 CEST (01:30 UTC)
    assert fires(rule, utc(2026, 3, 28, 12), BERLIN, 2) == [utc(2026, 3, 29, 1, 30), utc(2026, 3, 30, 0, 30)]


def test_a_time_that_happens_twice_fires_once():
    rule, _ = parse_rule(["daily", "02:30"])
    # 02:30 happens twice on 2026-10-25 (CEST, then CET): only the first one fires
    assert fires(rule, utc(2026, 10, 24, 12), BERLIN, 2) == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30)]


def test_weekly_monday_1800_in_kolkata():
    rule, rest = parse_rule(["weekly", "Monday", "18:00", "deepspeed"])
    assert rule == Rule(Cadence.WEEKLY, 18, 0, 0) and rest == ["deepspeed"]
    kolkata = zones.zone("Asia/Kolkata")
    monday_1800 = utc(2026, 12, 7, 12, 30)  # 18:00 IST is 12:30 UTC
    assert next_fire(rule, utc(2026, 12, 2, 9), kolkata) == monday_1800  # from a Wednesday
    assert next_fire(rule, monday_1800, kolkata) == monday_1800 + 7 * 86400  # strictly after
    assert next_fire(rule, monday_1800 - 1, kolkata) == monday_1800


def test_rules_are_parsed_and_bad_words_say_what_is_wrong():
    rule, rest = parse_rule(["DAILY", "9:05", "pipeline", "1"])
    assert rule.describe() == "daily 09:05" and rest == ["pipeline", "1"]
    assert parse_rule(["weekly", "mon", "18:00"])[0].describe() == "weekly mon 18:00"
    assert parse_rule(["hourly", "09:00"]) is RuleError.CADENCE
    assert parse_rule([]) is RuleError.CADENCE
    assert parse_rule(["weekly", "someday", "09:00"]) is RuleError.WEEKDAY
    assert parse_rule(["daily", "24:00"]) is RuleError.CLOCK
    assert parse_rule(["daily", "9.00"]) is RuleError.CLOCK
    assert parse_rule(["daily"]) is RuleError.CLOCK


def test_a_missed_time_runs_at_start_only_if_less_than_an_hour_late():
    due = utc(2026, 3, 28, 8)
    assert missed(due, due + 59 * 60) is Missed.RUN
    assert missed(due, due + 3600) is Missed.SKIP


def test_questions_of_the_day_do_not_repeat_until_all_were_asked():
    ids = tuple(f"q{i}" for i in range(8))
    asked: frozenset[str] = frozenset()
    picks = []
    for _ in range(16):
        pick, asked = question_of_the_day(ids, asked, seed=7)
        picks.append(pick)
    assert sorted(picks[:8]) == sorted(ids) and sorted(picks[8:]) == sorted(ids)
    assert picks[:8] != list(ids) or picks[8:] != list(ids)  # shuffled, not authoring order
    assert question_of_the_day(ids, frozenset(picks[:3]), 7) == question_of_the_day(ids, frozenset(picks[:3]), 7)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Asia/Kolkata", "Asia/Kolkata"),
        ("asia/kolkata", "Asia/Kolkata"),
        ("UTC", "UTC"),
        ("Mars/Olympus", None),
        ("../etc/passwd", None),
        ("", None),
        ("/etc/localtime", None),
    ],
)
def test_time_zones_by_iana_name(name, expected):
    assert zones.canonical(name) == expected
