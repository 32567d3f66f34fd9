"""A review on Telegram that a restart of the bot does not lose: the card posted before the
restart still answers a press after it, and the review goes on (real PTB, fake Bot API)."""

from __future__ import annotations

from tests.adapters.telegram.test_review_telegram import review_card
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th


async def test_a_review_card_answers_a_press_after_the_bot_restarted(fake, clock, tmp_path):
    group = fake.group(-1081, "Learners")
    ann_user = fake.user(81, "Ann")
    ann = th.Member(fake, group, ann_user)
    quiz = tiny(tmp_path)
    settings = th.settings_for(fake, tmp_path)
    private = fake.private(ann_user)
    me = th.Member(fake, private, ann_user)
    async with th.running_bot(fake, settings, clock):
        await ann.says("/quiz tiny")
        for number in (1, 2, 3):  # Ann misses the first two
            q = await th.next_question(fake, group, number)
            await ann.presses(q, th.wrong_letter(q, quiz) if number < 3 else th.right_letter(q, quiz))
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline
            await th.reveal_of(fake, group, q)
        await podium_of(fake, group)
        assert "2 cards are due (2 in your deck)" in (await me.says("/review")).text
        clock.advance(1)
        first = await review_card(fake, private)
    async with th.running_bot(fake, settings, clock):  # a deploy: the process is a new one
        letter = th.right_letter(first, quiz)
        assert (await me.presses(first, letter)).text == f"Locked in: {letter}"
        reveal = await th.reveal_of(fake, private, first)
        assert "it comes back in 1 day" in reveal.text
        second = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(private) if m.text.startswith("Question 2/2 · Review")), None),
            what="the second card",
        )
        await me.presses(second, th.wrong_letter(second, quiz))
        done = await fake.wait_for(lambda: next((m for m in fake.sent_to(private) if "Review done" in m.text), None))
        assert "1 of 2 right." in done.text
