"""A press that comes before the bot has heard its question was posted: the message is in the
chat (the press proves it), the platform's answer to the post is still on its way. The press
counts, and the question's time runs from when it was shown, as for every other press."""

from __future__ import annotations

import asyncio

from bot.domain.model import MessageRef, QuestionCard
from bot.testing.fakes import RecordingAdapter, group, player


class SlowReplyAdapter(RecordingAdapter):
    """Shows the question at once; the reply saying so reaches the bot when the test lets it."""

    def __init__(self) -> None:
        super().__init__()
        self.reply = asyncio.Event()
        self.shown = asyncio.Event()

    async def post_question(self, card: QuestionCard) -> MessageRef:
        ref = await super().post_question(card)
        self.shown.set()
        await self.reply.wait()
        return ref


async def test_a_press_before_the_post_is_confirmed_counts(engine, clock):
    slow = SlowReplyAdapter()
    engine.attach(slow)
    await engine.start(group(), "demo", player(1))
    clock.advance(5)  # the pause before the first question
    sending = asyncio.create_task(engine.run_due())
    await asyncio.wait_for(slow.shown.wait(), 10)
    press = asyncio.create_task(engine.answer(slow.token("A"), player(2), group()))
    await asyncio.sleep(0.05)
    assert not press.done(), "the press waits for the post's answer instead of being refused"
    slow.reply.set()
    ack = await asyncio.wait_for(press, 10)
    await sending
    assert ack.accepted and ack.text == "Locked in: A"
    clock.advance(30)
    await engine.run_due()
    reveal = slow.reveals[-1][1]
    assert reveal.card.number == 1 and [a.name for a in reveal.answers] == [player(2).name]


async def test_a_press_on_a_post_never_confirmed_is_refused_after_a_moment(engine, clock):
    slow = SlowReplyAdapter()
    engine.attach(slow)
    await engine.start(group(), "demo", player(1))
    clock.advance(5)  # the pause before the first question
    sending = asyncio.create_task(engine.run_due())
    await asyncio.wait_for(slow.shown.wait(), 10)
    ack = await asyncio.wait_for(engine.answer(slow.token("A"), player(2), group()), 10)
    assert not ack.accepted and ack.text == "This question is closed."
    slow.reply.set()
    await sending
