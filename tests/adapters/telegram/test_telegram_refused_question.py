"""A question Telegram refuses as it is (a 400: sending it again cannot help) ends its run at
once, with a word to the group, instead of being tried again for 10 minutes while the group is
told "A quiz is already running"."""

from __future__ import annotations

import asyncio

from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, running_bot, settings_for

REFUSED = "Bad Request: message can't be posted"


async def ended_word(fake: FakeBotApi, group: dict, clock) -> tuple[Sent | None, float]:
    """The word that the quiz ended, and how far the clock had to move for it (a minute of
    game time at most, a second at a time: the bot's own back-off sleeps on this clock)."""
    start = clock.now()
    for _ in range(61):
        await asyncio.sleep(0.05)
        said = next((m for m in fake.sent_to(group) if "quiz has ended" in m.text), None)
        if said is not None:
            return said, clock.now() - start
        clock.advance(1)
    return None, clock.now() - start


async def test_a_question_telegram_refuses_ends_the_run_at_once_and_the_group_plays_on(
    fake: FakeBotApi, clock, tmp_path
):
    group = fake.group(-2301, "Club")
    ann = Member(fake, group, fake.user(2301, "Ann"))
    fake.expected_refusals.add(REFUSED)
    refusing = [True]
    fake.fail("sendMessage", "400", times=1_000, when=lambda p: refusing[0] and "Question 1/" in str(p.get("text")))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/quiz tiny")
        ended, waited = await ended_word(fake, group, clock)
        tries = len([c for c in fake.calls if c.error == REFUSED])
        print(f"question 1 refused: tried {tries} time(s), the quiz ended after {waited:.0f} s of game time")
        assert ended is not None, "the group was told the quiz ended"
        assert ended.text.startswith("⚠️ The quiz has ended: question 1 was refused by the chat platform")
        assert tries == 1, "a refusal is not sent again"
        refusing[0] = False
        await ann.says("/quiz tiny")  # nothing holds the group
        assert (await next_question(fake, group, 1)).text
