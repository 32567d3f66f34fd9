"""/quizstats flags a question only once 10 players answered it (fewer prove nothing), as the
web page does, and says once why the others carry no flag."""

from __future__ import annotations

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.questionstats import FLAG_PLAYERS
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.testing.fakes import group, player
from tests.engine.test_question_kinds import kinds_quiz, token_of
from tests.support.house import build, house_of

EASY = {"id": "capital", "prompt": "Capital of France?", "options": ["Paris", "Lyon", "Nice"], "answer": 0}
FEW = "Questions answered by fewer than 10 players: no flags yet."


async def play(engine: Engine, clock, adapter, numbers: range) -> None:
    """One run of the one-question quiz: each of these players answers it right."""
    chat = group()
    assert (await engine.start(chat, "kinds", player(1, "Ann"))).status is StartStatus.STARTED
    clock.advance(3)
    await engine.run_due()
    card = adapter.questions[-1]
    for n in numbers:
        assert (await engine.answer(token_of(card, "Paris"), player(n, f"P{n}"), chat)).accepted
    for _ in range(3):  # the deadline, the pause, the podium
        clock.advance(30)
        await engine.run_due()


async def test_a_question_is_flagged_from_ten_players_not_nine(store, clock, adapter):
    assert FLAG_PLAYERS == 10
    engine = build(Catalog.from_quizzes([kinds_quiz(EASY)]), store, clock, EngineSettings(question_seconds=20)).engine
    engine.attach(adapter)
    commands, admin = house_of(engine).commands, Caller(group(), player(1, "Ann"), is_admin=True)

    await play(engine, clock, adapter, range(1, 10))
    nine = (await commands.handle("quizstats", "kinds", admin)).text
    assert "9 answers · 100% right" in nine, nine
    assert "too easy" not in nine and "⚠️" not in nine, "nine players prove nothing"
    assert nine.count(FEW) == 1, "why there is no flag, said once"

    await play(engine, clock, adapter, range(10, 11))  # a tenth player
    ten = (await commands.handle("quizstats", "kinds", admin)).text
    assert "10 answers · 100% right" in ten, ten
    assert "⚠️ too easy: 100% answered right" in ten and FEW not in ten
