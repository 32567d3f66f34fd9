"""Directional controls in what players type, through the fake Bot API: a right-to-left override
(or any embedding, isolate or mark) in a typed answer or a name is dropped before it is kept, so
the reveal in the group, the stored answers and the names the boards show read as typed, with
no line of the bot's flipped."""

from __future__ import annotations

from bot.testing.fake_telegram import FakeBotApi
from bot.texts.bidi import CONTROLS
from storage.sqlite.store import SqliteStore
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

CAPITAL = """\
id: capital
title: Capital
description: One typed question
questions:
  - id: france
    kind: typed
    prompt: Capital of France?
    accept: [Paris]
"""
RLO, ALM = "\u202e", "\u061c"


def has_controls(text: str) -> bool:
    return any(ch in CONTROLS for ch in text)


async def test_an_override_in_a_typed_answer_or_a_name_reaches_no_reveal(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2201, "Club")
    fake.bot_deletes_in.add(group["id"])
    fake.expected_refusals.add("Bad Request: chat not found")  # the acks: neither opened a private chat
    ann = Member(fake, group, fake.user(2201, "Ann"))
    eve = Member(fake, group, fake.user(2202, f"Eve{RLO}", f"{ALM}X\u2066"))
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "capital.yaml").write_text(CAPITAL, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz capital")
        question = await next_question(fake, group, 1)
        await fake.reply_to_bot(group, ann.user, f"{RLO}nilreB and the rest", question.message_id)
        await fake.reply_to_bot(group, eve.user, f"Pa\u202bris{RLO}", question.message_id)
        await fake.wait_for(lambda: len(fake.deleted) >= 2, what="both answers taken (and removed)")
        clock.advance(31)
        reveal = await reveal_of(fake, group, question)
        assert not has_controls(reveal.text) and not has_controls(reveal.html)
        assert "• nilreb and the rest × 1" in reveal.text and "\nEve X +1000" in reveal.text
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    try:
        kept = await store.run_answers(1)
        assert sorted(a.response for a in kept) == ["Paris", "nilreB and the rest"]
        names = await store.player_names({"telegram:2201", "telegram:2202"})
        assert names == {"telegram:2201": "Ann", "telegram:2202": "Eve X"}
    finally:
        await store.close()
