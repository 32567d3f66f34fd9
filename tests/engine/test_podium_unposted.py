"""A podium's "n/N right" counts the questions its players were shown: a run stopped while its
next question still waited to be posted did not ask that one (as the run report says)."""

from __future__ import annotations

from bot.commands.core import Caller
from bot.testing.fakes import group, player
from tests.support.house import house_of


async def test_a_run_stopped_before_its_next_question_was_posted_did_not_ask_it(engine, adapter, clock, quiz):
    chat, ann = group(), player(1, "Ann")
    await engine.start(chat, quiz.id, ann)
    clock.advance(3)
    await engine.run_due()
    card = adapter.questions[-1]
    assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), ann, chat)).accepted
    clock.advance(31)
    await engine.run_due()  # the first question revealed
    adapter.fail_posts = 100  # the platform takes no post: the second question waits to be posted
    clock.advance(6)
    await engine.run_due()
    assert len(adapter.questions) == 1, "the second question was never shown"
    reply = await house_of(engine).commands.handle("stop", "", Caller(chat, ann, is_admin=True))
    assert "stopped" in reply.text
    podium = next(r.text for c, r in reversed(adapter.sent) if "Ann" in r.text and "right" in r.text)
    assert "1/1 right · 100%" in podium, podium
