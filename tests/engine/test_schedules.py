"""Scheduled quizzes and questions of the day with a fake clock: their time in the chat's zone,
after a restart, and once with two engines on one database."""

import logging
from datetime import UTC, datetime

import pytest

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.schedule import ScheduleStatus
from bot.engine.core import Engine, EngineSettings
from bot.ports.chat import ChatUnreachable
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from tests.support.house import build, house_of

ADMIN = player(1, "Admin")
HOUR = 3600


def utc(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()


def make_engine(store, clock, adapter=None) -> Engine:
    catalog = Catalog.from_quizzes([make_quiz("demo", 4)])
    engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
    engine.attach(adapter or RecordingAdapter())
    return engine


async def admin(commands, text):
    name, _, args = text.partition(" ")
    return await commands.handle(name, args, Caller(group(), ADMIN, is_admin=True))


async def until(clock, engine, commands, when):
    """Move the fake clock to `when`, firing schedules and running quizzes on the way."""
    clock.advance(when - clock.now())
    await house_of(commands.engine).scheduler.tick()
    await engine.run_due()


@pytest.fixture
async def berlin(store):
    clock = FakeClock(utc(2026, 3, 27, 12))
    engine = make_engine(store, clock)
    return engine, house_of(engine).commands, clock


async def test_a_question_of_the_day_fires_at_0900_berlin_across_the_clock_change(berlin):
    engine, commands, clock = berlin
    assert (await admin(commands, "settings tz europe/berlin")).kind != "error"
    reply = await admin(commands, "schedule daily 09:00 demo 1 --hours 4")
    assert reply.text == (
        "#1 daily 09:00: question of the day from Demo quiz, open 4 h; next 2026-03-28 09:00 Europe/Berlin"
    )
    adapter = house_of(engine).adapters["test"]
    asked = []
    # 09:00 in Berlin is 08:00 UTC before 2026-03-29 (CET) and 07:00 UTC from then on (CEST)
    for fire in (utc(2026, 3, 28, 8), utc(2026, 3, 29, 7), utc(2026, 3, 30, 7), utc(2026, 3, 31, 7)):
        await until(clock, engine, commands, fire - 60)
        assert len(adapter.questions) == len(asked)  # not a minute early
        await until(clock, engine, commands, fire)
        assert adapter.sent[-1][1].text == "⏰ Question of the day from Demo quiz: it stays open 4 h."
        await until(clock, engine, commands, fire + 5)
        card = adapter.questions[-1]
        assert (card.total, card.seconds) == (1, 4 * HOUR)
        asked.append(card.prompt)
        await until(clock, engine, commands, fire + 5 + 4 * HOUR)  # closes after 4 hours, revealed
        assert adapter.reveals[-1][1].card == card
    assert sorted(asked) == ["Question 1?", "Question 2?", "Question 3?", "Question 4?"]  # no repeats


async def test_a_missed_time_runs_at_start_if_under_an_hour_late_else_is_skipped(reopen, caplog):
    clock = FakeClock(utc(2026, 6, 1, 6))
    store = await reopen()
    try:
        commands = house_of(make_engine(store, clock)).commands
        await admin(commands, "schedule daily 09:00 demo")
        await admin(commands, "schedule daily 08:00 demo 1")
    finally:
        await store.close()
    clock.advance(3 * HOUR + 30 * 60)  # down from 06:00 until 09:30 UTC: 09:00 is 30 min late, 08:00 90 min
    store = await reopen()
    try:
        engine = make_engine(store, clock)
        commands = house_of(engine).commands
        with caplog.at_level(logging.WARNING, "quizhost.schedule"):
            assert await house_of(commands.engine).scheduler.tick() == 1
        assert house_of(engine).adapters["test"].sent[-1][1].text == "⏰ Scheduled quiz: Demo quiz"
        assert engine.run_in(group()).total == 4
        assert "schedule 2 in test:g1: skipped the time 5400 s ago (too late)" in caplog.text
        nexts = sorted(s.next_due for s in await store.chat_schedules(group().key))
        assert nexts == [utc(2026, 6, 2, 8), utc(2026, 6, 2, 9)]
        assert await house_of(commands.engine).scheduler.tick() == 0  # each time once
    finally:
        await store.close()


class GoneAdapter(RecordingAdapter):
    async def send(self, chat, reply):
        raise ChatUnreachable(chat.key)


async def test_a_chat_that_removed_the_bot_pauses_its_schedule(store, caplog):
    clock = FakeClock(utc(2026, 6, 1, 6))
    engine = make_engine(store, clock, GoneAdapter())
    commands = house_of(engine).commands
    await admin(commands, "schedule daily 07:00 demo")
    clock.advance(HOUR)
    with caplog.at_level(logging.WARNING, "quizhost.schedule"):
        assert await house_of(commands.engine).scheduler.tick() == 0
    assert "test:g1 does not let the bot post; its schedules are paused (1)" in caplog.text
    (row,) = await store.chat_schedules(group().key)
    assert row.status is ScheduleStatus.PAUSED and engine.run_in(group()) is None
    clock.advance(86400)
    assert await store.due_schedules(clock.now()) == []  # not retried every day
    listing = await admin(commands, "schedule")
    assert "paused: I could not post here" in listing.text


async def test_schedule_commands_list_stop_and_refuse(engine, clock):
    commands = house_of(engine).commands
    assert (await admin(commands, "schedule")).text.startswith("Nothing is scheduled here.")
    await admin(commands, "schedule weekly mon 18:00 demo")
    await admin(commands, "schedule daily 9:30 demo 1")
    listing = (await admin(commands, "schedule")).text.splitlines()
    assert listing[0].startswith("#1 weekly mon 18:00: the quiz Demo quiz; next ")
    assert listing[1].startswith("#2 daily 09:30: question of the day from Demo quiz, open 8 h; next ")
    assert listing[2] == "Times are in UTC; /settings tz <Area/City> changes it."
    assert (await admin(commands, "schedule off 1")).text == "Schedules stopped: 1."
    assert (await admin(commands, "schedule off 7")).kind == "error"
    for no_such in ("99999999999999999999", "#9223372036854775808", "\u0663", "-1"):  # ٣: ARABIC-INDIC THREE
        for verb in ("off", "on"):  # no schedule has these ids: refused, as 7 is, never a store's error
            assert (await admin(commands, f"schedule {verb} {no_such}")).kind == "error", (verb, no_such)
    bad = {
        text: (await admin(commands, text)).text.splitlines()[0]
        for text in (
            "schedule hourly 09:00 demo",
            "schedule weekly someday 09:00 demo",
            "schedule daily 25:00 demo",
            "schedule daily 09:00",
            "schedule daily 09:00 demo 1 --hours 99",
            "schedule daily 09:00 nothing",
        )
    }
    assert bad == {
        "schedule hourly 09:00 demo": "Say daily or weekly first.",
        "schedule weekly someday 09:00 demo": "Name the day: mon, tue, wed, thu, fri, sat or sun.",
        "schedule daily 25:00 demo": "Give the time as HH:MM, for example 09:00.",
        "schedule daily 09:00": "Name the quiz after the time.",
        "schedule daily 09:00 demo 1 --hours 99": "--hours wants a number from 1 to 24.",
        "schedule daily 09:00 nothing": "Name one quiz: demo, other.",
    }
    member = await commands.handle("schedule", "off", Caller(group(), player(5)))
    assert member.kind == "error" and member.private
    assert len(await house_of(engine).store.chat_schedules(group().key)) == 1


async def test_settings_tz_takes_iana_names_only(engine):
    commands = house_of(engine).commands
    shown = await admin(commands, "settings tz Asia/Kolkata")
    assert "Time zone: Asia/Kolkata" in shown.text
    bad = await admin(commands, "settings tz Mars/Olympus")
    assert bad.kind == "error" and "Unknown time zone" in bad.text
    for bogus in ("localtime", "posixrules", "right/UTC", "posix/Europe/Berlin", "../UTC", "/etc/localtime"):
        refused = await admin(commands, f"settings tz {bogus}")
        assert refused.kind == "error" and "Unknown time zone" in refused.text, bogus
    assert (await house_of(engine).chats.settings(group())).time_zone == "Asia/Kolkata"
