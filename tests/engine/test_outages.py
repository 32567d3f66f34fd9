"""Outages pause, they do not end: while a question cannot be posted the run waits, and its
clock starts only when players can see it; after 10 minutes the run ends, with a word once
the platform is back. Time is a FakeClock; the store a real SQLite file."""

from __future__ import annotations

import pytest

from bot.domain.records import Phase
from bot.testing.fakes import group, player
from tests.engine.test_outbox import run_for, seen
from tests.support.house import house_of

PODIUM = "🏁 Quiz over: Demo quiz"


@pytest.mark.parametrize("outage", [45, 5 * 60])
async def test_an_outage_while_a_question_is_due_pauses_the_run(engine, adapter, clock, quiz, outage):
    run = (await engine.start(group(), "demo", player(1))).run
    await run_for(engine, 3, press=adapter)
    assert seen(adapter)[0] == [1]
    back = clock.now() + 30 + outage
    adapter.down = lambda: clock.now() < back  # down from the first close on
    await run_for(engine, 30 + outage - 1)
    assert seen(adapter) == ([1], [], []), "nothing is shown while the platform is down"
    assert run.row.phase is Phase.PAUSING or run.row.phase is Phase.POSTING

    await run_for(engine, 16)  # back: the sender's back-off is at most 15 s
    assert seen(adapter)[:2] == ([1, 2], [1]), "the reveal, then the next question, once each"
    shown_at = run.row.asked_at
    assert run.row.due == shown_at + 30, "the question's 30 s start when it is shown"
    clock.advance(max(0.0, shown_at + 29 - clock.now()))
    right = adapter.right_letter(quiz)
    assert (await engine.answer(adapter.token(right), player(2))).accepted, "pressed in time: it counts"

    await run_for(engine, 200, press=adapter)
    assert seen(adapter) == ([1, 2, 3, 4], [1, 2, 3, 4], [PODIUM])
    assert adapter.refused >= 3
    assert await house_of(engine).store.outbox() == []


async def test_an_outage_of_errors_and_dropped_connections_loses_no_reveal_and_no_question(engine, adapter, clock):
    """The outage that lost messages when an ambiguous failure allowed one more try only: every
    other call an error, the others dropped connections, for 45 s from question 1's close."""
    await engine.start(group(), "demo", player(1))
    await run_for(engine, 3, press=adapter)
    start, tries = clock.now() + 30, [0]

    def error() -> bool:  # asked first on every call: every other one in the outage is an error...
        tries[0] += 1
        return during() and tries[0] % 2 == 1

    def during() -> bool:
        return start <= clock.now() < start + 45

    adapter.down, adapter.unsure = error, lambda: during()  # ...and the others are dropped
    await run_for(engine, 300, press=adapter)
    assert house_of(engine).sender.counts["uncertain"] >= 3 and house_of(engine).sender.counts["failed"] >= 3
    assert seen(adapter) == ([1, 2, 3, 4], [1, 2, 3, 4], [PODIUM])
    assert await house_of(engine).store.outbox() == []


async def test_an_outage_longer_than_10_minutes_ends_the_run_with_a_word_once_back(engine, adapter, clock):
    await engine.start(group(), "demo", player(1))
    back = clock.now() + 12 * 60
    adapter.down = lambda: clock.now() < back
    await run_for(engine, 11 * 60, step=5)
    assert engine.run_in(group()) is None, "given up after 10 minutes"
    assert seen(adapter) == ([], [], [])

    await run_for(engine, 60 + 20)
    questions, reveals, others = seen(adapter)
    assert questions == [] and reveals == []
    assert others[0].startswith("⚠️ The quiz has ended: question 1 could not be posted for 10 minutes")
    assert others[1] == "⏹ Quiz stopped: Demo quiz"
    assert await house_of(engine).store.outbox() == []


async def test_stop_during_an_outage_drops_the_unposted_question(engine, adapter, clock):
    await engine.start(group(), "demo", player(1))
    adapter.down = lambda: True
    await run_for(engine, 10)
    assert (await engine.stop(group(), player(1), is_admin=False)).status.value == "stopped"
    adapter.down = lambda: False
    await run_for(engine, 20)
    assert seen(adapter) == ([], [], ["⏹ Quiz stopped: Demo quiz"]), "no question after the stop"
