"""Teams lock as the first question is posted: two writes, the question's and the line-up's. A
kill between them leaves the question asked and the line-up open; the run taken up again
locks it, as the post would have."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.commands.core import Caller
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.support.house import house_of
from tests.support.web_harness import shipped_engine

ANN, BOB, CY = player(1, "Ann"), player(2, "Bob"), player(3, "Cy")


async def test_a_kill_before_the_lock_leaves_the_teams_locked_after_the_restart(tmp_path: Path):
    db = tmp_path / "quizhost.db"
    store, clock, engine, _ = await shipped_engine(db)
    try:
        commands = house_of(engine).commands
        await commands.handle("teams", "Owls Foxes", Caller(group(), ANN, True))
        await commands.handle("join", "1", Caller(group(), BOB))
        started = await engine.start(group(), "pipeline", ANN)
        assert started.status is StartStatus.STARTED and started.run is not None
        run_id = started.run.id
        clock.advance(5)
        await engine.run_due()  # question 1 posted: the line-up is the run's
    finally:
        await store.close()
    with sqlite3.connect(db) as killed:  # the file as a kill between the two writes leaves it
        unlocked = killed.execute("UPDATE team_lineups SET run_id = NULL WHERE run_id = ?", (run_id,))
        assert unlocked.rowcount == 1

    store, _, engine, _ = await shipped_engine(db)
    try:
        await engine.resume()
        late = await house_of(engine).commands.handle("join", "2", Caller(group(), CY))
        assert late.kind == "error", "joining after the first question is refused"
        lineup = await store.run_lineup(run_id)
        assert lineup is not None and [m.player_key for m in lineup.members] == [BOB.key]
        assert await store.open_lineup(group().key) is None, "the next game does not take these teams"
    finally:
        await store.close()
