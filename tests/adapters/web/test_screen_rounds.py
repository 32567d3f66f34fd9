"""The big screen between rounds: the shipped trivia night's first round ends, and the screen
gets the run's standings as the board between rounds (the chat's standings notice, published)."""

from __future__ import annotations

from pathlib import Path

from bot.commands.weblinks import signer_for
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine

ANN = player(1, "Ann")


async def test_the_board_between_rounds_reaches_the_screen(tmp_path: Path):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                assert (await engine.start(group(), "trivia-night", ANN)).status is StartStatus.STARTED
                quiz = engine.run_in(group()).quiz  # type: ignore[union-attr]
                first_round = len(quiz.rounds[0].question_ids)
                for _ in range(first_round):
                    clock.advance(5)
                    await engine.run_due()
                    card = adapter.questions[-1]
                    assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), ANN)).accepted
                    clock.advance(30)
                    await engine.run_due()
                (board,) = await seen(stream, "round", 1)
                assert board.data["standings"][0]["name"] == "Ann" and board.data["title"]
                closes = [e for e in stream.events if e.kind == "closed"]
                assert len(closes) == first_round and closes[-1].id < board.id
    finally:
        await store.close()
