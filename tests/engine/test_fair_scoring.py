"""Scoring that fits the room (issue #50) in the engine: accuracy scoring, streaks off and the
board at the end are the chat's settings, copied onto each run as it starts (a change mid-run and a
restart leave a running game as it began); a hosted game keeps them; a quiz of rounds shows no
standings between rounds with the board at the end; the podium counts a late joiner on the
questions asked since they joined and, with accuracy scoring, ranks by that share."""

from __future__ import annotations

import dataclasses

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.model import Quiz, Round
from bot.domain.scoring import Scoring
from bot.engine.core import Engine, EngineSettings
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player, text
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of

ADMIN = Caller(group(), player(1, "Ann"), is_admin=True)
ANN, BOB, CY = player(1, "Ann"), player(2, "Bob"), player(3, "Cy")


def engine_on(store, clock, adapter: RecordingAdapter, quiz: Quiz | None = None) -> Engine:
    engine = build(
        Catalog.from_quizzes([quiz or make_quiz()]), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    engine.attach(adapter)
    return engine


async def say(engine: Engine, name: str, args: str = "", caller: Caller = ADMIN) -> str:
    return (await house_of(engine).commands.handle(name, args, caller)).text


async def wait(engine: Engine, seconds: float) -> None:
    clock = house_of(engine).clock
    for _ in range(int(seconds)):
        clock.advance(1)
        await engine.run_due()


async def next_question(engine: Engine, adapter: RecordingAdapter, number: int) -> None:
    """Time passes until question `number` is shown: it is answered at once."""
    while len(adapter.questions) < number:
        house_of(engine).clock.advance(1)
        await engine.run_due()


async def closed(engine: Engine, adapter: RecordingAdapter, number: int) -> None:
    """Time passes until question `number` is closed (at its deadline, or at once when everyone
    known to play has answered)."""
    while len(adapter.reveals) < number:
        house_of(engine).clock.advance(1)
        await engine.run_due()


async def answer(engine: Engine, adapter: RecordingAdapter, who, right: bool = True) -> None:
    run = engine.run_in(group())
    assert run is not None
    letter = adapter.right_letter(run.quiz) if right else adapter.wrong_letter(run.quiz)
    ack = await engine.answer(adapter.token(letter), who)
    assert ack.text.startswith("Locked in"), ack.text


def podium_lines(adapter: RecordingAdapter) -> list[str]:
    [podium] = [reply for _, reply in adapter.sent if reply.kind == "podium"]
    return [line for line in podium.text.splitlines() if line and line[0] in "🥇🥈🥉"]


async def test_the_settings_say_the_rules_and_refuse_other_words(engine):
    shown = await say(engine, "settings")
    assert "Scoring: speed (a faster right answer earns more)" in shown
    assert "Streak bonus: on" in shown and "Standings: shown during the game" in shown
    assert "/settings scoring speed or /settings scoring accuracy" in await say(engine, "settings", "scoring fast")
    assert "/settings streaks on or /settings streaks off" in await say(engine, "settings", "streaks maybe")
    assert "/settings board public" in await say(engine, "settings", "board later"), "board's other words stay"
    refused = await say(engine, "settings", "scoring accuracy", Caller(group(), BOB))
    assert "Only chat admins" in refused
    settings = await house_of(engine).chats.settings(group())
    assert (settings.scoring, settings.streaks, settings.board_end) == (Scoring.SPEED, True, False)


async def test_a_hosted_accuracy_game_keeps_its_rules_through_a_change_and_a_restart(tmp_path, clock):
    adapter = RecordingAdapter()
    first = engine_on(await SqliteStore.open(tmp_path / "fair.db"), clock, adapter)
    await say(first, "settings", "scoring accuracy")
    await say(first, "settings", "streaks off")
    await say(first, "host", "demo 30s")
    await say(first, "next")
    await first.run_due()
    await wait(first, 12)
    await answer(first, adapter, BOB)
    run = first.run_in(group())
    assert run is not None and [a.points for a in run.answers.values()] == [1000], "no speed points: 1000 flat"
    await say(first, "settings", "scoring speed")  # a change mid-run is for the next run
    await say(first, "settings", "streaks on")
    await say(first, "next")
    await first.run_due()
    [(_, reveal)] = adapter.reveals
    assert reveal.timed is False and reveal.answers[0].points == 1000
    await house_of(first).store.close()

    adapter = RecordingAdapter()
    second = engine_on(await SqliteStore.open(tmp_path / "fair.db"), clock, adapter)
    await second.resume()
    await second.run_due()
    run = second.run_in(group())
    assert run is not None and (run.row.scoring, run.row.streaks) == (Scoring.ACCURACY, False)
    await say(second, "next")
    await second.run_due()
    await wait(second, 20)
    await answer(second, adapter, BOB)
    [answered] = run.answers.values()
    assert answered.points == 1000 and answered.streak == 2, "a streak, without its bonus"
    await say(second, "end")
    await second.run_due()
    assert podium_lines(adapter) == ["🥇 Bob: 2000 pts · 2/2 right · 100%"]
    await house_of(second).store.close()


async def test_streaks_off_with_speed_scoring_keeps_the_speed_points_only(engine, adapter):
    await say(engine, "settings", "streaks off")
    await engine.start(group(), "demo", ANN, count=2)
    for number in (1, 2):
        await next_question(engine, adapter, number)
        await answer(engine, adapter, ANN)
        await closed(engine, adapter, number)
    points = [s.points for _, r in adapter.reveals for s in r.answers]
    assert points == [1000, 1000], "answered at once: 1000 each, no bonus for the second in a row"
    assert adapter.reveals[0][1].timed is True


def rounds_quiz() -> Quiz:
    quiz = make_quiz(questions=4)
    halves = (Round(text("First"), ("q1", "q2")), Round(text("Second"), ("q3", "q4")))
    return dataclasses.replace(quiz, rounds=halves)


async def test_with_the_board_at_the_end_no_standings_come_between_rounds(tmp_path, clock):
    seen: dict[bool, list[str]] = {}
    for board_end in (False, True):
        adapter = RecordingAdapter()
        engine = engine_on(await SqliteStore.open(tmp_path / f"rounds{board_end}.db"), clock, adapter, rounds_quiz())
        await say(engine, "settings", "board end" if board_end else "board live")
        await engine.start(group(), "demo", ANN)
        for number in range(1, 5):
            await next_question(engine, adapter, number)
            await answer(engine, adapter, ANN)
            await closed(engine, adapter, number)
        seen[board_end] = [reply.title or reply.text.splitlines()[0] for _, reply in adapter.sent]
        await house_of(engine).store.close()
    assert "📊 Standings after First" in seen[False]
    assert seen[True] == [title for title in seen[False] if "Standings" not in title], "nothing else changes"


async def test_a_late_joiner_is_counted_and_ranked_on_the_questions_since_joining(tmp_path, clock):
    lines: dict[Scoring, list[str]] = {}
    for scoring in Scoring:
        adapter = RecordingAdapter()
        engine = engine_on(await SqliteStore.open(tmp_path / f"late-{scoring}.db"), clock, adapter)
        await say(engine, "settings", f"scoring {scoring}")
        await engine.start(group(), "demo", ANN)
        plays = (  # who answers each of the 4 questions, right or not: Cy from the third on
            ((ANN, True), (BOB, True)),
            ((ANN, True), (BOB, False)),
            ((CY, True), (ANN, False), (BOB, True)),
            ((CY, True), (ANN, True), (BOB, True)),
        )
        for number, answers in enumerate(plays, 1):
            await next_question(engine, adapter, number)
            for who, right in answers:
                await answer(engine, adapter, who, right)
            await closed(engine, adapter, number)
        lines[scoring] = podium_lines(adapter)
        await house_of(engine).store.close()
    # every answer at once: 1000 a right answer in either scoring, and the streak bonus
    assert lines[Scoring.SPEED] == [
        "🥇 Ann: 3100 pts · 3/4 right · 75%",
        "🥈 Bob: 3100 pts · 3/4 right · 75%",
        "🥉 Cy: 2100 pts · 2 of the 2 asked since joining · 100%",
    ]
    assert lines[Scoring.ACCURACY] == [
        "🥇 Cy: 2100 pts · 2 of the 2 asked since joining · 100%",
        "🥈 Ann: 3100 pts · 3/4 right · 75%",
        "🥉 Bob: 3100 pts · 3/4 right · 75%",
    ]
