"""A 45 s outage of the Bot API in the middle of a group quiz loses nothing.

Found in a test: an outage of alternating HTTP 500s and dropped connections, with the outbox
sending a message at most once more after a try that may have landed: when it ended, question
1's reveal never came and question 2 was never asked. Now every message is tried until
Telegram acknowledges it. `quizhost run` plays against the fake Bot API, whose outage starts
while question 1 is open and lasts over its deadline (45 s on the FakeClock the bot and the fake
share; the bot's own short retries run in real time). Run with `pytest -s` for the transcript.
"""

from __future__ import annotations

import asyncio
import html

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_methods import Call
from tests.support.telegram_harness import (
    Member,
    fake,  # noqa: F401 - a fixture
    next_question,
    quiz_folder,
    reveal_of,
    right_letter,
    running_bot,
    settings_for,
    wrong_letter,
)

OUTAGE_SECONDS = 45.0
WRITES = ("sendMessage", "editMessageText")


async def time_passes(clock: FakeClock, seconds: float) -> None:
    """`seconds` on the shared clock, a second at a time, with real time for the bot to act."""
    for _ in range(int(seconds)):
        clock.advance(1)
        await asyncio.sleep(0.03)


def transcript(fake: FakeBotApi, chat: dict, start: float) -> list[str]:
    """Every write to the chat as it happened (seconds from the outage's start), then the chat
    as its members see it at the end."""
    lines = []
    for c in (c for c in fake.calls if c.method in WRITES and c.params.get("chat_id") == chat["id"]):
        outcome = "ok" if c.status == 200 else (c.error or str(c.status))
        lines.append(f"{c.at - start:+7.1f} s  {c.method:<15} {_what(c):<34} {outcome}")
    lines.append("--- the chat at the end ---")
    for m in fake.sent_to(chat):
        edited = f", edited {m.edits}x" if m.edits else ""
        lines.append(f"#{m.message_id} ({len(m.buttons())} buttons{edited}):")
        lines += [f"    {line}" for line in m.text.splitlines()]
    return lines


def _what(call: Call) -> str:
    text = html.unescape(call.params.get("text", "").replace("<b>", "").replace("</b>", ""))
    target = f"#{call.params['message_id']} " if "message_id" in call.params else ""
    return target + text.splitlines()[0][:28]


async def test_a_45_second_outage_mid_quiz_loses_no_question_and_no_reveal(fake, tmp_path, monkeypatch):
    clock = FakeClock()
    fake.stamp = clock.now  # the outage is timed on the clock the bot runs on
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # retries: not this test's budget
    quiz = Catalog.load([quiz_folder(tmp_path)]).get("tiny")
    assert quiz is not None
    group = fake.group(-1045, "Outage group")
    ann, bob = (Member(fake, group, fake.user(50 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    async with running_bot(fake, settings_for(fake, tmp_path, quizhost_pause_seconds=3), clock):
        await ann.says("/quiz tiny")
        await time_passes(clock, 3)  # the pause before the first question
        q1 = await next_question(fake, group, 1)
        assert (await ann.presses(q1, right_letter(q1, quiz))).text.startswith("Locked in")
        assert (await bob.presses(q1, wrong_letter(q1, quiz))).text.startswith("Locked in")
        await time_passes(clock, 20)
        start = clock.now()
        fake.outage(OUTAGE_SECONDS)  # from 10 s before question 1's deadline
        await time_passes(clock, OUTAGE_SECONDS)
        for _ in range(20):  # once it is over, a back-off's 15 s at most, and the pause
            if len(fake.questions(group)) > 1:
                break
            await time_passes(clock, 1)

        await reveal_of(fake, group, q1)
        for number in (2, 3):
            q = await next_question(fake, group, number)  # after the pause
            for member in (ann, bob):  # everyone answered: the question closes at once
                assert (await member.presses(q, right_letter(q, quiz))).text.startswith("Locked in")
            await reveal_of(fake, group, q)
            await time_passes(clock, 3)
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="the podium")
        await asyncio.sleep(0.5)  # a repeat would come now

    print("\n" + "\n".join(transcript(fake, group, start)))
    failed = [c for c in fake.calls if c.method in WRITES and c.status != 200 and c.at >= start]
    assert {c.error for c in failed} == {"Internal Server Error", "connection dropped"}, "the outage happened"
    assert all(c.at < start + OUTAGE_SECONDS for c in failed), "after the outage every write went through"
    questions = fake.questions(group)
    assert [q.text.splitlines()[0] for q in questions] == [f"Question {n}/3 · Tiny <Quiz> & Co" for n in (1, 2, 3)]
    assert all(q.edits == 1 and "Right answer" in q.text and not q.keyboard for q in questions), (
        "every question revealed exactly once, by its closing edit"
    )
    assert "Ann +1000" in q1.text and "Bob" not in q1.text.split("Scored:")[1]
    assert sum("Quiz over" in m.text for m in fake.sent_to(group)) == 1
    assert len(fake.sent_to(group)) == 5, "the start reply, three questions, the podium: nothing else"
