"""Reviews and statistics on Telegram end to end: the podium's deep link, a review in the private
chat, /quizstats refused to a member (real PTB against the fake Bot API)."""

from __future__ import annotations

from bot.testing.fake_telegram import FakeBotApi
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th


def review_card(fake: FakeBotApi, chat: dict):
    return fake.wait_for(
        lambda: next(
            (m for m in fake.sent_to(chat) if any(b.get("callback_data", "").startswith("rv:") for b in m.buttons())),
            None,
        ),
        what="a review card",
    )


async def test_telegram_podium_links_to_a_review_in_the_private_chat(fake, clock, tmp_path):
    group = fake.group(-1051, "Learners")
    ann_user = fake.user(51, "Ann")
    ann, bob = th.Member(fake, group, ann_user), th.Member(fake, group, fake.user(52, "Bob"))
    quiz = tiny(tmp_path)
    fake.make_admin(group, ann_user)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await ann.says("/quiz tiny")
        for number in (1, 2, 3):
            q = await th.next_question(fake, group, number)
            acks = [
                await ann.presses(q, th.wrong_letter(q, quiz) if number == 1 else th.right_letter(q, quiz)),
                await bob.presses(q, th.right_letter(q, quiz)),
            ]
            assert all(ack.text.startswith("Locked in") for ack in acks), [ack.text for ack in acks]
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline
            await th.reveal_of(fake, group, q)
        podium = await podium_of(fake, group)
        links = [b for b in podium.buttons() if "url" in b]
        assert links == [{"text": "Review my misses", "url": f"https://t.me/{fake.username}?start=review"}]

        refused = await bob.says("/quizstats tiny")
        assert refused.text == "Only chat admins can see question statistics."
        stats = await ann.says("/quizstats tiny")
        assert "2 answers · 50% right" in stats.text and "2 answers · 100% right" in stats.text
        board_before = (await bob.says("/leaderboard")).text

        private = fake.private(ann_user)
        me = th.Member(fake, private, ann_user)
        intro = await me.says("/start review")  # what the deep link sends
        assert "1 card is due (1 in your deck)" in intro.text
        clock.advance(1)
        card = await review_card(fake, private)
        assert card.text.startswith("Question 1/1 · Review · Tiny <Quiz> & Co") and "No time limit" in card.text
        letter = th.right_letter(card, quiz)
        ack = await me.presses(card, letter)
        assert ack.text == f"Locked in: {letter}"
        reveal = await th.reveal_of(fake, private, card)
        assert "Right answer" in reveal.text and "it comes back in 1 day" in reveal.text
        done = await fake.wait_for(lambda: next((m for m in fake.sent_to(private) if "Review done" in m.text), None))
        assert "1 of 1 right." in done.text and "1 card is left in your deck" in done.text
        assert (await bob.says("/leaderboard")).text == board_before  # the review changed no board


async def test_stop_in_the_private_chat_ends_a_review_and_the_rest_stays_due(fake, clock, tmp_path):
    group = fake.group(-1052, "Learners")
    ann_user = fake.user(53, "Ann")
    ann, bob = th.Member(fake, group, ann_user), th.Member(fake, group, fake.user(54, "Bob"))
    quiz = tiny(tmp_path)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await ann.says("/quiz tiny")
        for number in (1, 2, 3):
            q = await th.next_question(fake, group, number)
            await ann.presses(q, th.wrong_letter(q, quiz) if number < 3 else th.right_letter(q, quiz))
            await bob.presses(q, th.right_letter(q, quiz))
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline
            await th.reveal_of(fake, group, q)
        await podium_of(fake, group)

        private = fake.private(ann_user)
        me = th.Member(fake, private, ann_user)
        assert "2 cards are due (2 in your deck)" in (await me.says("/review")).text
        clock.advance(1)
        card = await review_card(fake, private)
        await me.presses(card, th.right_letter(card, quiz))
        await th.reveal_of(fake, private, card)
        second = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(private) if m.text.startswith("Question 2/2 · Review")), None),
            what="the second card",
        )
        stopped = await me.says("/stop")
        assert stopped.text.splitlines() == [
            "⏹ Review stopped",
            "",
            "1 of 1 right.",
            "The cards you did not get to stay due: /review asks them again.",
        ]
        late = await me.presses(second, th.right_letter(second, quiz))
        assert late.text == "This review has ended. Send /review to start again."
        again = await me.says("/review")
        assert "1 card is due (2 in your deck)" in again.text
        assert "No quiz is running here" in (await ann.says("/stop")).text, "the group had no review to stop"
