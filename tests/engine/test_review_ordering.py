"""/review of a question put in order: a card missed in a group comes back in private, where
its letters place the options (a second press takes one back) and "Done" answers it, right only
when the whole order is."""

from __future__ import annotations

import asyncio

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.engine.core import EngineSettings
from bot.testing.fakes import group, make_quiz, player, private
from tests.support.house import build, house_of

ANN, BOB = player(1, "Ann"), player(2, "Bob")
ADMIN = Caller(group(), BOB, is_admin=True)
PLANETS = ["Mercury", "Venus", "Earth"]
QUIZ = b"""id: planets
title: Planets
description: Planets in order
questions:
  - id: outwards
    kind: ordering
    prompt: From the Sun outwards?
    options: [Mercury, Venus, Earth]
    explanation: Mercury is the closest planet to the Sun, then Venus, then Earth.
"""


def token(card, text: str) -> str:
    return next(o.token for o in card.options if o.text == text)


def letters(card, texts: list[str]) -> str:
    return " → ".join(next(o.letter for o in card.options if o.text == text) for text in texts)


async def test_a_missed_order_is_reviewed_with_presses_taken_back_and_done(store, clock, adapter):
    engine = build(
        Catalog.from_quizzes([make_quiz()]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    engine.attach(adapter)
    commands = house_of(engine).commands
    await commands.upload(ADMIN, "planets.yaml", QUIZ)
    await engine.start(group(), "planets", ANN)
    clock.advance(3)
    await engine.run_due()
    asked = adapter.questions[-1]
    for text in ("Venus", "Mercury"):  # two places of three wrong, the third never placed
        assert (await engine.answer(token(asked, text), ANN, group())).accepted
    clock.advance(30)
    await engine.run_due()
    clock.advance(5)
    await engine.run_due()
    assert [c.question_id for c in await store.review_deck(ANN.key)] == ["outwards"]

    assert (await commands.handle("review", "", Caller(private(), ANN))).text.startswith("1 card is due")
    await asyncio.sleep(0)  # the first card waits a second behind the reply
    clock.advance(1)
    await commands.review.settle()
    card = adapter.questions[-1]
    assert card.chat == private() and card.done_token is not None

    async def press(data: str) -> str:
        ack = await commands.press(data, Caller(private(), ANN))
        await commands.review.settle()
        return ack.text

    assert await press(token(card, "Earth")) == f"Your order: {letters(card, ['Earth'])} → …"
    assert await press(token(card, "Earth")) == "No option placed.", "a second press takes it back"
    for text in PLANETS:
        said = await press(token(card, text))
    assert said == f"Your order: {letters(card, PLANETS)}"
    assert await press(card.done_token) == f"Locked in: {letters(card, PLANETS)}"
    _, reveal = adapter.reveals[-1]
    assert reveal.right_letter == letters(card, PLANETS)
    assert reveal.note == "✅ Right: it comes back in 1 day."
    assert reveal.counts == (1, 1, 1), "each option in its right place"
