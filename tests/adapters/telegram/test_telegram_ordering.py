"""A question put in order in a Telegram private chat, end to end through python-telegram-bot
and the fake Bot API: each press places the next option, a second press takes it back, the
order complete still waits for Done, and Done closes the question into its reveal."""

from __future__ import annotations

import re

from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

PLANETS = ["Mercury", "Venus", "Earth", "Mars"]
QUIZ = """\
id: order
title: In order
description: Planets put in order
questions:
  - id: planets
    kind: ordering
    prompt: From the Sun outwards?
    options: [Mercury, Venus, Earth, Mars]
    explanation: Mercury is the closest planet to the Sun; Mars is the fourth.
"""
OPTION = re.compile(r"^([A-J])\) (.*)$")


def letters(text: str) -> dict[str, str]:
    """Option text -> its letter, as the question lists them."""
    return {m.group(2): m.group(1) for line in strip(text).splitlines() if (m := OPTION.match(line))}


async def test_a_private_chat_places_takes_back_and_submits_at_done(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    dev = fake.user(62, "Dev")
    me = Member(fake, fake.private(dev), dev)
    async with running_bot(fake, settings, clock):
        await me.says("/quiz order")
        q1 = await next_question(fake, me.chat, 1)
        letter = letters(q1.text)
        right = " → ".join(letter[p] for p in PLANETS)
        done = next(b for b in q1.buttons() if strip(b["text"]) == "✅ Done")
        assert (await me.presses(q1, letter["Venus"])).text == f"Your order: {letter['Venus']} → …"
        assert (await me.presses(q1, letter["Venus"])).text == "No option placed.", "a second press takes it back"
        for text in PLANETS:
            said = (await me.presses(q1, letter[text])).text
        assert said == f"Your order: {right}"
        assert not q1.edits, "a complete order in a private chat waits for Done"
        ack = await me.presses_data(q1.message_id, done["callback_data"])
        assert ack.text == f"Your answer: {right}"
        await reveal_of(fake, me.chat, q1)
        assert f"Right order: {right}" in q1.text and "Dev +" in q1.text
        assert "1. " + letter["Mercury"] + ") Mercury" in strip(q1.text), "each option marked with its place"
