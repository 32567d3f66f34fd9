"""Questions put in order on Discord, end to end through discord.py and the fake Discord: in a
channel each press places the next option (acknowledged to its player alone, the order so far
shown), an order is final once complete, and an order left incomplete at the deadline scores
its places right; in a DM a second press takes an option back and Done submits the order."""

from __future__ import annotations

import re

from bot.testing.fake_discord import FakeDiscord
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

PLANETS = ["Mercury", "Venus", "Earth", "Mars"]
QUIZ = f"""\
id: order
title: In order
description: Planets put in order
questions:
  - id: planets
    kind: ordering
    scoring: partial
    prompt: From the Sun outwards?
    options: [{", ".join(PLANETS)}]
    explanation: Mercury is the closest planet to the Sun; Mars is the fourth.
"""


async def place(fake: FakeDiscord, who: FakeUser, message: FakeMessage, text: str) -> str:
    shown = await fake.press(who, message.id, button_id(message, letter_of(message, text)))
    assert shown["ephemeral"], "every press is acknowledged to its player alone"
    return str(shown["content"])


def order(message: FakeMessage, texts: list[str]) -> str:
    return " → ".join(letter_of(message, text) for text in texts)


async def test_a_channel_places_options_in_order_and_scores_the_places_right(fake, clock, server, tmp_path):
    _, channel = server
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="order")
        q1 = await fake.wait_message(channel, is_question(1))
        assert "Put these in order" in q1.text
        right = order(q1, PLANETS)  # the letters as shown, before the reveal marks each option's place
        assert not any("Done" in str(b.get("label", "")) for b in q1.buttons()), "a channel has no Done"
        assert await place(fake, ann, q1, "Mercury") == f"Your order: {order(q1, ['Mercury'])} → …"
        for text in PLANETS[1:]:
            said = await place(fake, ann, q1, text)
        assert said == f"Your answer: {right}", "every option placed: final"
        await place(fake, bob, q1, "Mercury")
        await place(fake, bob, q1, "Earth")
        clock.advance(30)  # Bob's order is incomplete at the deadline: his places right count
        revealed = await fake.wait_message(channel, lambda m: m.id == q1.id and "Right order" in m.text)
        assert f"Right order: {right}" in revealed.text
        assert "Mercury is the closest planet" in revealed.text
        ann_points = int(re.search(r"Ann \+(\d+)", revealed.text).group(1))
        bob_points = int(re.search(r"Bob \+(\d+)", revealed.text).group(1))
        assert bob_points < ann_points, "one place of four: a share of the points"
        await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
    assert fake.violations == []


async def test_a_dm_takes_a_press_back_and_submits_at_done(fake, clock, server, tmp_path):
    cy = fake.add_user("Cy")
    dm = fake.dm_channel(cy)
    settings = make_settings(tmp_path, fake, discord_guild_ids="")  # DMs see global commands only
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await fake.slash(cy, dm, "quiz", topic="order")
        q1 = await fake.wait_message(dm, is_question(1))
        right = order(q1, PLANETS)
        done = next(b for b in q1.buttons() if b["custom_id"].startswith("quizhost:qd:"))
        assert done["label"] == "✅ Done"
        await place(fake, cy, q1, "Venus")
        assert await place(fake, cy, q1, "Venus") == "No option placed.", "a second press takes it back"
        for text in PLANETS:
            said = await place(fake, cy, q1, text)
        assert said == f"Your order: {right}", "complete, but a DM waits for Done"
        closed = await fake.press(cy, q1.id, done["custom_id"])
        assert closed["ephemeral"] and closed["content"] == f"Your answer: {right}"
        revealed = await fake.wait_message(dm, lambda m: m.id == q1.id and "Right order" in m.text)
        assert re.search(r"Cy \+\d+", revealed.text)
    assert fake.violations == []
