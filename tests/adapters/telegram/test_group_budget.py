"""A group's 20 messages a minute are spent only on what Telegram counts: a send it refused
(a 500) gives its place back, and admin checks cost nothing, so a quiz goes on as soon as the
platform does. `quizhost run` (real PTB) against the fake Bot API; the engine and the rate
limiter on one FakeClock, which a driver moves on whenever the bot has gone quiet."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
from collections.abc import AsyncIterator

import pytest

from bot.adapters.telegram import runtime as telegram_runtime
from bot.adapters.telegram.limits import SlidingWindowLimiter
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from tests.support.telegram_harness import (  # noqa: F401 (fake: a fixture)
    Member,
    fake,
    next_question,
    running_bot,
    settings_for,
)

QUESTION_SECONDS = 10
OUTAGE = 20.0  # seconds during which every other send gets a 500


@pytest.fixture
def clock(monkeypatch, fake: FakeBotApi) -> FakeClock:
    """One fake clock for the engine, the rate limiter and the fake's stamps."""
    clock = FakeClock()
    fake.stamp = clock.now
    limiter = functools.partial(SlidingWindowLimiter, now=clock.now, sleep=clock.sleep)
    monkeypatch.setattr(telegram_runtime, "SlidingWindowLimiter", limiter)
    return clock


@contextlib.asynccontextmanager
async def time_moves(fake: FakeBotApi, clock: FakeClock) -> AsyncIterator[None]:
    """Moves the clock to its next sleeper each time no call has reached the fake for a while."""

    def made() -> int:  # calls but the long polls, which come and go on their own
        return sum(c.method != "getUpdates" for c in fake.calls)

    async def drive() -> None:
        while True:
            seen = made()
            await asyncio.sleep(0.1)
            if made() == seen and (wake := clock.next_wake()) is not None:
                clock.advance(max(0.0, wake - clock.now()))

    driver = asyncio.create_task(drive())
    try:
        yield
    finally:
        driver.cancel()


def group_posts(fake: FakeBotApi, chat: dict) -> list[tuple[float, str]]:
    """(when, what) of every message Telegram took for the group: sends and edits."""
    kinds = {"sendMessage": "send", "editMessageText": "edit"}
    return [
        (c.at, f"{kinds[c.method]}: {c.params.get('text', '').splitlines()[0]}")
        for c in fake.calls
        if c.method in kinds and c.status == 200 and c.params.get("chat_id") == chat["id"]
    ]


def half_fail_until(fake: FakeBotApi, clock: FakeClock, end: float) -> None:
    """Every other send and edit before `end` is answered 500."""
    turn = itertools.count()

    def now_failing(params: dict) -> bool:
        return clock.now() < end and next(turn) % 2 == 0

    for method in ("sendMessage", "editMessageText"):
        fake.fail(method, "500", times=10_000, when=now_failing)


async def plays(ann: Member, bob: Member, questions: int) -> None:
    """Ann answers every question at once; Bob only the first, so each later one waits for him
    until its time is up (and two silent questions in a row would end the quiz)."""
    for number in range(1, questions + 1):
        q = await next_question(ann.fake, ann.chat, number)
        data = q.buttons()[0]["callback_data"]
        for member in (ann, bob) if number == 1 else (ann,):
            assert (await member.presses_data(q.message_id, data)).text.startswith("Locked in")


@contextlib.asynccontextmanager
async def a_group_with_the_bot(
    fake: FakeBotApi, clock: FakeClock, tmp_path
) -> AsyncIterator[tuple[dict, Member, Member]]:
    """`quizhost run` with 10-second questions, the clock moving on, and Ann and Bob in a group."""
    group = fake.group(-1001, "Quiz fans")
    ann, bob = Member(fake, group, fake.user(11, "Ann")), Member(fake, group, fake.user(12, "Bob"))
    settings = settings_for(fake, tmp_path, quizhost_question_seconds=QUESTION_SECONDS)
    async with running_bot(fake, settings, clock), time_moves(fake, clock):
        yield group, ann, bob


async def test_refused_sends_do_not_eat_the_groups_minute(fake, clock, tmp_path):
    async with a_group_with_the_bot(fake, clock, tmp_path) as (group, ann, bob):
        start = clock.now()
        await ann.says("/quiz@QuizHostBot pipeline")
        players = asyncio.create_task(plays(ann, bob, 8))
        outage_ends = clock.now() + OUTAGE
        half_fail_until(fake, clock, outage_ends)
        await fake.wait_for(
            lambda: next((m for m in fake.sent_to(group) if "Quiz over" in m.text), None), timeout=60, what="podium"
        )
    await players
    posts = group_posts(fake, group)
    refused = sum(c.status == 500 for c in fake.calls)
    print(f"\n{refused} tries refused with a 500 between 0 and {OUTAGE:.0f} s; the group's messages:")
    for at, what in posts:
        print(f"{at - start:7.1f} s  {what[:90]}")
    assert refused >= 3
    # from the outage's end on, each question closes on time and the next one follows at once:
    # no message waits for places in the group's minute that refused tries took
    asked = [at for at, what in posts if what.startswith("send: <b>Question")]
    gaps = [later - sooner for sooner, later in itertools.pairwise(asked) if later > outage_ends]
    assert gaps and max(gaps) <= QUESTION_SECONDS + 2, gaps
    podium_at = next(at for at, what in posts if "Quiz over" in what)
    assert podium_at - outage_ends <= (len(gaps) + 1) * QUESTION_SECONDS + 3


async def test_a_group_held_by_its_minute_is_told_once_how_long_it_waits(fake, clock, tmp_path):
    """Seventeen members' /leaderboard replies take the group's minute; the first question closes with
    nobody playing and its close waits most of a minute: the group hears why, once."""
    async with a_group_with_the_bot(fake, clock, tmp_path) as (group, ann, _bob):
        start = clock.now()
        await ann.says("/quiz@QuizHostBot tiny")
        # with the start and the question: 19, the most a quiz may take; seventeen members ask
        # once each (one member asking 17 times gets five replies and a slow-down: budget.py)
        for n in range(17):
            await Member(fake, group, fake.user(100 + n, f"Member {n}")).says("/leaderboard")
        for number in (2, 3):  # Ann plays from the second on, so the quiz is not silent twice
            q = await next_question(fake, group, number)
            await ann.presses_data(q.message_id, q.buttons()[0]["callback_data"])
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="podium")
    posts = group_posts(fake, group)
    for at, what in posts:
        print(f"{at - start:7.1f} s  {what[:90]}")
    notices = [(at, what) for at, what in posts if "messages a minute" in what]
    assert len(notices) == 1, notices
    told_at, text = notices[0]
    waits = int(text.split(" goes on in ")[1].split(" s")[0])
    closed_at = next(at for at, what in posts if what.startswith("edit: <b>Question 1/"))
    assert waits > 10 and abs(closed_at - (told_at + waits)) <= 1.5
    assert "Telegram lets a group get 20 messages a minute" in text
