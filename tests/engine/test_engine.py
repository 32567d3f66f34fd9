"""The engine with a recording adapter and a fake clock: whole runs as players see them."""

from __future__ import annotations

from dataclasses import replace

from bot.content.catalog import Catalog
from bot.domain.records import RunStatus
from bot.engine.core import EngineSettings, StartStatus, StopStatus
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player, private
from tests.support.house import build, house_of


async def start(engine, chat, quiz_topic="demo", by=None, count=None):
    outcome = await engine.start(chat, quiz_topic, by or player(1), count)
    assert outcome.status is StartStatus.STARTED
    house_of(engine).clock.advance(3)
    await engine.run_due()
    return outcome.run


async def test_group_run_with_right_wrong_late_repeated_and_forged_presses(engine, adapter, quiz, clock):
    chat = group()
    ann, bob, cy = player(1, "Ann"), player(2, "Bob"), player(3, "Cy")
    await start(engine, chat)
    card = adapter.questions[-1]
    assert (card.number, card.total) == (1, 4)

    right, wrong = adapter.right_letter(quiz), adapter.wrong_letter(quiz)
    ack = await engine.answer(adapter.token(right), ann)
    assert ack.accepted and ack.text == f"Locked in: {right}"
    clock.advance(15)
    assert (await engine.answer(adapter.token(wrong), bob)).accepted
    again = await engine.answer(adapter.token(right), bob)
    assert not again.accepted and again.text == f"You already answered {wrong}"
    forged = await engine.answer("qa:999:1:0", cy)
    assert not forged.accepted and "not valid" in forged.text
    garbage = await engine.answer("drop table answers", cy)
    assert not garbage.accepted
    out_of_range = await engine.answer(f"qa:{card.run_id}:1:7", cy)
    assert not out_of_range.accepted and "not one of the options" in out_of_range.text

    clock.advance(15)  # deadline
    await engine.run_due()
    late = await engine.answer(adapter.token(right, card), cy)
    assert not late.accepted and "closed" in late.text

    _, reveal = adapter.reveals[-1]
    assert reveal.right_letter == right
    assert [(s.name, s.points) for s in reveal.scorers] == [("Ann", 1000)]
    assert sum(reveal.counts) == 2
    assert reveal.explanation == "Because 1. It is so."

    board, _ = await house_of(engine).standings.leaderboard(chat, "all", None)
    assert [(s.name, s.points, s.correct, s.answered) for s in board] == [("Ann", 1000, 1, 1), ("Bob", 0, 0, 1)]


async def test_streak_bonus_across_questions_and_podium(engine, adapter, quiz, clock):
    chat, ann = group(), player(1, "Ann")
    await start(engine, chat)
    for number in range(1, 5):
        assert adapter.questions[-1].number == number
        assert (await engine.answer(adapter.token(adapter.right_letter(quiz)), ann)).accepted
        clock.advance(30 if number == 1 else 0)  # from question 2 on Ann is the whole run: early close
        await engine.run_due()
        clock.advance(5)
        await engine.run_due()
    points = [r.scorers[0].points for _, r in adapter.reveals]
    assert points == [1000, 1100, 1200, 1300]
    _chat, podium = adapter.sent[-1]
    assert podium.kind == "podium" and "Ann" in podium.text and "4600" in podium.text
    assert engine.run_in(chat) is None


async def test_early_close_once_every_player_of_the_run_has_answered(engine, adapter, quiz, clock):
    chat, ann, bob = group(), player(1), player(2)
    await start(engine, chat)
    await engine.answer(adapter.token("A"), ann)
    await engine.run_due()
    assert len(adapter.reveals) == 0, "the first question waits for its deadline"
    await engine.answer(adapter.token("B"), bob)
    clock.advance(30)
    await engine.run_due()
    clock.advance(5)
    await engine.run_due()
    assert adapter.questions[-1].number == 2
    await engine.answer(adapter.token("A"), ann)
    await engine.run_due()
    assert len(adapter.reveals) == 1, "Bob has not answered yet"
    clock.advance(2)
    await engine.answer(adapter.token("A"), bob)
    await engine.run_due()
    assert len(adapter.reveals) == 2


async def test_private_chat_closes_at_the_first_answer(engine, adapter, quiz):
    chat = private()
    await start(engine, chat)
    await engine.answer(adapter.token("C"), player(1))
    await engine.run_due()
    assert len(adapter.reveals) == 1


async def test_two_silent_questions_end_the_run(engine, adapter, clock, store):
    chat = group()
    run = await start(engine, chat)
    for _ in range(2):
        clock.advance(30)
        await engine.run_due()
        clock.advance(5)
        await engine.run_due()
    assert len(adapter.questions) == 2 and engine.run_in(chat) is None
    _, podium = adapter.sent[-1]
    assert "without answers" in podium.title
    assert await store.run_status(run.id) is RunStatus.SILENT


async def test_one_run_per_chat_and_topic_outcomes(engine, adapter):
    chat = group()
    assert (await engine.start(chat, "nothing-like-this", player(1))).status is StartStatus.UNKNOWN
    assert (await engine.start(chat, "", player(1))).status is StartStatus.CATALOG
    await start(engine, chat)
    again = await engine.start(chat, "demo", player(2))
    assert again.status is StartStatus.RUNNING
    assert (await engine.start(group("g2"), "other", player(2))).status is StartStatus.STARTED


async def test_question_count_plays_a_subset(engine, adapter, clock):
    chat = private()
    run = await start(engine, chat, count=2)
    assert run.total == 2 and adapter.questions[-1].total == 2


async def test_stop_only_by_starter_or_admin(engine, adapter):
    chat, starter, other = group(), player(1), player(2)
    await start(engine, chat, by=starter)
    assert (await engine.stop(chat, other, is_admin=False)).status is StopStatus.REFUSED
    assert engine.run_in(chat) is not None
    assert (await engine.stop(chat, other, is_admin=True)).status is StopStatus.STOPPED
    assert engine.run_in(chat) is None
    assert adapter.reveals and "stopped" in adapter.sent[-1][1].title.lower()
    await start(engine, chat, by=starter)
    assert (await engine.stop(chat, starter, is_admin=False)).status is StopStatus.STOPPED
    assert (await engine.stop(chat, starter, is_admin=False)).status is StopStatus.NONE


async def test_options_are_shuffled_per_run_and_stable_within_it(engine, adapter, quiz, clock):
    orders = set()
    for n in range(12):
        chat = private(f"p{n}")
        run = await start(engine, chat)
        card = adapter.questions[-1]
        orders.add(tuple(o.text for o in card.options))
        from bot.domain.session import card as make_card

        assert tuple(o.text for o in make_card(run).options) == tuple(o.text for o in card.options)
        await engine.stop(chat, player(1), is_admin=True)
    assert len(orders) > 1, "twelve runs all showed the same option order"


async def test_a_question_whose_order_means_something_keeps_it_in_every_run(store, clock):
    fixed = make_quiz("lettered", questions=2)
    fixed = replace(fixed, questions=tuple(replace(q, shuffle=False) for q in fixed.questions))
    engine = build(Catalog.from_quizzes([fixed]), store, clock, EngineSettings()).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    for n in range(8):
        chat = private(f"p{n}")
        await start(engine, chat, quiz_topic="lettered")
        card = adapter.questions[-1]
        assert [o.text for o in card.options] == [o.get("en") for o in fixed.questions[0].options]
        assert card.options[fixed.questions[0].answer].letter == "A"  # question 1's right answer, first as written
        await engine.stop(chat, player(1), is_admin=True)


async def test_restart_resumes_the_run_and_old_buttons_still_count(quiz, store, clock, tmp_path):
    catalog = Catalog.from_quizzes([quiz])
    first_adapter = RecordingAdapter()
    first = build(catalog, store, clock, EngineSettings()).engine
    first.attach(first_adapter)
    chat, ann, bob = group(), player(1, "Ann"), player(2, "Bob")
    await start(first, chat)
    old_card = first_adapter.questions[-1]
    await first.answer(first_adapter.token(first_adapter.right_letter(quiz)), ann)

    # a new engine on the same database: the first is gone without any goodbye
    second_adapter = RecordingAdapter()
    second = build(catalog, store, clock, EngineSettings()).engine
    second.attach(second_adapter)
    assert await second.resume() == 1
    clock.advance(10)
    late_press = await second.answer(first_adapter.token(first_adapter.wrong_letter(quiz, old_card), old_card), bob)
    assert late_press.accepted
    repeat = await second.answer(first_adapter.token("A", old_card), ann)
    assert not repeat.accepted
    clock.advance(20)
    await second.run_due()
    _, reveal = second_adapter.reveals[-1]
    assert reveal.card.number == 1 and sum(reveal.counts) == 2
    assert [s.name for s in reveal.scorers] == ["Ann"]
    clock.advance(5)
    await second.run_due()
    assert second_adapter.questions[-1].number == 2


async def test_deadline_passed_while_down_closes_at_once(quiz, store, clock):
    catalog = Catalog.from_quizzes([quiz])
    first = build(catalog, store, clock, EngineSettings()).engine
    first.attach(RecordingAdapter())
    await start(first, group())
    clock.advance(120)
    adapter = RecordingAdapter()
    second = build(catalog, store, clock, EngineSettings()).engine
    second.attach(adapter)
    await second.resume()
    await second.run_due()
    assert adapter.reveals and adapter.reveals[0][1].card.number == 1


async def test_a_failed_post_is_tried_again_at_once_then_after_a_back_off(engine, adapter, clock):
    chat = group()
    adapter.fail_posts = 2
    await engine.start(chat, "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    assert not adapter.questions
    clock.advance(1)
    await engine.run_due()
    assert [card.number for card in adapter.questions] == [1]


async def eventually(condition, tries: int = 500) -> None:
    """Let the timer loop run (it shares this event loop) until the condition holds."""
    import asyncio

    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the condition never held")


async def test_the_timer_loop_closes_at_the_deadline_on_the_injected_clock(engine, adapter, clock):
    import asyncio

    timers = asyncio.create_task(engine.serve())
    try:
        await engine.start(group(), "demo", player(1))
        clock.advance(3)
        await eventually(lambda: len(adapter.questions) == 1)
        clock.advance(29)
        await asyncio.sleep(0.02)
        assert not adapter.reveals, "closed before its deadline"
        clock.advance(1)
        await eventually(lambda: len(adapter.reveals) == 1)
        clock.advance(5)
        await eventually(lambda: len(adapter.questions) == 2)
    finally:
        timers.cancel()


async def test_a_slow_post_does_not_eat_the_players_time(engine, adapter, clock, quiz):
    class SlowAdapter(RecordingAdapter):
        async def post_question(self, card):
            clock.advance(4)  # the platform held the message (a rate limit, a retry)
            return await super().post_question(card)

    slow = SlowAdapter()
    engine.attach(slow)
    chat = group()
    await engine.start(chat, "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    clock.advance(28)  # 32 s after the post was asked for, 28 s after players could see it
    assert (await engine.answer(slow.token("A"), player(1))).accepted
    await engine.run_due()
    assert not slow.reveals


async def test_the_timer_loop_serves_many_chats_each_at_its_own_time(engine, adapter, clock):
    import asyncio

    timers = asyncio.create_task(engine.serve())
    try:
        for n in range(60):
            await engine.start(group(f"g{n}"), "demo", player(1))
            clock.advance(0.5)  # staggered: every chat has its own deadlines
        clock.advance(3)
        await eventually(lambda: len(adapter.questions) == 60)
        clock.advance(30)
        await eventually(lambda: len(adapter.reveals) == 60)
        assert len({r.card.chat.chat_id for _, r in adapter.reveals}) == 60
    finally:
        timers.cancel()


async def test_a_quiz_whose_last_two_questions_go_unanswered_is_over_not_abandoned(engine, adapter, clock, quiz):
    chat, ann = group(), player(1)
    await start(engine, chat, count=3)
    await engine.answer(adapter.token(adapter.right_letter(quiz)), ann)
    for _ in range(3):
        clock.advance(30)
        await engine.run_due()
        clock.advance(5)
        await engine.run_due()
    _, podium = adapter.sent[-1]
    assert len(adapter.questions) == 3 and podium.title.startswith("🏁")
