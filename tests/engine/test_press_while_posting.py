"""A press that comes before the bot has heard its question was posted: the message is in the
chat (the press proves it), the platform's answer to the post is still on its way. The press
counts, and the question's time runs from when it was shown, as for every other press."""

from __future__ import annotations

import asyncio

import pytest

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


@pytest.fixture
async def posting(engine, clock):
    """The first question is in the chat; the platform's reply saying so has not come back."""
    slow = SlowReplyAdapter()
    engine.attach(slow)
    await engine.start(group(), "demo", player(1))
    clock.advance(5)  # the pause before the first question
    sending = asyncio.create_task(engine.run_due())
    await asyncio.wait_for(slow.shown.wait(), 10)
    yield slow
    slow.reply.set()
    await sending


async def test_a_press_before_the_post_is_confirmed_counts(engine, clock, posting):
    press = asyncio.create_task(engine.answer(posting.token("A"), player(2), group()))
    await asyncio.sleep(0.05)
    assert not press.done(), "the press waits for the post's answer instead of being refused"
    posting.reply.set()
    ack = await asyncio.wait_for(press, 10)
    assert ack.accepted and ack.text == "Locked in: A"
    await engine.run_due()
    clock.advance(30)
    await engine.run_due()
    reveal = posting.reveals[-1][1]
    assert reveal.card.number == 1 and [a.name for a in reveal.answers] == [player(2).name]


async def test_a_press_on_a_post_never_confirmed_is_refused_after_a_moment(engine, posting):
    ack = await asyncio.wait_for(engine.answer(posting.token("A"), player(2), group()), 10)
    assert not ack.accepted and ack.text == "This question is closed."
