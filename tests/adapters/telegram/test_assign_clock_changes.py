"""Assignment deadlines on the nights the clocks change, on Telegram (real PTB, the fake Bot API, a
FakeClock): a wall time the clocks skip or repeat in the group's zone is read as schedules read it,
and the admin is told what was set; the deadline closes once, at that instant, not an hour off."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import fake  # noqa: F401  (the fixture)
from tests.support import telegram_harness as th

CLOSED = "Assignment closed"


def podiums(fake: FakeBotApi, group: dict) -> list[Sent]:
    return [m for m in fake.sent_to(group) if CLOSED in m.text]


async def asleep_until(clock: FakeClock, instant: float) -> None:
    """Wait (in real time) until some task of the bot sleeps until `instant`: the assignments'
    loop, which has looked at the deadline and waits for it."""
    for _ in range(200):
        if any(abs(wake - instant) < 1e-3 for wake in clock.wakes()):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"nothing sleeps until {instant}")


async def test_a_deadline_the_clocks_repeat_closes_once_at_the_first_of_the_two(fake, tmp_path):
    clock = FakeClock(datetime(2026, 10, 20, 12, 0, tzinfo=UTC).timestamp())
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC).timestamp()  # 02:30 CEST; 02:30 CET is an hour later
    group = fake.group(-2101, "Night class")
    tess_user = fake.user(90, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await tess.says("/settings tz Europe/Berlin")
        created = await tess.says("/assign tiny until 2026-10-25 02:30")
        assert "Assignment #1 is open until 2026-10-25 02:30 Europe/Berlin" in created.text
        assert (
            "02:30 comes twice on 2026-10-25 in Europe/Berlin (the clocks go back): "
            "the assignment closes at the first, 00:30 UTC." in created.text
        )
        await fake.wait_for(lambda: any(m.text.startswith("📝 Assignment") for m in fake.sent_to(group)), what="post")

        clock.advance(first - 1 - clock.now())
        await asleep_until(clock, first)
        assert podiums(fake, group) == [], "not a second early"
        clock.advance(1)
        await fake.wait_for(lambda: podiums(fake, group), what="the podium at the first 02:30")
        clock.advance(3600 + 60)  # past the second 02:30
        await asyncio.sleep(0.3)
        assert len(podiums(fake, group)) == 1


async def test_a_deadline_the_clocks_skip_is_read_an_hour_on_and_said_so(fake, tmp_path):
    clock = FakeClock(datetime(2026, 3, 20, 12, 0, tzinfo=UTC).timestamp())
    at = datetime(2026, 3, 29, 1, 30, tzinfo=UTC).timestamp()  # 03:30 CEST: 02:30 does not exist that night
    group = fake.group(-2102, "Spring class")
    tess_user = fake.user(91, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await tess.says("/settings tz Europe/Berlin")
        created = await tess.says("/assign tiny until 2026-03-29 02:30")
        assert "Assignment #1 is open until 2026-03-29 03:30 Europe/Berlin" in created.text
        assert (
            "There is no 02:30 on 2026-03-29 in Europe/Berlin (the clocks go forward): "
            "the assignment closes at 03:30 instead." in created.text
        )
        plain = await tess.says("/assign tiny until 2026-03-28 02:30")  # the night before: no note
        assert "is open until 2026-03-28 02:30 Europe/Berlin; the podium comes then." in plain.text
        assert "clocks" not in plain.text

        clock.advance(at - 1 - clock.now())
        await asleep_until(clock, at)
        assert len(podiums(fake, group)) == 1, "only the night before's has closed"
        clock.advance(1)
        await fake.wait_for(lambda: len(podiums(fake, group)) == 2, what="the podium at 03:30")
