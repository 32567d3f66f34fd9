"""A group's question put in order across a restart of the bot, through the fake Bot API: the
order placed before the restart is resumed from the database, the next press goes on from it,
and the order completed after the restart is final and scored."""

from __future__ import annotations

from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_ordering import PLANETS, QUIZ, letters
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for


async def test_a_partial_order_survives_a_restart(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    room = fake.group(-1081, "Order fans")
    me = Member(fake, room, fake.user(81, "Dev"))
    async with running_bot(fake, settings, clock):
        await me.says("/quiz order")
        q1 = await next_question(fake, room, 1)
        letter = letters(q1.text)
        for text in PLANETS[:2]:
            said = (await me.presses(q1, letter[text])).text
        assert said == f"Your order: {letter['Mercury']} → {letter['Venus']} → …"
    async with running_bot(fake, settings, clock):  # the run resumed from the store
        said = (await me.presses(q1, letter["Earth"])).text
        placed = " → ".join(letter[p] for p in PLANETS[:3])
        assert said == f"Your order: {placed} → …", "the next press goes on from the order stored"
        said = (await me.presses(q1, letter["Venus"])).text  # taken back: Earth moves up
        assert said == f"Your order: {letter['Mercury']} → {letter['Earth']} → …"
        for text in ("Venus", "Mars"):
            said = (await me.presses(q1, letter[text])).text
        assert said == f"Your answer: {letter['Mercury']} → {letter['Earth']} → {letter['Venus']} → {letter['Mars']}"
        clock.advance(31)
        await reveal_of(fake, room, q1)
        assert "Nobody got it right." in q1.text, "two places of four right, scored all or nothing"
