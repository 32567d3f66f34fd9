"""/review: a group's misses come back in the private chat, spaced by FSRS, and never
touch a leaderboard."""

import asyncio

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.deck import DAY, CardState
from bot.domain.model import Ack
from bot.testing.fakes import group, make_quiz, player, private
from tests.support.house import build, house_of

ANN = player(1, "Ann")


async def group_run_with_misses(engine, adapter, quiz, clock):
    """Ann answers question 1 wrong, 2 right, lets 3 pass, answers 4 right; Bob answers all right."""
    chat, bob = group(), player(2, "Bob")
    await engine.start(chat, "demo", ANN)
    clock.advance(3)
    await engine.run_due()
    for number in range(1, 5):
        right, wrong = adapter.right_letter(quiz), adapter.wrong_letter(quiz)
        if number != 3:
            assert (await engine.answer(adapter.token(wrong if number == 1 else right), ANN)).accepted
        assert (await engine.answer(adapter.token(right), bob)).accepted
        clock.advance(30)
        await engine.run_due()
        clock.advance(5)
        await engine.run_due()
    return chat


async def review(commands, clock, chat=None):
    reply = await commands.handle("review", "", Caller(chat or private(), ANN))
    await asyncio.sleep(0)  # the review's first card waits a second behind its reply
    clock.advance(1)
    await commands.review.settle()
    return reply


async def press(commands, adapter, letter):
    ack = await commands.press(adapter.token(letter), Caller(private(), ANN))
    await commands.review.settle()
    return ack


async def test_misses_come_back_in_private_and_are_spaced_by_fsrs(engine, adapter, quiz, clock):
    chat = await group_run_with_misses(engine, adapter, quiz, clock)
    board_before, _ = await house_of(engine).standings.leaderboard(chat, "all", None)
    commands = house_of(engine).commands

    reply = await review(commands, clock)
    assert reply.text == "2 cards are due (2 in your deck). Answer as in a quiz; reviews change no leaderboard."
    card = adapter.questions[-1]
    assert (card.chat, card.number, card.total, card.prompt) == (private(), 1, 2, "Question 1?")
    assert card.quiz_title == "Review · Demo quiz" and card.seconds == 0

    ack = await press(commands, adapter, adapter.right_letter(quiz, card))
    assert isinstance(ack, Ack) and ack.accepted and ack.text.startswith("Locked in:")
    _, reveal = adapter.reveals[-1]
    assert reveal.explanation == "Because 1. It is so." and reveal.note == "✅ Right: it comes back in 1 day."
    again = await commands.press(card.options[0].token, Caller(private(), ANN))
    assert not again.accepted and again.text == "This question is closed."

    card = adapter.questions[-1]
    assert (card.number, card.prompt) == (2, "Question 3?")  # the one Ann let pass
    await press(commands, adapter, adapter.wrong_letter(quiz, card))
    assert adapter.reveals[-1][1].note == "❌ Not this time: it comes back at your next /review."
    _, done = adapter.sent[-1]
    assert done.title == "🔁 Review done" and done.text.startswith("1 of 2 right.\n2 cards are left in your deck")

    # right after a miss: a day (as the first Leitner box was); wrong: the next /review, a minute on
    states = {c.question_id: (c.state, c.due - clock.now()) for c in await house_of(engine).store.review_deck(ANN.key)}
    assert states == {"q1": (CardState.REVIEW, DAY), "q3": (CardState.LEARNING, 60.0)}
    grades = [(r.question_id, r.correct) for r in await house_of(engine).store.review_log() if r.player_key == ANN.key]
    assert grades == [("q1", False), ("q3", False), ("q1", True), ("q3", False)]  # the misses, then the review
    board_after, _ = await house_of(engine).standings.leaderboard(chat, "all", None)
    assert board_after == board_before  # reviews never reach a leaderboard
    assert await house_of(engine).store.review_deck(player(2).key) == []  # Bob missed nothing


async def test_nothing_due_says_when_and_how_many(engine, adapter, quiz, clock):
    await group_run_with_misses(engine, adapter, quiz, clock)
    commands = house_of(engine).commands
    await review(commands, clock)
    for _ in range(2):
        await press(commands, adapter, adapter.right_letter(quiz, adapter.questions[-1]))
    reply = await commands.handle("review", "", Caller(private(), ANN))
    assert reply.text.startswith("Nothing to review now. 2 cards are in your deck; the next is due 2023-11-")
    assert reply.text.endswith(" UTC.")


async def test_review_belongs_in_a_private_chat(engine, adapter, quiz, clock):
    reply = await house_of(engine).commands.handle("review", "", Caller(group(), ANN))
    assert reply.private and "private chat" in reply.text
    assert [(b.data, b.in_private) for b in reply.buttons] == [("review", True)]


async def test_a_question_removed_from_its_quiz_leaves_the_deck_quietly(engine, adapter, quiz, clock):
    await group_run_with_misses(engine, adapter, quiz, clock)
    edited = Catalog.from_quizzes([make_quiz("demo", 2)])  # q3 and q4 are gone: the bot restarted on the new file
    commands = build(edited, house_of(engine).store, clock).commands
    reply = await review(commands, clock)
    assert reply.text.startswith("1 card is due (1 in your deck)")
    assert [c.question_id for c in await house_of(engine).store.review_deck(ANN.key)] == ["q1"]


async def test_the_group_podium_offers_the_review(engine, adapter, quiz, clock):
    await group_run_with_misses(engine, adapter, quiz, clock)
    _, podium = adapter.sent[-1]
    assert podium.kind == "podium" and [(b.label, b.data, b.in_private) for b in podium.buttons] == [
        ("Review my misses", "review", True)
    ]
