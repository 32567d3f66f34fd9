"""Imported quizzes play like any other: a question's own time limit is its run's limit, and a
question without an explanation reveals the right answer and the split alone."""

from __future__ import annotations

import dataclasses

from bot.content.catalog import Catalog
from bot.content.importers import import_quiz
from bot.engine.core import EngineSettings
from bot.testing.fakes import group, player
from bot.texts import render
from tests.support.house import build

GIFT = b"Fast one?{=right ~wrong}\n\nSlow one?{=yes ~no ####Because.}\n"


def imported_quiz():
    quiz = import_quiz(GIFT, "timed.gift").quiz
    first, second = quiz.questions
    return dataclasses.replace(quiz, questions=(dataclasses.replace(first, seconds=10), second))


async def test_a_question_with_its_own_time_limit_closes_at_it_and_scores_by_it(store, clock, adapter):
    quiz = imported_quiz()
    engine = build(
        Catalog.from_quizzes([quiz]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    engine.attach(adapter)
    assert (await engine.start(group(), "timed", player(1))).status == "started"
    clock.advance(3)
    await engine.run_due()
    card = adapter.questions[-1]
    assert (card.prompt, card.seconds, card.deadline - clock.now()) == ("Fast one?", 10, 10)
    assert "10 seconds to answer" in render.time_limit(card)
    clock.advance(5)
    right = next(o.letter for o in card.options if o.text == "right")
    assert (await engine.answer(adapter.token(right), player(1, "Ann"))).accepted
    clock.advance(5)  # the question's own 10 s are up, far before the chat's 30
    await engine.run_due()
    _, reveal = adapter.reveals[-1]
    assert [(s.name, s.points) for s in reveal.scorers] == [("Ann", 750)]  # 5 s of 10, not of 30
    assert reveal.explanation == ""
    parts = render.revealed(reveal, 4096).split("\n\n")  # the prompt, options, split, right answer, scorers
    assert len(parts) == 5 and parts[2].startswith(reveal.card.options[0].letter), "no empty explanation"
    clock.advance(5)
    await engine.run_due()
    assert (adapter.questions[-1].prompt, adapter.questions[-1].seconds) == ("Slow one?", 30)
