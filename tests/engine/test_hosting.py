"""A hosted game (/host): its host paces it with /next, /pause, /resume, /skip, /hint and /end;
nothing advances by itself, a pause keeps the question's time (a restart too), a skip counts for
nobody, and an answer after the hint earns half the speed points."""

from __future__ import annotations

import dataclasses

import pytest

from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.model import Quiz
from bot.engine.core import Engine, EngineSettings
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player, text
from bot.texts import render
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of

HOST, MEMBER = player(1, "Ann"), player(2, "Bob")
ADMIN_CALLER = Caller(group(), HOST, is_admin=True)
MEMBER_CALLER = Caller(group(), MEMBER)


def hinted_quiz() -> Quiz:
    quiz = make_quiz(questions=4)
    questions = tuple(dataclasses.replace(q, hint=text(f"Think of {q.id}")) for q in quiz.questions)
    return dataclasses.replace(quiz, questions=questions)


def engine_on(store, clock, adapter: RecordingAdapter) -> Engine:
    catalog = Catalog.from_quizzes([hinted_quiz()])
    engine = build(catalog, store, clock, EngineSettings(question_seconds=30, pause_seconds=5)).engine
    engine.attach(adapter)
    return engine


@pytest.fixture
def hosted(store, clock, adapter) -> Engine:
    return engine_on(store, clock, adapter)


async def say(engine: Engine, name: str, caller: Caller = ADMIN_CALLER, args: str = "") -> str:
    reply = await house_of(engine).commands.handle(name, args, caller)
    return reply.text


async def wait(engine: Engine, seconds: float) -> None:
    clock = house_of(engine).clock
    for _ in range(int(seconds)):
        clock.advance(1)
        await engine.run_due()


async def test_a_hosted_game_waits_for_its_host_and_ends_with_its_podium(hosted, adapter):
    started = await say(hosted, "host", args="demo")
    assert "Hosted by Ann" in started and "/next" in started
    await wait(hosted, 600)
    assert adapter.questions == [], "nothing is posted before the host says so"
    assert "Next." in await say(hosted, "next")
    await hosted.run_due()
    assert [c.number for c in adapter.questions] == [1]
    await hosted.answer(adapter.token(adapter.right_letter(hosted.run_in(group()).quiz)), MEMBER)
    await wait(hosted, 600)
    assert adapter.reveals == [], "no time limit: the question stays open until its host closes it"
    await say(hosted, "next")
    await hosted.run_due()
    assert len(adapter.reveals) == 1
    await wait(hosted, 600)
    assert [c.number for c in adapter.questions] == [1], "the next waits for the host, ten minutes on"
    await say(hosted, "next")
    await hosted.run_due()
    assert [c.number for c in adapter.questions] == [1, 2]
    assert "Only the host" in await say(hosted, "next", MEMBER_CALLER)
    assert "The game is over" in await say(hosted, "end")
    await hosted.run_due()
    podium = next(reply for _, reply in adapter.sent if "Quiz stopped" in reply.title)
    assert "Bob: 1000 pts" in podium.text, "the podium: what the game scored until its host ended it"
    assert hosted.run_in(group()) is None


async def test_a_pause_refuses_presses_and_resume_keeps_the_time_left(hosted, adapter, clock):
    await say(hosted, "host", args="demo 30s")
    await say(hosted, "next")
    await hosted.run_due()
    await wait(hosted, 10)
    assert "Paused" in await say(hosted, "pause")
    await hosted.run_due()
    assert any("20 s left" in reply.text for _, reply in adapter.sent)
    refused = await hosted.answer(adapter.token("A"), MEMBER)
    assert not refused.accepted and "paused" in refused.text
    await wait(hosted, 600)
    assert adapter.reveals == [], "a paused question does not close"
    assert "Resumed" in await say(hosted, "resume")
    run = hosted.run_in(group())
    assert run is not None and run.row.due == pytest.approx(clock.now() + 20)
    assert (await hosted.answer(adapter.token("A"), MEMBER)).accepted


async def test_a_paused_question_keeps_its_time_across_a_restart(tmp_path, clock):
    first_adapter = RecordingAdapter()
    first = engine_on(await SqliteStore.open(tmp_path / "host.db"), clock, first_adapter)
    await say(first, "host", args="demo 30s")
    await say(first, "next")
    await first.run_due()
    await wait(first, 12)
    await say(first, "pause")
    await house_of(first).store.close()

    clock.advance(3600)  # down for an hour: the pause holds
    adapter = RecordingAdapter()
    second = engine_on(await SqliteStore.open(tmp_path / "host.db"), clock, adapter)
    await second.resume()
    await second.run_due()
    await say(second, "resume")
    run = second.run_in(group())
    assert run is not None and run.row.due - clock.now() == pytest.approx(18, abs=0.2)
    await house_of(second).store.close()


async def test_a_skipped_question_moves_no_board(hosted, adapter):
    await say(hosted, "host", args="demo")
    await say(hosted, "next")
    await hosted.run_due()
    run = hosted.run_in(group())
    assert run is not None
    await hosted.answer(adapter.token(adapter.right_letter(run.quiz)), MEMBER)
    assert "Skipped" in await say(hosted, "skip")
    await hosted.run_due()
    [(_, reveal)] = adapter.reveals
    assert "Skipped by the host" in reveal.note and reveal.answers == ()
    assert await house_of(hosted).store.run_answers(run.id) == []
    await say(hosted, "end")
    await hosted.run_due()
    assert await house_of(hosted).store.leaderboard(group().key, 0.0) == []


async def test_an_answer_after_the_hint_earns_half_the_speed_points(hosted, adapter):
    await say(hosted, "host", args="demo")
    await say(hosted, "next")
    await hosted.run_due()
    await say(hosted, "hint")
    await hosted.run_due()
    assert any("Hint for question 1: Think of q1" in reply.text for _, reply in adapter.sent)
    assert "shown already" in await say(hosted, "hint")
    run = hosted.run_in(group())
    assert run is not None
    await hosted.answer(adapter.token(adapter.right_letter(run.quiz)), MEMBER)
    [answer] = run.answers.values()
    assert answer.points == 500, "1000 speed points at once, half of them after the hint"


async def test_a_timed_game_shows_the_hint_at_half_time(engine, adapter, store, clock):
    timed = engine_on(store, clock, adapter)
    await timed.start(group(), "demo", HOST)
    await wait(timed, 5)  # posted 3 s after the start: 2 s of its 30 gone
    assert [c.number for c in adapter.questions] == [1]
    await wait(timed, 12)
    assert not any("Hint" in reply.text for _, reply in adapter.sent)
    await wait(timed, 2)
    assert any("Hint for question 1" in reply.text for _, reply in adapter.sent), "at 15 of 30 s"
    assert "no host" in await say(timed, "pause")


async def test_in_a_group_only_admins_host_unless_the_group_allows_anyone(hosted):
    assert "Only a chat admin" in await say(hosted, "host", MEMBER_CALLER, "demo")
    await say(hosted, "settings", ADMIN_CALLER, "host anyone")
    assert "Hosted by Bob" in await say(hosted, "host", MEMBER_CALLER, "demo")


async def test_an_untimed_hosted_question_scores_speed_over_a_nominal_window_that_pauses(hosted, adapter):
    """No time limit: the card says so, and speed points fall over the bot's default question
    time (30 s here too) from when the question was shown, a pause not counted."""
    started = await say(hosted, "host", args="demo")
    assert "the host closes each" in started
    await say(hosted, "next")
    await hosted.run_due()
    card = adapter.questions[-1]
    assert card.seconds == 0 and "No time limit" in render.question_body(card)
    await wait(hosted, 15)
    await say(hosted, "pause")
    await hosted.run_due()
    assert any(reply.text == "⏸ Paused by the host." for _, reply in adapter.sent)
    await wait(hosted, 100)
    await say(hosted, "resume")
    await hosted.answer(adapter.token(adapter.right_letter(hosted.run_in(group()).quiz)), MEMBER)
    await say(hosted, "next")
    await hosted.run_due()
    _, reveal = adapter.reveals[-1]
    assert [(s.name, s.points) for s in reveal.answers] == [("Bob", 750)]  # 15 s of 30: 1000 - 250


async def test_the_host_may_give_the_questions_a_time_limit(hosted, adapter):
    assert "5 to 300 seconds" in await say(hosted, "host", args="demo 900s")
    assert "2 questions, 20 s each" in await say(hosted, "host", args="demo 2 20s")
    await say(hosted, "next")
    await hosted.run_due()
    assert adapter.questions[-1].seconds == 20
    await wait(hosted, 21)
    assert len(adapter.reveals) == 1, "a time limit the host gave closes the question"


async def test_a_question_the_host_closes_early_shows_no_hint_first(hosted, adapter):
    """The half-time hint counts from the question's start, not from its deadline: a close
    that moves the deadline to now is a close, not the hint's moment."""
    await say(hosted, "host", args="demo 30s")  # a time limit: its hint would come at 15 s
    await say(hosted, "next")
    await hosted.run_due()
    await wait(hosted, 3)
    await say(hosted, "next")  # closes question 1 at 3 of its 30 s
    await hosted.run_due()
    assert len(adapter.reveals) == 1
    assert not any("Hint" in reply.text for _, reply in adapter.sent)


async def test_a_skipped_question_keeps_the_streaks_across_a_restart(tmp_path, clock):
    """A skip moves no streak; the streaks rebuilt from the stored answers after a restart must
    not read the skipped question (it has no answers) as everyone's miss."""
    first_adapter = RecordingAdapter()
    first = engine_on(await SqliteStore.open(tmp_path / "host.db"), clock, first_adapter)
    await say(first, "host", args="demo")
    await say(first, "next")
    await first.run_due()
    run = first.run_in(group())
    assert run is not None
    await first.answer(first_adapter.token(first_adapter.right_letter(run.quiz)), MEMBER)
    for _ in range(2):  # closes question 1, posts question 2
        await say(first, "next")
        await first.run_due()
    await first.run_due()
    await say(first, "skip")  # question 2
    await first.run_due()
    await house_of(first).store.close()

    adapter = RecordingAdapter()
    second = engine_on(await SqliteStore.open(tmp_path / "host.db"), clock, adapter)
    await second.resume()
    await say(second, "next")
    await second.run_due()
    run = second.run_in(group())
    assert run is not None and [c.number for c in adapter.questions] == [3]
    await second.answer(adapter.token(adapter.right_letter(run.quiz)), MEMBER)
    [answer] = run.answers.values()
    assert answer.streak == 2, "right at question 1, question 2 skipped, right at question 3"
    await house_of(second).store.close()
