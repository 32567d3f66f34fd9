"""The big screen of a chat that plays with the board at the end and accuracy scoring (issue #50):
no standings after each question, then the podium ranked as the chat's (by share right since
joining: Bob, who joined at the fourth question and missed none, before Ann)."""

from __future__ import annotations

from pathlib import Path

from bot.commands.weblinks import signer_for
from bot.domain.scoring import Scoring
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.house import house_of
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine

ANN, BOB = player(1, "Ann"), player(2, "Bob")


async def test_the_screen_shows_no_standings_before_the_podium_and_ranks_it_as_the_chat(tmp_path: Path):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    await house_of(engine).chats.update(group(), scoring=Scoring.ACCURACY, board_end=True)
    try:
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                assert (await engine.start(group(), "pipeline", ANN)).status is StartStatus.STARTED
                quiz = engine.run_in(group()).quiz  # type: ignore[union-attr]
                for number in range(1, len(quiz.questions) + 1):
                    while len(adapter.questions) < number:
                        clock.advance(1)
                        await engine.run_due()
                    card = adapter.questions[-1]
                    right = adapter.right_letter(quiz, card)
                    wrong = adapter.wrong_letter(quiz, card)
                    players = ((BOB, right), (ANN, wrong if number == 5 else right)) if number >= 4 else ((ANN, right),)
                    for who, letter in players:  # Bob first as he joins: the others known close it
                        assert (await engine.answer(adapter.token(letter, card), who)).accepted
                    while len(adapter.reveals) < number:
                        clock.advance(1)
                        await engine.run_due()
                (podium,) = await seen(stream, "podium", 1)
                closes = [e for e in stream.events if e.kind == "closed"]
                assert len(closes) == len(quiz.questions)
                assert all(e.data["top"] == [] and e.data["teams"] == [] for e in closes), "no standings"
                assert [row["name"] for row in podium.data["standings"]] == ["Bob", "Ann"]
    finally:
        await store.close()
