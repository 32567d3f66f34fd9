"""Reviews and statistics on Discord end to end: the podium's button opens a DM review,
/quizstats refused to a member (real discord.py against the fake Discord)."""

from __future__ import annotations

from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)


async def test_discord_podium_button_starts_the_review_in_a_dm(fake, clock, server, tmp_path):
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with dh.running_bot(fake, dh.make_settings(tmp_path, fake), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        for number in (1, 2, 3):
            q = await fake.wait_message(channel, dh.is_question(number))
            wrong = number == 2
            await fake.press(ann, q.id, dh.button_id(q, dh.wrong_letter(q) if wrong else dh.right_letter(q)))
            await fake.press(bob, q.id, dh.button_id(q, dh.right_letter(q)))
            if number == 1:
                clock.advance(30)
            await fake.wait_for(lambda q=q: all(b.get("disabled") for b in fake.messages[q.id].buttons()))
        podium = await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
        (review_button,) = [b for b in podium.buttons() if b.get("label") == "Review my misses"]

        refused = await fake.slash(bob, channel, "quizstats", topic="tiny")
        assert refused["ephemeral"] and refused["content"] == "Only chat admins can see question statistics."

        told = await fake.press(ann, podium.id, review_button["custom_id"])
        assert told["ephemeral"] and told["content"] == "I sent you a direct message: your review is there."
        dm = fake.dm_channel(ann)
        intro = await fake.wait_message(dm, lambda m: "Review" in m.text)
        assert "1 card is due (1 in your deck)" in intro.text
        clock.advance(1)
        card = await fake.wait_message(
            dm, lambda m: bool(m.data["embeds"]) and "Review · Tiny Test Quiz" in m.data["embeds"][0]["title"]
        )
        assert dh.prompt_of(card) == "Which planet is the largest?"
        ack = await fake.press(ann, card.id, dh.button_id(card, dh.wrong_letter(card)))
        assert ack["ephemeral"] and ack["content"].startswith("Locked in")
        reveal = await fake.wait_message(dm, lambda m: "comes back at your next /review" in m.text)
        assert "Jupiter has more mass" in reveal.text
        await fake.wait_message(dm, lambda m: "Review done" in m.text)
    assert fake.violations == []
