"""The teacher's summary (bot/commands/summary.py) of runs played through the engine on a real
store: a group's run, and an assignment's attempts in members' private chats, one stopped
halfway, summed up as one class."""

from __future__ import annotations

import pytest

from bot.commands.core import Caller
from bot.commands.results import RunResults, run_results
from bot.commands.summary import attempts_summary, run_summary
from bot.domain.model import ChatRef, Player, Quiz
from bot.engine.core import Engine
from bot.testing.fakes import RecordingAdapter, group, player
from tests.support.house import house_of
from tests.support.web_harness import play

ADMIN, ANN, BOB, CY = player(1, "Admin"), player(2, "Ann"), player(3, "Bob"), player(4, "Cy")


async def report(engine: Engine, run_id: int) -> RunResults:
    found = await run_results(house_of(engine).results, group().key, run_id, "en")
    assert found is not None
    return found


async def test_a_runs_summary_puts_the_hardest_question_first_and_names_who_needs_help(engine, adapter, quiz):
    await play(engine, adapter, group(), quiz, {ANN: [True] * 4, BOB: [False, True, False, False]})
    (run,) = await house_of(engine).store.chat_runs(group().key)
    results = await report(engine, run.run_id)
    summary = run_summary(results)

    assert summary.asked == 4 and [p.name for p in summary.players] == ["Ann", "Bob"]
    shares = {q.number: q.share_right for q in summary.questions}
    assert shares == {1: 0.5, 2: 1.0, 3: 0.5, 4: 0.5}
    assert [q.number for q in summary.questions] == [1, 3, 4, 2], "hardest first, ties in the run's order"
    assert all(q.flags == () for q in summary.questions), "two players flag nothing"
    ann, bob = summary.players
    assert (ann.accuracy, bob.accuracy, bob.not_answered) == (1.0, 0.25, 0)
    assert summary.needs_help == (bob,) and summary.did_not_finish == (), "under half right; both to the end"


async def play_attempt(engine: Engine, adapter: RecordingAdapter, quiz: Quiz, who: Player, rights: list[bool]) -> None:
    """`who` presses Start on assignment 1 in private and answers as `rights` says: right or
    wrong, question by question; fewer than the quiz's questions, then /stop."""
    chat = ChatRef("test", f"p{who.user_id}", is_private=True)
    started = await house_of(engine).commands.handle("start", "assign_1", Caller(chat, who))
    assert "Assignment #1" in started.text, started.text
    for right in rights:
        house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        letter = adapter.right_letter(quiz, card) if right else adapter.wrong_letter(quiz, card)
        assert (await engine.answer(adapter.token(letter, card), who, chat)).accepted
        await engine.run_due()
    if len(rights) < len(quiz.questions):
        await house_of(engine).commands.handle("stop", "", Caller(chat, who, is_admin=True))
    house_of(engine).clock.advance(10)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(chat) is None


async def test_an_assignments_attempts_sum_up_as_one_class(engine, adapter, quiz):
    await house_of(engine).store.ensure_chat(group())
    created = await house_of(engine).commands.handle(
        "assign", f"{quiz.id} until tomorrow", Caller(group(), ADMIN, True)
    )
    assert "Assignment #1 is open" in created.text, created.text
    await play_attempt(engine, adapter, quiz, ANN, [True] * 4)
    await play_attempt(engine, adapter, quiz, BOB, [False, True])
    attempts = [await report(engine, r.run_id) for r in await house_of(engine).store.chat_runs(group().key)]
    assert sorted(r.run.asked for r in attempts) == [2, 4], "Bob's attempt asked two questions"
    summary = attempts_summary(attempts)
    assert summary is not None and summary.run_id == 0 and summary.asked == 4

    by_number = {q.number: q for q in summary.questions}
    assert [(by_number[n].players, by_number[n].share_right) for n in (1, 2, 3, 4)] == [
        (2, 0.5),
        (2, 1.0),
        (1, 1.0),  # asked of Ann alone: Bob had stopped
        (1, 1.0),
    ]
    players = {p.name: p for p in summary.players}
    assert players["Ann"].accuracy == 1.0 and players["Bob"].accuracy == pytest.approx(0.5)
    assert [p.name for p in summary.did_not_finish] == ["Bob"], "he left his attempt after two questions"
    assert attempts_summary([]) is None
