"""Pictures on Discord: the question's embed shows its picture, a file beside the quiz sent as
the message's attachment (`attachment://name`), a URL as the embed's image; at the reveal an
explanation's picture takes the question's place (its file replacing the attachment). The
reveal that keeps the question's picture, file not sent again: tests/adapters/discord/test_discord_kinds.py."""

from __future__ import annotations

import shutil

from bot.content.catalog import default_quiz_folders
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    fake,
    is_question,
    make_settings,
    running_bot,
    server,
)

PICTURE = default_quiz_folders()[0] / "kinds-tour" / "pipeline-bubble.png"
PICTURES = """\
id: pictures
title: Pictures
description: Questions with pictures
questions:
  - id: local
    prompt: How many slots are idle?
    media: {src: "pics/bubble schedule.png", alt: "A schedule of 4 GPUs"}
    options: ["12", "16"]
    answer: 0
    shuffle: false
    explanation: 4 × 7 = 28 slots, 16 busy.
    explanation_media: {src: pics/why.png, alt: "The idle cells counted"}
  - id: remote
    prompt: And this one?
    media: https://example.org/chart.png
    options: ["yes", "no"]
    answer: 0
    shuffle: false
    explanation: See the chart.
    explanation_media: https://example.org/why.png
"""


async def test_the_embed_shows_the_picture_and_the_reveal_shows_the_explanations(fake, clock, server, tmp_path):
    _, channel = server
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "pics").mkdir()
    shutil.copy(PICTURE, tmp_path / "quizzes" / "pics" / "bubble schedule.png")
    shutil.copy(PICTURE, tmp_path / "quizzes" / "pics" / "why.png")
    (tmp_path / "quizzes" / "pictures.yaml").write_text(PICTURES, encoding="utf-8")
    ann = fake.add_user("Ann")
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="pictures")
        q1 = await fake.wait_message(channel, is_question(1))
        attachment = q1.data["attachments"][0]
        assert attachment["filename"] == "bubble_schedule.png" and attachment["size"] == PICTURE.stat().st_size
        embed = q1.data["embeds"][0]
        assert embed["image"]["url"] == attachment["url"], "the embed shows the attached file"
        assert embed["footer"]["text"] == "A schedule of 4 GPUs"
        await fake.press(ann, q1.id, button_id(q1, "A"))
        clock.advance(30)
        revealed = await fake.wait_message(channel, lambda m: m.id == q1.id and "Right answer" in m.text)
        (why,) = revealed.data["attachments"]  # the explanation's picture took the question's place
        assert why["filename"] == "why.png" and revealed.data["embeds"][0]["image"]["url"] == why["url"]
        assert revealed.data["embeds"][0]["footer"]["text"] == "The idle cells counted"

        q2 = await fake.wait_message(channel, is_question(2))
        assert q2.data["embeds"][0]["image"]["url"] == "https://example.org/chart.png"
        assert q2.data["attachments"] == []
        await fake.press(ann, q2.id, button_id(q2, "A"))
        revealed = await fake.wait_message(channel, lambda m: m.id == q2.id and "Right answer" in m.text)
        assert revealed.data["embeds"][0]["image"]["url"] == "https://example.org/why.png"
        await fake.slash(ann, channel, "stop")
    assert fake.uploads == ["bubble_schedule.png", "why.png"], "each file went once"
    assert fake.violations == []
