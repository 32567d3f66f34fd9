"""Presses belong to their chat, answers are retried within Telegram's window, and two
/quiz at one moment in one chat start one quiz."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.telegram import runtime as telegram_runtime
from bot.commands.core import Caller
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fakes import group, player
from tests.support.house import house_of
from tests.support.telegram_harness import Member, button, clean_environment, next_question, running_bot, settings_for


async def test_a_token_pressed_in_another_chat_is_refused_and_stored_nowhere(engine, adapter, store, clock):
    commands, here, elsewhere = house_of(engine).commands, group("g1"), group("g2")
    await engine.start(here, "demo", player(1))
    clock.advance(3)
    await engine.run_due()
    token = adapter.token("A")
    copied = await commands.press(token, Caller(elsewhere, player(2)))
    assert not copied.accepted and "not valid" in copied.text
    run = engine.run_in(here)
    assert await store.run_answers(run.id) == []
    assert (await commands.press(token, Caller(here, player(2)))).accepted


async def test_two_quiz_commands_at_one_moment_start_one_quiz(engine):
    commands, chat = house_of(engine).commands, group()
    replies = await asyncio.gather(*(commands.handle("quiz", "demo", Caller(chat, player(n))) for n in (1, 2)))
    kinds = sorted(r.kind for r in replies)
    assert kinds == ["error", "start"], [r.text for r in replies]
    refused = next(r for r in replies if r.kind == "error")
    assert "already running" in refused.text and "Demo quiz" in refused.text
    assert len(engine.open_runs()) == 1


@pytest.fixture
async def fake(monkeypatch):
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)
    monkeypatch.setattr(telegram_runtime, "ANSWER_RETRY_SECONDS", 0.01)
    api = FakeBotApi()
    await api.start()
    yield api
    await api.stop()
    assert api.unanswered() == [], "every button press must be answered"


async def test_telegram_presses_from_another_chat_or_no_message_count_nowhere(fake, tmp_path):
    quiz_group, other_group = fake.group(-1001, "Quiz"), fake.group(-1002, "Elsewhere")
    ann, mallory = fake.user(11, "Ann"), fake.user(66, "Mallory")
    async with running_bot(fake, settings_for(fake, tmp_path), FakeClock()):
        await Member(fake, quiz_group, ann).says("/quiz tiny")
        question = await next_question(fake, quiz_group, 1)
        data = button(question, "A")["callback_data"]
        # the same button data, sent from a message in another chat
        copied = await Member(fake, other_group, mallory).presses_data(question.message_id, data)
        assert "not valid" in copied.text
        # a press with no message at all (an inline message's button)
        query = {"id": "inline1", "from": mallory, "inline_message_id": "x", "chat_instance": "c", "data": data}
        fake.presses["inline1"] = type(fake.presses[next(iter(fake.presses))])("inline1", 0)
        fake._updates.append(
            {"update_id": fake._new_update_id(), "callback_query": query}
        )  # in sequence: a later offset must not skip the next press
        await fake._notify()
        assert "not valid" in (await fake.answer_of("inline1")).text
        own = await Member(fake, quiz_group, ann).presses(question, "A")
        assert "Locked in" in own.text  # the real press in the run's chat counts


async def test_a_press_answer_is_retried_past_three_seconds_worth_of_failures(fake, tmp_path):
    group_chat = fake.group(-1001)
    ann = Member(fake, group_chat, fake.user(11, "Ann"))
    async with running_bot(fake, settings_for(fake, tmp_path), FakeClock()):
        await ann.says("/quiz tiny")
        question = await next_question(fake, group_chat, 1)
        fake.fail("answerCallbackQuery", "500", times=5)  # the fast try, then four in the window
        answer = await ann.presses(question, "A")
        assert "Locked in" in answer.text
        assert fake.failures_left() == 0
