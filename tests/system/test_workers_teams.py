"""Teams with two workers on one PostgreSQL database: the line-up's members are the run's known
players, so a press taken by the worker that does not run the quiz, completing the first
question's answers, wakes the owner to close it early."""

from __future__ import annotations

import pytest

from bot.domain.teams import TeamScoring
from bot.testing.fakes import group, player
from tests.engine.test_question_kinds import token_of
from tests.system.test_workers_kinds import revealed
from tests.system.test_workers_rounds import workers  # noqa: F401  (fixture)

pytestmark = pytest.mark.postgres


async def test_the_last_member_answering_through_the_other_worker_closes_the_first_question(workers, clock):
    (a, a_adapter, a_store), (b, _, _) = workers
    chat, ann, bob = group(), player(1, "Ann"), player(2, "Bob")
    lineup = await a_store.new_lineup(chat.key, ("Owls", "Foxes"), TeamScoring.MEAN, clock.now())
    for who, team in ((ann, 1), (bob, 2)):
        assert await a_store.join_team(lineup, who.key, who.name, team, False, clock.now())
    await a.start(chat, "night", ann)
    clock.advance(5)
    await a.run_due()
    card = a_adapter.questions[-1]
    assert (await a.answer(token_of(card, "The Sun"), ann, chat)).accepted
    assert (await b.answer(token_of(card, "Sirius"), bob, chat)).accepted
    await revealed(a, a_adapter, 1)  # well before its 30 seconds: both teams' members answered
    _, reveal = a_adapter.reveals[-1]
    assert sorted(s.name for s in reveal.answers) == ["Ann", "Bob"]
