"""/review of a chat's own quiz (the card names the chat, the chat's current upload is asked),
and an open review that a restart does not lose."""

from __future__ import annotations

import asyncio

from bot.commands.core import Caller, Commands
from bot.content.catalog import Catalog
from bot.domain.model import MessageRef
from bot.engine.core import EngineSettings
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player, private
from tests.support.house import build, house_of

ANN, BOB = player(1, "Ann"), player(2, "Bob")
ADMIN = Caller(group(), BOB, is_admin=True)


def capitals(
    france: str = "Capital of France?", options: str = "[{en: Berlin}, {en: Paris}]", answer: int = 1, peru: bool = True
) -> bytes:
    """A quizhost YAML quiz whose question ids stay when their text changes."""
    text = f"""id: capitals
title: {{en: Capitals}}
description: {{en: Capitals of the world}}
questions:
  - id: france
    prompt: {{en: "{france}"}}
    options: {options}
    answer: {answer}
    explanation: {{en: Paris it is.}}
"""
    if peru:
        text += """  - id: peru
    prompt: {en: Capital of Peru?}
    options: [{en: Lima}, {en: Quito}]
    answer: 0
    explanation: {en: Lima it is.}
"""
    return text.encode()


def letter(card, text: str) -> str:
    return next(o.letter for o in card.options if o.text == text)


def token(card, text: str) -> str:
    return next(o.token for o in card.options if o.text == text)


def make_commands(store, clock, adapter) -> Commands:
    engine = build(
        Catalog.from_quizzes([make_quiz()]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    engine.attach(adapter)
    return house_of(engine).commands


async def play(commands: Commands, adapter: RecordingAdapter, clock, topic: str, answers: list[str]) -> None:
    """Ann plays `topic` in the group, pressing the option of that text for each question ('' = none)."""
    engine = commands.engine
    await engine.start(group(), topic, ANN)
    clock.advance(3)
    await engine.run_due()
    for text in answers:
        if text:
            assert (await engine.answer(token(adapter.questions[-1], text), ANN)).accepted
        clock.advance(30)
        await engine.run_due()
        clock.advance(5)
        await engine.run_due()
    assert engine.run_in(group()) is None


async def review(commands: Commands, clock):
    reply = await commands.handle("review", "", Caller(private(), ANN))
    await asyncio.sleep(0)  # the first card waits a second behind the reply
    clock.advance(1)
    await commands.review.settle()
    return reply


async def press(commands: Commands, card, text: str):
    ack = await commands.press(token(card, text), Caller(private(), ANN))
    await commands.review.settle()
    return ack


async def test_a_missed_question_of_a_chat_quiz_comes_back_in_private(store, clock, adapter):
    commands = make_commands(store, clock, adapter)
    await commands.upload(ADMIN, "capitals.yaml", capitals())
    await play(commands, adapter, clock, "capitals", ["Berlin", "Lima"])
    assert [(c.quiz_chat, c.question_id) for c in await store.review_deck(ANN.key)] == [("test:g1", "france")]

    assert (await review(commands, clock)).text.startswith("1 card is due (1 in your deck).")
    card = adapter.questions[-1]
    assert (card.chat, card.quiz_title, card.prompt) == (private(), "Review · Capitals", "Capital of France?")
    assert (await press(commands, card, "Paris")).text == f"Locked in: {letter(card, 'Paris')}"
    _, reveal = adapter.reveals[-1]
    assert (reveal.explanation, reveal.note) == ("Paris it is.", "✅ Right: it comes back in 1 day.")
    assert adapter.sent[-1][1].title == "🔁 Review done"


async def test_a_replaced_chat_quiz_is_asked_as_it_is_now_and_a_gone_question_leaves(store, clock, adapter):
    commands = make_commands(store, clock, adapter)
    await commands.upload(ADMIN, "capitals.yaml", capitals())
    await play(commands, adapter, clock, "capitals", ["Berlin", "Quito"])
    assert len(await store.review_deck(ANN.key)) == 2
    new = capitals("Which city is the capital of France?", "[{en: Lyon}, {en: Nice}, {en: Paris}]", 2, peru=False)
    assert (await commands.upload(ADMIN, "capitals.yaml", new)).text.startswith("Replaced capitals")

    assert (await review(commands, clock)).text.startswith("1 card is due (1 in your deck).")
    card = adapter.questions[-1]
    assert card.prompt == "Which city is the capital of France?"
    assert sorted(o.text for o in card.options) == ["Lyon", "Nice", "Paris"]
    await press(commands, card, "Paris")
    assert adapter.reveals[-1][1].note == "✅ Right: it comes back in 1 day."
    assert [c.question_id for c in await store.review_deck(ANN.key)] == ["france"]


async def test_a_removed_chat_quiz_takes_its_cards_out_of_the_deck(store, clock, adapter):
    commands = make_commands(store, clock, adapter)
    await commands.upload(ADMIN, "capitals.yaml", capitals())
    await play(commands, adapter, clock, "capitals", ["Berlin", "Quito"])
    assert len(await store.review_deck(ANN.key)) == 2
    assert (await commands.handle("remove", "capitals", ADMIN)).text == "Removed capitals."
    reply = await review(commands, clock)
    assert reply.text == "Your review deck is empty. Questions you miss in a quiz land here."
    assert await store.review_deck(ANN.key) == []


async def test_a_press_after_a_restart_answers_the_card_and_the_review_goes_on(reopen, clock):
    store, adapter = await reopen(), RecordingAdapter()
    try:
        commands = make_commands(store, clock, adapter)
        await play(commands, adapter, clock, "demo", ["option 1.1", "", "option 3.0", "option 4.3"])
        assert (await review(commands, clock)).text.startswith("3 cards are due")
        first = adapter.questions[-1]
        assert (first.number, first.prompt) == (1, "Question 1?")
        await press(commands, first, "option 1.0")
        assert adapter.questions[-1].number == 2
    finally:
        await store.close()
    asked = adapter.questions[-1]  # the second card, posted before the restart, is still open

    store = await reopen()
    try:
        commands = make_commands(store, clock, adapter)  # a new process: nothing in memory
        ack = await press(commands, asked, "option 2.0")
        assert ack.accepted and ack.text == f"Locked in: {letter(asked, 'option 2.0')}"
        message, reveal = adapter.reveals[-1]
        assert message == MessageRef(private(), f"m{len(adapter.questions) - 1}")  # the card's own message
        assert reveal.card == asked and reveal.note == "❌ Not this time: it comes back at your next /review."
        third = adapter.questions[-1]
        assert (third.number, third.total, third.prompt) == (3, 3, "Question 3?")
        again = await commands.press(token(asked, "option 2.1"), Caller(private(), ANN))
        assert not again.accepted and again.text == "This question is closed."
        await press(commands, third, "option 3.2")
        _, done = adapter.sent[-1]
        assert done.title == "🔁 Review done" and done.text.startswith("2 of 3 right.")  # one before the restart
        assert await store.review_session(ANN.key) is None
    finally:
        await store.close()


async def test_a_new_review_replaces_the_open_one(engine, adapter, clock, quiz):
    commands = house_of(engine).commands
    await play(commands, adapter, clock, "demo", ["option 1.1", "option 2.0", "option 3.0", "option 4.0"])
    assert (await review(commands, clock)).text.startswith("4 cards are due")
    old = adapter.questions[-1]
    first = house_of(engine)
    restarted = build(first.catalog, first.store, clock)  # /review again, here or after a restart
    restarted.engine.attach(adapter)
    await review(restarted.commands, clock)
    ack = await restarted.commands.press(old.options[0].token, Caller(private(), ANN))
    assert not ack.accepted and ack.text == "This review has ended. Send /review to start again."
    assert len(await house_of(engine).store.review_deck(ANN.key)) == 4
