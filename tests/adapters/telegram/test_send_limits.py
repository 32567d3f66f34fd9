"""Within Telegram's limits at every instant: never more than 30 sends in any one second for
the bot, nor 20 in any minute for one group, as the fake Bot API records them arriving."""

from __future__ import annotations

import asyncio
import contextlib
from bisect import bisect_right
from collections.abc import AsyncIterator

import pytest
from telegram.error import NetworkError
from telegram.ext import ApplicationBuilder, ExtBot

from bot.adapters.telegram.limits import CHATTER, Prepaid, SlidingWindowLimiter, TooLate
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


async def run_on(clock: FakeClock, fake: FakeBotApi, limiter: SlidingWindowLimiter, work: asyncio.Future) -> None:
    """Until `work` is done, moving the clock on whenever every call let through has been answered."""
    while not work.done():
        await asyncio.sleep(0.005)
        arrived = sum("chat_id" in c.params for c in fake.calls)
        if arrived == limiter.released and (wake := clock.next_wake()) is not None:
            clock.advance(max(0.0, wake - clock.now()))
    await work


@contextlib.asynccontextmanager
async def on_fake_clock(fake: FakeBotApi) -> AsyncIterator[tuple[FakeClock, SlidingWindowLimiter, ExtBot]]:
    """A PTB bot whose limiter and the fake's stamps share a FakeClock."""
    clock = FakeClock()
    fake.stamp = clock.now
    limiter = SlidingWindowLimiter(now=clock.now, sleep=clock.sleep)
    app = ApplicationBuilder().token(fake.token).base_url(fake.url).rate_limiter(limiter).build()
    await app.initialize()
    try:
        yield clock, limiter, app.bot
    finally:
        await app.shutdown()


async def test_admin_checks_and_refused_sends_leave_the_groups_minute_to_its_messages(fake):
    """40 admin checks, 10 sends Telegram refused (400) and 10 it answered 500 cost the group
    nothing: its next 20 messages all go at once, and only the 21st waits for the minute."""
    group, users = fake.group(-1001), [fake.user(100 + n, f"U{n}") for n in range(40)]
    fake.expected_refusals.add("Bad Request: message to be replied not found")
    fake.fail("sendMessage", "500", times=10)
    async with on_fake_clock(fake) as (clock, limiter, bot):
        start = clock.now()
        noise = [bot.get_chat_member(group["id"], u["id"]) for u in users]
        noise += [bot.send_message(group["id"], "no", reply_to_message_id=999_999) for _ in range(20)]
        await run_on(clock, fake, limiter, asyncio.gather(*noise, return_exceptions=True))
        work = asyncio.gather(*(bot.send_message(group["id"], f"m{n}") for n in range(21)))
        await run_on(clock, fake, limiter, work)
    arrived = sends(fake, group["id"])
    assert len(arrived) == 21
    assert all(at == start for at in arrived[:20]), [a - start for a in arrived]
    assert 60 <= arrived[20] - start <= 61.5


async def test_a_send_whose_answer_was_lost_still_counts(fake):
    """Telegram may have posted it: a dropped connection keeps the send's place in the minute."""
    group = fake.group(-1001)
    fake.fail("sendMessage", "drop", times=1)
    async with on_fake_clock(fake) as (clock, limiter, bot):
        start = clock.now()
        with contextlib.suppress(NetworkError):
            await bot.send_message(group["id"], "lost?")
        work = asyncio.gather(*(bot.send_message(group["id"], f"m{n}") for n in range(20)))
        await run_on(clock, fake, limiter, work)
    arrived = sends(fake, group["id"])
    assert len(arrived) == 20 and arrived[18] == start and arrived[19] - start >= 60


async def test_a_long_hold_is_told_once_and_a_short_one_not_at_all(fake):
    """19 messages fill a group's minute (one place is kept for the notice). Five seconds on,
    two more wait most of a minute: one notice, on the kept place, at once. A hold under 10 s:
    none."""
    long_wait, short_wait = fake.group(-1001), fake.group(-1002)
    told: list[tuple[int | str, float]] = []
    async with on_fake_clock(fake) as (clock, limiter, bot):

        async def on_hold(chat_id: int | str, seconds: float, prepaid: Prepaid) -> None:
            told.append((chat_id, seconds))
            await bot.send_message(chat_id, f"wait {seconds:.0f} s", rate_limit_args=prepaid)

        limiter.on_hold = on_hold
        start = clock.now()
        for chat in (long_wait, short_wait):
            await run_on(clock, fake, limiter, asyncio.gather(*(bot.send_message(chat["id"], "m") for _ in range(19))))
        clock.advance(5)
        hold_starts = clock.now()
        held = asyncio.gather(*(bot.send_message(long_wait["id"], f"held {n}") for n in range(2)))
        await fake.wait_for(lambda: len(sends(fake, long_wait["id"])) == 20, what="the notice")
        clock.advance(47)  # 52 s: the short group's minute frees its first place 9 s from now
        await run_on(clock, fake, limiter, asyncio.gather(held, bot.send_message(short_wait["id"], "soon")))
    assert told == [(long_wait["id"], pytest.approx(start + 61.0 - hold_starts))]
    long_times = sends(fake, long_wait["id"])
    assert len(long_times) == 22 and long_times[19] == hold_starts  # the notice, at once
    assert long_times[20] == long_times[21] == pytest.approx(start + 61.0)
    assert most_in_any_window(long_times, 60.0) <= 20
    assert sends(fake, short_wait["id"])[-1] - start == pytest.approx(61.0, abs=0.2)


async def test_replies_to_users_leave_room_in_every_second_for_the_quizzes_own_messages(fake):
    """90 users' replies (CHATTER) queued first take at most 20 of the bot's 30 a second, so a
    question sent after them all leaves in the same second instead of three seconds later."""
    users = [fake.private(fake.user(300 + n, f"U{n}")) for n in range(90)]
    group = fake.group(-1001)
    async with on_fake_clock(fake) as (clock, limiter, bot):
        start = clock.now()
        replies = [bot.send_message(u["id"], "help text", rate_limit_args=CHATTER) for u in users]
        work = asyncio.gather(*replies, bot.send_message(group["id"], "Question 1"))
        await run_on(clock, fake, limiter, work)
    chatter = [c.at for c in fake.called("sendMessage") if c.params["chat_id"] != group["id"]]
    (question,) = sends(fake, group["id"])
    assert len(chatter) == 90 and most_in_any_window(chatter, 1.0) <= 20
    assert question == start
    assert most_in_any_window([*chatter, question], 1.0) <= 30


async def test_a_reply_that_would_wait_for_its_groups_minute_is_not_sent_and_the_quiz_goes_on(fake):
    """A group's minute spent: replies to its members are dropped after CHATTER_PATIENCE (a
    /help answered a minute late helps nobody, and its update handler was held all that time),
    while the quiz's next message waits for the minute as before and goes."""
    group = fake.group(-1001)
    async with on_fake_clock(fake) as (clock, limiter, bot):
        start = clock.now()
        await run_on(clock, fake, limiter, asyncio.gather(*(bot.send_message(group["id"], f"m{n}") for n in range(20))))
        replies = [bot.send_message(group["id"], "help text", rate_limit_args=CHATTER) for _ in range(3)]
        work = asyncio.gather(bot.send_message(group["id"], "Question 2"), *replies, return_exceptions=True)
        await run_on(clock, fake, limiter, work)
    question, *dropped = work.result()
    assert all(isinstance(d, TooLate) for d in dropped) and not isinstance(question, Exception)
    arrived = sends(fake, group["id"])
    assert len(arrived) == 21 and arrived[20] - start >= 60
    assert [c.params["text"] for c in fake.called("sendMessage")][-1] == "Question 2"


async def test_replies_cancelled_before_they_left_give_their_place_in_the_lane_back(fake):
    """20 replies that took their place in the chatter lane and then were cancelled while they
    waited for their group's minute never left: the next 20 replies, to members in private,
    all go at once instead of waiting out the lane's second behind replies nobody got."""
    group = fake.group(-1001)
    users = [fake.private(fake.user(400 + n, f"U{n}")) for n in range(20)]
    async with on_fake_clock(fake) as (clock, limiter, bot):
        await run_on(clock, fake, limiter, asyncio.gather(*(bot.send_message(group["id"], f"m{n}") for n in range(20))))
        clock.advance(2)  # the bot's second is free again; the group's minute is still spent
        held = [
            asyncio.ensure_future(bot.send_message(group["id"], "help text", rate_limit_args=CHATTER))
            for _ in range(20)
        ]
        await asyncio.sleep(0.05)  # each has its place in the lane and waits for the group's minute
        for reply in held:
            reply.cancel()
        await asyncio.gather(*held, return_exceptions=True)
        await asyncio.sleep(0.01)
        now = clock.now()
        replies = asyncio.gather(*(bot.send_message(u["id"], "help text", rate_limit_args=CHATTER) for u in users))
        await run_on(clock, fake, limiter, replies)
    private = [c.at for c in fake.called("sendMessage") if c.params["chat_id"] != group["id"]]
    assert len(private) == 20 and set(private) == {now}, sorted(set(private))
