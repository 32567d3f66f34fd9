"""One user cannot spend the bot's sending budget: a member flooding commands gets a few
replies, one "slow down" and then silence, and another group's quiz goes on meanwhile; 1,000
messages after a dead deep link draw one refusal a minute. `quizhost run` (real PTB) against
the fake Bot API, the engine on a FakeClock (the budgets refill on it)."""

from __future__ import annotations

import time

import pytest

from bot.commands.budget import BURST, DEAD_SECONDS
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import ANONYMOUS_ADMIN, Call, FakeBotApi
from tests.support.telegram_harness import (  # noqa: F401 (fake: a fixture)
    Member,
    fake,
    next_question,
    running_bot,
    settings_for,
)

FLOOD = 300
SLOW_DOWN = "You are sending me a lot at once"


def replies_to(fake: FakeBotApi, chat: dict, since: int = 0, until: int | None = None) -> list[Call]:
    calls = fake.calls[since:until]
    return [c for c in calls if c.method == "sendMessage" and c.params.get("chat_id") == chat["id"]]


async def flood(fake: FakeBotApi, chat: dict, user: dict, text: str, times: int) -> None:
    for _ in range(times):
        await fake.send_text(chat, user, text)


@pytest.mark.parametrize("where", ["group", "private"])
async def test_a_member_flooding_help_gets_one_slow_down_and_another_groups_quiz_goes_on(fake, tmp_path, where):
    """In a group the 300 replies used to queue on its 20 a minute and hold every update handler,
    so the other group's /quiz was not even read; in private they took the bot's 30 a second,
    and the other group's first question came after all of them (11 s). Prints the delay of a
    first question with no flood (group C) and during it (group B)."""
    clock = FakeClock()
    group_a, group_b, group_c = fake.group(-1001, "A"), fake.group(-1002, "B"), fake.group(-1003, "C")
    ann, bob, cy = fake.user(11, "Ann"), fake.user(12, "Bob"), fake.user(13, "Cy")
    flooded = group_a if where == "group" else fake.private(ann)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        quiet = await first_question_delay(fake, group_c, cy)
        before = len(fake.calls)
        await flood(fake, flooded, ann, "/help@QuizHostBot", FLOOD)
        busy = await first_question_delay(fake, group_b, bob)
        asked = len(fake.calls)
        print(f"\nfirst question after /quiz: {quiet:.2f} s alone, {busy:.2f} s during {FLOOD} /help in {where}")
    ahead = replies_to(fake, flooded, before, asked)
    answered = replies_to(fake, flooded, before)  # every update handled: the bot has stopped
    assert len(ahead) < FLOOD // 2, f"{len(ahead)} of Ann's replies went before B's first question"
    assert len(answered) <= BURST + 1
    assert sum(SLOW_DOWN in c.params["text"] for c in answered) == 1


async def first_question_delay(fake: FakeBotApi, group: dict, user: dict) -> float:
    """Seconds (of the machine's time, printed, never asserted) from /quiz to its first question."""
    started = time.monotonic()
    await fake.send_text(group, user, "/quiz@QuizHostBot tiny")
    await fake.wait_for(lambda: fake.questions(group), timeout=60, what=f"{group['title']}'s first question")
    return time.monotonic() - started


async def test_the_budget_refills_and_a_paused_user_is_answered_again(fake, tmp_path):
    clock = FakeClock()
    ann = fake.user(11, "Ann")
    chat = fake.private(ann)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        for _ in range(BURST):
            assert "/quiz" in (await Member(fake, chat, ann).says("/help")).text
        assert SLOW_DOWN in (await Member(fake, chat, ann).says("/help")).text
        clock.advance(60)  # a pause: the bucket is full again, and so is the slow-down's
        assert "/quiz" in (await Member(fake, chat, ann).says("/help")).text


TYPED_QUIZ = """\
id: typed-one
title: "One typed question"
description: "A typed answer, for the budget tests."
questions:
  - id: capital
    kind: typed
    prompt: "Which city is the capital of France?"
    accept: ["Paris"]
"""


async def test_a_thousand_messages_after_a_dead_deep_link_draw_one_refusal_a_minute(fake, tmp_path):
    """They drew 96 refusals in 3 s, at the bot's 30 a second. Ann opens a typed question's
    Answer link, the quiz is stopped, and she sends 1,000 messages; a minute later she opens the
    dead link 1,000 times: one refusal each minute, nothing more."""
    clock = FakeClock()
    fake.stamp = clock.now  # each call stamped with the minute it was made in
    group, ann, bob = fake.group(-1001, "A"), fake.user(11, "Ann"), fake.user(12, "Bob")
    chat = fake.private(ann)
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "typed.yaml").write_text(TYPED_QUIZ, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await Member(fake, group, ann).says("/quiz@QuizHostBot typed-one")
        question = await next_question(fake, group, 1)
        link = f"/start {question.buttons()[0]['url'].split('start=')[1]}"
        assert "capital of France" in (await Member(fake, chat, ann).says(link)).text
        await Member(fake, group, ann).says("/stop@QuizHostBot")
        opened = len(fake.calls)
        await flood(fake, chat, ann, "Lyon", 1000)
        await read_all(fake, bob)
        clock.advance(DEAD_SECONDS)
        await flood(fake, chat, ann, link, 1000)
        await read_all(fake, bob)
    said = [c.at for c in replies_to(fake, chat, opened)]
    assert len(said) == 2 and said[1] - said[0] >= DEAD_SECONDS, said


async def test_anonymous_admins_of_two_groups_have_a_budget_each(fake, tmp_path):
    """Telegram shows every group's anonymous admins as one user (ANONYMOUS_ADMIN)."""
    clock = FakeClock()
    one, two = fake.group(-1001, "One"), fake.group(-1002, "Two")
    admin = fake.user(ANONYMOUS_ADMIN, "Group", language=None)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        for _ in range(BURST):
            assert "/quiz" in (await Member(fake, one, admin).says("/help", sender_chat=one)).text
        assert SLOW_DOWN in (await Member(fake, one, admin).says("/help", sender_chat=one)).text
        assert "/quiz" in (await Member(fake, two, admin).says("/help", sender_chat=two)).text


async def read_all(fake: FakeBotApi, someone: dict) -> None:
    """Until the bot has read every update sent so far: those before `someone`'s /help in theirs."""
    await Member(fake, fake.private(someone), someone).says("/help")


async def test_unknown_commands_are_refused_once_a_minute_each_and_within_the_bucket(fake, tmp_path):
    """The same unknown command 100 times: one refusal; 100 different ones: the bucket's worth."""
    clock = FakeClock()
    ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
    chat = fake.private(ann)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await flood(fake, chat, ann, "/nosuch", 100)
        await read_all(fake, bob)
        same = len(replies_to(fake, chat))
        for n in range(100):
            await fake.send_text(chat, ann, f"/nosuch{n}")
        await read_all(fake, bob)
    said = [c.params["text"] for c in replies_to(fake, chat)]
    assert same == 1 and "Unknown command /nosuch" in said[0]
    assert len(said) <= BURST and all(text.startswith("Unknown command") for text in said), said
