"""The big screen of a run with teams: each close, and the podium, rank the teams (their score,
as the chat's reveal gives it) beside the players."""

from __future__ import annotations

from pathlib import Path

from bot.commands.weblinks import signer_for
from bot.domain.teams import TeamScoring
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine

ANN, BOB = player(1, "Ann"), player(2, "Bob")


async def test_the_screen_ranks_the_teams_at_each_close_and_at_the_podium(tmp_path: Path):
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        lineup = await store.new_lineup(group().key, ("Owls", "Foxes"), TeamScoring.MEAN, clock.now())
        await store.join_team(lineup, ANN.key, ANN.name, 1, False, clock.now())
        await store.join_team(lineup, BOB.key, BOB.name, 2, False, clock.now())
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events") as stream:
                assert (await engine.start(group(), "pipeline", ANN, count=2)).status is StartStatus.STARTED
                quiz = engine.run_in(group()).quiz  # type: ignore[union-attr]
                for _ in range(2):
                    clock.advance(5)
                    await engine.run_due()
                    card = adapter.questions[-1]
                    assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), ANN)).accepted
                    assert (await engine.answer(adapter.token(wrong_letter(adapter, quiz, card), card), BOB)).accepted
                    clock.advance(30)
                    await engine.run_due()
                first, second = await seen(stream, "closed", 2)
                (podium,) = await seen(stream, "podium", 1)
        for event in (first, second, podium):
            assert [(t["rank"], t["name"]) for t in event.data["teams"]] == [(1, "Owls"), (2, "Foxes")]
            assert event.data["teams"][1]["points"] == "0", "a team whose only member was wrong scores nothing"
        assert podium.data["standings"][0]["name"] == "Ann"
    finally:
        await store.close()


def wrong_letter(adapter, quiz, card) -> str:
    right = adapter.right_letter(quiz, card)
    return next(o.letter for o in card.options if o.letter != right)
