"""Kinds of question in a Telegram private chat: select-all-that-apply ends at its Done button,
a typed answer is simply the next message; and a right-to-left quiz (Arabic, in an English
chat) reads right to left: its own lines start with RLM, the bot's words stay English."""

from __future__ import annotations

from bot.texts.bidi import RLM, strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

ARABIC = """\
id: arabic
language: ar
title: "اختبار قصير"
description: "سؤالان"
questions:
  - id: primes
    kind: multi
    prompt: "أي هذه الأعداد أولية؟"
    options: ["2", "4", "5"]
    answer: [0, 2]
    shuffle: false
    explanation: "العددان 2 و5 لا يقبلان القسمة إلا على 1 وعلى نفسيهما."
  - id: capital
    kind: typed
    prompt: "ما عاصمة مصر؟"
    accept: ["القاهرة", "Cairo"]
    explanation: "القاهرة عاصمة مصر."
"""


async def test_a_private_chat_ends_picks_at_done_and_takes_the_next_message_as_a_typed_answer(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "arabic.yaml").write_text(ARABIC, encoding="utf-8")
    dev = fake.user(61, "Dev")
    me = Member(fake, fake.private(dev), dev)
    async with running_bot(fake, settings, clock):
        await me.says("/quiz arabic")
        q1 = await next_question(fake, me.chat, 1)
        prompt_line = next(line for line in q1.text.splitlines() if "أولية" in line)
        assert prompt_line.startswith(RLM), "the quiz's own lines read right to left"
        assert q1.text.splitlines()[0].startswith("Question 1/2"), "the bot's words stay in the chat's language"
        done = next(b for b in q1.buttons() if strip(b["text"]) == "✅ Done")
        assert (await me.presses(q1, "A")).text.startswith("Your picks")
        assert (await me.presses(q1, "C")).text.startswith("Your picks")
        assert not q1.edits, "picking does not close a private question: Done does"
        await me.presses_data(q1.message_id, done["callback_data"])
        await reveal_of(fake, me.chat, q1)
        assert "Dev +" in q1.text

        q2 = await next_question(fake, me.chat, 2)
        assert [strip(b["text"]) for b in q2.buttons()] == ["✍️ Answer"]
        assert "Send your answer as a message" in q2.text, "in the private chat the next message is the answer"
        ack = await me.says("القاهره")  # a small typo, as typed on a phone
        assert ack.text.startswith("Locked in")
        await reveal_of(fake, me.chat, q2)
        assert "القاهرة" in q2.text and "Dev +" in q2.text
