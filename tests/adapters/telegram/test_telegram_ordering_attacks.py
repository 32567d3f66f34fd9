"""Forged and stale presses on a question put in order in a Telegram group, sent as a client
could send them through the fake Bot API: an option beyond the list, a negative one, a "Done" a
group's card never has, a press replayed once the order is final, a press copied into another
chat or sent for another run, and a press after the question closed. None changes an order."""

from __future__ import annotations

from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_ordering import PLANETS, QUIZ, letters
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for


def run_and_number(data: str) -> tuple[str, str]:
    _, run_id, number, _ = data.split(":")
    return run_id, number


async def test_forged_and_stale_presses_leave_a_group_order_alone(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    dev, eve = fake.user(71, "Dev"), fake.user(72, "Eve")
    room, other_room = fake.group(-1071, "Order fans"), fake.group(-1072, "Elsewhere")
    me, eve_here, eve_there = Member(fake, room, dev), Member(fake, room, eve), Member(fake, other_room, eve)
    async with running_bot(fake, settings, clock):
        await me.says("/quiz order")
        q1 = await next_question(fake, room, 1)
        assert not any(strip(b["text"]) == "✅ Done" for b in q1.buttons()), "a group's card has no Done"
        letter = letters(q1.text)
        run_id, number = run_and_number(q1.buttons()[0]["callback_data"])
        first = letter["Mercury"]
        assert (await me.presses(q1, first)).text == f"Your order: {first} → …"

        done = await me.presses_data(q1.message_id, f"qd:{run_id}:{number}")
        assert done.text == "This question is not answered that way.", "a forged Done: the order stays open"
        beyond = await me.presses_data(q1.message_id, f"qa:{run_id}:{number}:7")
        negative = await me.presses_data(q1.message_id, f"qa:{run_id}:{number}:-1")
        other_run = await me.presses_data(q1.message_id, f"qa:{int(run_id) + 1}:{number}:0")
        later_question = await me.presses_data(q1.message_id, f"qa:{run_id}:{int(number) + 1}:0")
        copied = await eve_there.presses_data(q1.message_id, q1.buttons()[0]["callback_data"])
        for ack in (beyond, negative, other_run, later_question, copied):
            assert not (ack.text or "").startswith("Your order"), ack.text

        for text in PLANETS[1:]:
            said = (await me.presses(q1, letter[text])).text
        right = " → ".join(letter[p] for p in PLANETS)
        assert said == f"Your answer: {right}", "complete in a group: final"
        replayed = await me.presses(q1, first)
        assert "already answered" in (replayed.text or ""), replayed.text
        assert (await eve_here.presses(q1, first)).text == f"Your order: {first} → …"

        clock.advance(31)  # a group's first question waits for its deadline
        await reveal_of(fake, room, q1)
        after = await eve_here.presses_data(q1.message_id, f"qa:{run_id}:{number}:1")
        assert "closed" in (after.text or "") or "ended" in (after.text or ""), after.text
        assert f"Right order: {right}" in q1.text
        assert "Dev +" in q1.text, "Dev's order counted once, untouched by the forged presses"


async def test_done_in_private_with_nothing_placed_is_refused_and_a_partial_order_scores_as_placed(
    fake, clock, tmp_path
):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "order.yaml").write_text(QUIZ, encoding="utf-8")
    dev = fake.user(73, "Dev")
    me = Member(fake, fake.private(dev), dev)
    async with running_bot(fake, settings, clock):
        await me.says("/quiz order")
        q1 = await next_question(fake, me.chat, 1)
        letter = letters(q1.text)
        done = next(b for b in q1.buttons() if strip(b["text"]) == "✅ Done")
        assert (await me.presses_data(q1.message_id, done["callback_data"])).text == "Pick at least one option first."
        await me.presses(q1, letter["Mercury"])
        assert (await me.presses(q1, letter["Mercury"])).text == "No option placed."
        nothing = await me.presses_data(q1.message_id, done["callback_data"])
        assert nothing.text == "Pick at least one option first.", "an order taken back to nothing is no answer"
        await me.presses(q1, letter["Mercury"])
        assert (await me.presses_data(q1.message_id, done["callback_data"])).text == f"Your answer: {letter['Mercury']}"
        await reveal_of(fake, me.chat, q1)
        again = await me.presses_data(q1.message_id, done["callback_data"])
        assert again.text == "This quiz has ended.", "a replayed Done: Done closed the one question"
        assert "Nobody got it right." in q1.text, "one place of four, scored all or nothing"
