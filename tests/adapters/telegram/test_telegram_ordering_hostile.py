"""Hostile text in a question put in order, through the fake Bot API: an option with a
right-to-left override (U+202E) cannot reorder the options after it in the answer key an
uploader checks, nor in the reveal; an option that starts like a formula is shown as text."""

from __future__ import annotations

from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_uploads import sends_file
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

RLO = "\u202e"
QUIZ = f"""\
id: hostile
title: Hostile order
description: Options that try to reorder the others
questions:
  - id: steps
    kind: ordering
    prompt: In order?
    options: ["first", "{RLO}second", "third", "=HYPERLINK(\\"http://x\\",\\"y\\")"]
""".encode()


async def test_an_override_in_one_option_cannot_reorder_the_answer_key(fake, clock, tmp_path):
    user = fake.user(301, "Dev")
    me = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(me, "hostile.yaml", QUIZ)
        key = next(line for line in reply.text.splitlines() if line.startswith("1. "))
        assert RLO not in key, "an override would show third and the formula reversed, before second"
        assert strip(key) == '1. In order?: first → second → third → =HYPERLINK("http://x","y")'
        await me.says("/quiz hostile")
        q1 = await next_question(fake, me.chat, 1)
        done = next(b for b in q1.buttons() if strip(b["text"]) == "✅ Done")
        await me.presses(q1, strip(q1.buttons()[0]["text"])[0])
        await me.presses_data(q1.message_id, done["callback_data"])
        await reveal_of(fake, me.chat, q1)
        right = next(line for line in q1.text.splitlines() if "Right order" in line)
        assert RLO not in right
