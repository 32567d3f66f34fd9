"""Within Telegram's limits at every instant: never more than 30 sends in any one second for
the bot, nor 20 in any minute for one group, as the fake Bot API records them arriving."""

from __future__ import annotations

import asyncio
from bisect import bisect_right

import pytest
from telegram.ext import ApplicationBuilder

from bot.adapters.telegram.limits import SlidingWindowLimiter
from bot.adapters.telegram.runtime import build_application
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi


def most_in_any_window(times: list[float], window: float) -> int:
    """The most arrivals in any closed interval of `window` seconds."""
    times = sorted(times)
    return max((bisect_right(times, t + window) - i for i, t in enumerate(times)), default=0)


def sends(fake: FakeBotApi, chat_id: int | None = None) -> list[float]:
    return [c.at for c in fake.called("sendMessage") if chat_id is None or c.params["chat_id"] == chat_id]


@pytest.fixture
async def fake():
    api = FakeBotApi()
    await api.start()
    yield api
    await api.stop()


async def test_a_burst_to_many_groups_never_passes_30_in_any_second(fake):
    groups = [fake.group(-1000 - n) for n in range(75)]
    app = build_application(fake.token, fake.url)
    await app.initialize()
    try:
        await asyncio.gather(*(app.bot.send_message(g["id"], "hello") for g in groups))
    finally:
        await app.shutdown()
    arrived = sends(fake)
    assert len(arrived) == 75
    assert most_in_any_window(arrived, 1.0) <= 30


async def test_three_workers_sending_for_one_bot_stay_within_30_in_any_second_together(fake):
    """TELEGRAM_WORKERS=3: each worker's own limiter keeps to its share, 10 a second, so the three
    (each its own PTB application, as in its own process) never pass the bot's 30 together."""
    groups = [fake.group(-2000 - n) for n in range(90)]
    workers = [build_application(fake.token, fake.url, workers=3) for _ in range(3)]
    for app in workers:
        await app.initialize()
    try:
        await asyncio.gather(*(workers[n % 3].bot.send_message(g["id"], "hello") for n, g in enumerate(groups)))
    finally:
        for app in workers:
            await app.shutdown()
    arrived = sends(fake)
    assert len(arrived) == 90
    assert most_in_any_window(arrived, 1.0) <= 30


async def test_one_group_gets_at_most_20_in_any_minute_on_the_fake_clock(fake):
    clock = FakeClock()
    fake.stamp = clock.now
    busy, quiet = fake.group(-1001), fake.group(-1002)
    limiter = SlidingWindowLimiter(now=clock.now, sleep=clock.sleep)
    app = ApplicationBuilder().token(fake.token).base_url(fake.url).rate_limiter(limiter).build()
    await app.initialize()
    try:
        work = asyncio.gather(
            *(app.bot.send_message(busy["id"], f"m{n}") for n in range(45)),
            *(app.bot.send_message(quiet["id"], f"q{n}") for n in range(5)),
        )
        while not work.done():  # time moves on once every send let through has arrived
            await asyncio.sleep(0.005)
            if len(sends(fake)) == limiter.released and (wake := clock.next_wake()) is not None:
                clock.advance(max(0.0, wake - clock.now()))
        await work
    finally:
        await app.shutdown()
    busy_times, quiet_times = sends(fake, busy["id"]), sends(fake, quiet["id"])
    assert len(busy_times) == 45 and len(quiet_times) == 5
    assert most_in_any_window(busy_times, 60.0) <= 20
    assert max(quiet_times) - min(quiet_times) < 60  # a quiet group does not wait behind a busy one
    assert most_in_any_window(busy_times + quiet_times, 1.0) <= 30
