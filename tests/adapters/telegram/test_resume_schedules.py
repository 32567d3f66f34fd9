"""A paused schedule comes back: Telegram resumes it by itself when the bot is added back to the
group (my_chat_member), and an admin's `/schedule on` resumes it anywhere. A fire time missed
while paused is treated as after a restart: under an hour late it runs, older it is skipped."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from bot.commands.core import Caller
from bot.domain.schedule import ScheduleStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from tests.adapters.telegram.test_forbidden_chats import KICKED
from tests.adapters.telegram.test_telegram_e2e import fake, tiny  # noqa: F401  (fixtures)
from tests.engine.test_schedules import HOUR, GoneAdapter, admin, make_engine, utc
from tests.support import telegram_harness as th
from tests.support.house import house_of

RESUMED = "▶️ Schedules resumed\n\n#1 daily 09:00: the quiz Tiny <Quiz> & Co; next 2026-06-02 09:00 Asia/Kolkata"


async def test_telegram_resumes_a_groups_schedules_when_the_bot_is_added_back(fake, tmp_path, caplog):
    clock = FakeClock(datetime(2026, 6, 1, 3, 29, tzinfo=UTC).timestamp())  # 08:59 in Kolkata
    chat, ann_user = fake.group(-1072, "Returners"), fake.user(72, "Ann")
    ann = th.Member(fake, chat, ann_user)
    fake.make_admin(chat, ann_user)
    fake.expected_refusals.add(KICKED)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await ann.says("/settings tz Asia/Kolkata")
        await ann.says("/schedule daily 09:00 tiny")
        fake.remove_bot(chat)
        with caplog.at_level(logging.WARNING, "quizhost.schedule"):
            clock.advance(60)  # 09:00: the announcement is refused
            await fake.wait_for(lambda: "its schedules are paused" in caplog.text, what="the schedules paused")
        clock.advance(2 * HOUR)
        await fake.add_bot_back(chat, ann_user)
        told = await fake.wait_for(lambda: [m for m in fake.sent_to(chat) if "resumed" in m.text], what="told")
        assert told[0].text.startswith(RESUMED)  # when it fires next, in the chat's time zone
        assert "less than an hour late" in told[0].text
        await fake.add_bot_back(chat, ann_user)  # made admin, say: nothing was paused, nothing said
        clock.advance(datetime(2026, 6, 2, 3, 30, tzinfo=UTC).timestamp() - clock.now())  # 09:00 Kolkata
        first = await th.next_question(fake, chat, 1)
        assert "Scheduled quiz" in "\n".join(m.text for m in fake.sent_to(chat))
        assert first.keyboard  # the question, with its answer buttons
    assert len([m for m in fake.sent_to(chat) if "resumed" in m.text]) == 1


async def test_schedule_on_resumes_one_or_all_and_skips_what_is_over_an_hour_late(store):
    clock = FakeClock(utc(2026, 6, 1, 6))
    engine = make_engine(store, clock, GoneAdapter())
    commands = house_of(engine).commands
    await admin(commands, "schedule daily 07:00 demo")
    await admin(commands, "schedule daily 08:00 demo 1")
    clock.advance(HOUR)
    await house_of(
        commands.engine
    ).scheduler.tick()  # 07:00 refused: both pause; #1 waits for 07:00 tomorrow, #2 for 08:00 today
    assert [s.status for s in await store.chat_schedules(group().key)] == [ScheduleStatus.PAUSED] * 2
    listing = (await admin(commands, "schedule")).text
    assert "paused: I could not post here · /schedule on 2 resumes it" in listing
    engine.attach(RecordingAdapter())  # the bot may post again
    clock.advance(utc(2026, 6, 2, 7, 30) - clock.now())  # #1 is half an hour late, #2 a day
    member = await commands.handle("schedule", "on", Caller(group(), player(5)))
    assert member.kind == "error" and member.private
    assert (await admin(commands, "schedule on 9")).kind == "error"
    one = (await admin(commands, "schedule on 2")).text.splitlines()
    assert one[0] == "#2 daily 08:00: question of the day from Demo quiz, open 8 h; next 2026-06-02 08:00 UTC"
    assert one[1] == "A time missed while paused runs now if it is less than an hour late; older ones are skipped."
    assert (
        await house_of(commands.engine).scheduler.tick() == 0
    )  # yesterday's 08:00 is not replayed; #1 is still paused
    rest = (await admin(commands, "schedule on")).text.splitlines()
    assert rest[0] == "#1 daily 07:00: the quiz Demo quiz; next 2026-06-02 07:00 UTC"
    assert await house_of(commands.engine).scheduler.tick() == 1  # half an hour late: it runs now
    assert (await admin(commands, "schedule on")).kind == "error"  # nothing is paused any more
