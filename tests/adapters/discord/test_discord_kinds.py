"""Every kind of question on Discord, end to end through discord.py and the fake Discord: the
shipped kinds tour in a channel (its picture in the embed, picks toggled, true/false, typed and
numeric answers through a modal, a poll), every answer acknowledged to its player alone; and a
select-all-that-apply question in a DM, closed by its "Done" button."""

from __future__ import annotations

import re

from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_modals import text_inputs
from bot.testing.fake_discord_payloads import FakeMessage, FakeUser
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    fake,
    is_question,
    letter_of,
    make_settings,
    running_bot,
    server,
)

QUIZ = Catalog.load(default_quiz_folders()).get("kinds-tour")


def texts(number: int) -> list[str]:
    return [o.get("en") for o in QUIZ.questions[number - 1].options]


async def pick(fake: FakeDiscord, who: FakeUser, message: FakeMessage, text: str) -> dict:
    shown = await fake.press(who, message.id, button_id(message, letter_of(message, text)))
    assert shown["ephemeral"], "every answer is acknowledged to its player alone"
    return shown


async def typed(fake: FakeDiscord, who: FakeUser, channel: int, message: FakeMessage, text: str) -> dict:
    """Press "Answer", type `text` into the modal it opens, submit it."""
    answer = next(b for b in message.buttons() if b["custom_id"].startswith("quizhost:qt:"))
    modal = await fake.press(who, message.id, answer["custom_id"])
    assert modal["type"] == 9 and modal["custom_id"] == answer["custom_id"]
    field = text_inputs(modal)[0]  # the one field: the answer
    shown = await fake.submit_modal(who, channel, modal, {field["label"]: text})
    assert shown["ephemeral"]
    return shown


async def test_a_channel_plays_one_question_of_each_kind(fake, clock, server, tmp_path):
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(ann, channel, "quiz", topic="kinds-tour")
        q1 = await fake.wait_message(channel, is_question(1))
        assert q1.data["attachments"][0]["filename"] == "pipeline-bubble.png"
        assert (await pick(fake, ann, q1, "3/7"))["content"].startswith("Locked in")
        await pick(fake, bob, q1, "1/4")
        clock.advance(30)
        revealed = await fake.wait_message(channel, lambda m: m.id == q1.id and "Right answer" in m.text)
        assert revealed.data["embeds"][0]["image"]["url"] == q1.data["attachments"][0]["url"], "the picture stays"
        assert fake.uploads == ["pipeline-bubble.png"], "the edit kept the attachment: not sent again"

        q2 = await fake.wait_message(channel, is_question(2))
        right = [texts(2)[i] for i in QUIZ.questions[1].answers]
        for text in right[:2]:
            ack = await pick(fake, ann, q2, text)
        assert ack["content"].startswith("Your picks:")
        await pick(fake, bob, q2, right[0])
        clock.advance(30)
        revealed = await fake.wait_message(channel, lambda m: m.id == q2.id and "Right answer" in m.text)
        assert re.search(r"Ann \+\d+", revealed.text), "two of three right: partial credit"

        q3 = await fake.wait_message(channel, is_question(3))
        assert [b["label"] for b in q3.buttons()] == ["A) True", "B) False"]
        await pick(fake, ann, q3, "True")
        await pick(fake, bob, q3, "False")

        q4 = await fake.wait_message(channel, is_question(4))
        assert [b["label"] for b in q4.buttons()] == ["✍️ Answer"]
        assert "Press Answer to type yours" in q4.text, "the card says the button opens a form"
        assert (await typed(fake, ann, channel, q4, "All-Reduce"))["content"].startswith("Locked in")
        assert "already" in (await typed(fake, ann, channel, q4, "broadcast"))["content"], "the first answer counts"
        await typed(fake, bob, channel, q4, "gather")
        revealed = await fake.wait_message(channel, lambda m: m.id == q4.id and "all-reduce" in m.text)
        assert re.search(r"Ann \+\d+", revealed.text) and "Bob +" not in revealed.text

        q5 = await fake.wait_message(channel, is_question(5))
        assert "Press Answer to type a number" in q5.text
        refused = await typed(fake, bob, channel, q5, "fourteen")
        assert "number" in refused["content"], "not a number: refused, Bob may try again"
        await typed(fake, bob, channel, q5, "14.2")
        await typed(fake, ann, channel, q5, "28")
        revealed = await fake.wait_message(channel, lambda m: m.id == q5.id and "14 ± 0.5" in m.text)
        assert re.search(r"Bob \+\d+", revealed.text) and "Ann +" not in revealed.text

        q6 = await fake.wait_message(channel, is_question(6))
        await pick(fake, ann, q6, "Tensor parallelism")
        await pick(fake, bob, q6, "Tensor parallelism")
        revealed = await fake.wait_message(
            channel, lambda m: m.id == q6.id and "Right answer" not in m.text and m.data["components"] == []
        )
        assert re.search(r"2 ▓{10}", revealed.text), "the poll's split, no right answer"
    assert fake.violations == []


async def test_a_dm_closes_select_all_that_apply_at_done(fake, clock, server, tmp_path):
    cy = fake.add_user("Cy")
    dm = fake.dm_channel(cy)
    settings = make_settings(tmp_path, fake, discord_guild_ids="")  # DMs see global commands only
    async with running_bot(fake, settings, clock):
        await fake.slash(cy, dm, "quiz", topic="kinds-tour")
        q1 = await fake.wait_message(dm, is_question(1))
        await pick(fake, cy, q1, "3/7")
        q2 = await fake.wait_message(dm, is_question(2))
        done = next(b for b in q2.buttons() if b["custom_id"].startswith("quizhost:qd:"))
        assert done["label"] == "✅ Done"
        for i in QUIZ.questions[1].answers:
            await pick(fake, cy, q2, texts(2)[i])
        closed = await fake.press(cy, q2.id, done["custom_id"])
        assert closed["ephemeral"]
        revealed = await fake.wait_message(dm, lambda m: m.id == q2.id and "Right answer" in m.text)
        assert re.search(r"Cy \+\d+", revealed.text)
        await fake.slash(cy, dm, "stop")
    assert fake.violations == []
