"""Members suggest questions to a Telegram group, its admins decide (issue #23), end to end
against the fake Bot API: in the group (a line, a reply to a poll), in private through the
group's link; the limits; an edit, an approval into a named quiz, a rejection; members told."""

from __future__ import annotations

import asyncio

from bot.testing.fake_telegram import FakeBotApi, Sent
from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_authoring import answer_in, link_of, sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, running_bot, settings_for

RINGS = "Which planet has rings? | Mars | *Saturn"
HIDDEN = {
    k: v for k, v in poll_json("What is a comet?", ["Ice and dust", "A star"], 0).items() if k != "correct_option_ids"
}
MOON = poll_json("Which moon has lakes of methane?", ["Titan", "Io", "Europa"], 0, "Saturn's largest moon.")


def last_to(fake: FakeBotApi, chat: dict) -> Sent:
    return fake.sent_to(chat)[-1]


async def test_suggestions_are_queued_limited_edited_approved_and_rejected(fake, clock, tmp_path):
    group = fake.group(-4001, "Astronomy club")
    ann, bob, cy = (Member(fake, group, fake.user(400 + i, name)) for i, name in enumerate(("Ann", "Bob", "Cy"), 1))
    fake.make_admin(group, ann.user)
    bob_private, cy_private = (Member(fake, fake.private(m.user), m.user) for m in (bob, cy))
    settings = settings_for(fake, tmp_path, quizhost_suggestions_per_day=2)
    async with running_bot(fake, settings, clock):
        queued = await bob.says(f"/suggest {RINGS}")
        assert queued.text == "Thanks! Your question is suggestion #1: the group's admins will decide."
        poll_message = await fake.send_poll(group, cy.user, HIDDEN)
        seen = {m.message_id for m in fake.sent_to(group)}
        hidden = await fake.reply_text(group, cy.user, "/suggest", poll_message)
        refused = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(group) if m.reply_to == hidden and m.message_id not in seen), None)
        )
        assert refused.text.startswith("Telegram hides this quiz poll's right answer from me")

        how = await cy.says("/suggest")
        private_link = link_of(how, "Suggest privately")
        assert private_link == "https://t.me/QuizHostBot?start=sg_-4001"
        asked = await answer_in(cy_private, fake.open_link(private_link, cy.user))
        assert asked.text.startswith("Send me the quiz poll you suggest to the group")
        thanks = await sends_poll(cy_private, MOON)
        assert thanks.text == "Thanks! Your question is suggestion #2: the group's admins will decide."

        assert (await bob.says("/suggest Second? | *a | b")).text.endswith(
            "suggestion #3: the group's admins will decide."
        )
        over = await bob.says("/suggest Third? | *a | b")
        assert (
            over.text
            == "You suggested 2 questions to this group in the last 24 hours, the most allowed: try again tomorrow."
        )

        assert (await bob.says("/suggestions")).text == "Only chat admins can decide on suggestions."
        listing = await ann.says("/suggestions")
        assert listing.text.startswith("3 suggestions are waiting:")
        assert "#1 · Bob: Which planet has rings?" in listing.text and "✓ Saturn" in listing.text
        assert "#2 · Cy: Which moon has lakes of methane?" in listing.text

        edited = await ann.says("/suggestions edit 1 Which planet has the brightest rings? | Mars | *Saturn | Uranus")
        assert edited.text == "Suggestion #1 edited: Which planet has the brightest rings?"
        approved = await ann.says("/suggestions approve 1 planets")
        assert approved.text == "Approved #1 by Bob into “Planets” (1 question). /quiz planets plays it."
        told = await fake.wait_for(
            lambda: "was approved" in last_to(fake, bob_private.chat).text and last_to(fake, bob_private.chat)
        )
        assert (
            told.text == "Your suggested question “Which planet has the brightest rings?” was approved into “Planets”."
        )

        reject = next(b for b in listing.buttons() if b["text"] == "Reject #2")
        assert (
            await bob.presses_data(listing.message_id, reject["callback_data"])
        ).text == "Only chat admins can decide on suggestions."
        rejected = await answer_in(ann, ann.presses_data(listing.message_id, reject["callback_data"]))
        assert rejected.text == "Rejected #2 by Cy."
        assert (
            await fake.wait_for(
                lambda: "not taken" in last_to(fake, cy_private.chat).text and last_to(fake, cy_private.chat)
            )
        ).text == ("Your suggested question “Which moon has lakes of methane?” was not taken.")

        again = await ann.says("/suggestions approve 1 planets")
        assert again.text == "No suggestion #1 is waiting. /suggestions lists them."
        assert "• Planets (planets): 1 question" in (await ann.says("/quizzes")).text
        left = await ann.says("/suggestions")
        assert left.text.startswith("1 suggestion is waiting:") and "#3 · Bob: Second?" in left.text


async def test_suggestions_sent_together_keep_to_the_limits(fake, clock, tmp_path):
    """Ten /suggest sent at once are handled together: each checked the member's count before any
    was queued, and all ten were. The limit holds however fast they come."""
    group = fake.group(-4003, "Quiz club")
    ann, bob = (Member(fake, group, fake.user(440 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path, quizhost_suggestions_per_day=2), clock):
        await ann.says("/suggestions")
        before = len(fake.sent_to(group))
        for n in range(10):
            await fake.send_text(group, bob.user, f"/suggest Question {n}? | *a | b")
        await fake.wait_for(lambda: len(fake.sent_to(group)) >= before + 10, what="ten answers")
        answers = [m.text for m in fake.sent_to(group)[before:]]
        assert sum(a.startswith("Thanks! Your question is suggestion #") for a in answers) == 2
        assert sum(a.startswith("You suggested 2 questions to this group in the last 24 hours") for a in answers) == 8
        assert (await ann.says("/suggestions")).text.startswith("2 suggestions are waiting:")


async def test_approvals_pressed_together_all_reach_the_quiz(fake, clock, tmp_path):
    """An admin taps Approve under four suggestions in a row, quicker than the bot answers: each
    approval adds its question to the group's quiz; none is marked approved and lost."""
    group = fake.group(-4004, "Trivia club")
    ann, bob = (Member(fake, group, fake.user(450 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    fake.make_admin(group, ann.user)
    fake.private(bob.user)  # Bob is told of each approval there
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        for n in range(1, 5):
            await bob.says(f"/suggest Question {n}? | *a | b")
        listing = await ann.says("/suggestions")
        approves = [b["callback_data"] for b in listing.buttons() if b["text"].startswith("Approve")]
        await asyncio.gather(*(ann.presses_data(listing.message_id, data) for data in approves))
        said = await fake.wait_for(
            lambda: (
                (done := [m.text for m in fake.sent_to(group) if m.text.startswith("Approved #")])
                and len(done) == 4
                and done
            )
        )
        assert sorted(text.partition(" by Bob into “Suggested” (")[2][0] for text in said) == ["1", "2", "3", "4"]
        assert "• Suggested (suggested): 4 questions" in (await ann.says("/quizzes")).text
