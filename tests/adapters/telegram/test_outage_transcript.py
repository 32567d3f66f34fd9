"""A 45 s outage of the Bot API in the middle of a group quiz loses nothing.

Found in a test: an outage of alternating HTTP 500s and dropped connections, with the outbox
sending a message at most once more after a try that may have landed: when it ended, question
1's reveal never came and question 2 was never asked. Now every message is tried until
Telegram acknowledges it. `quizhost run` plays against the fake Bot API, whose outage starts
while group A's question 1 is open and lasts over its deadline, and while group B's question 1
is due (45 s on the FakeClock the bot and the fake share; the bot's own short retries run in
real time). Run with `pytest -s` for the transcript.
"""

from __future__ import annotations

import asyncio
import html

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog
from bot.domain.model import Quiz
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


async def play_on(fake: FakeBotApi, clock: FakeClock, quiz: Quiz, members: list[Member], first: int) -> None:
    """The members answer questions `first` to 3 right as each comes, then the podium comes."""
    chat = members[0].chat
    for number in range(first, 4):
        q = await next_question(fake, chat, number)
        for member in members:
            assert (await member.presses(q, right_letter(q, quiz))).text.startswith("Locked in")
        while not q.edits:  # everyone who plays answered: it closes at once (the first: at its deadline)
            await time_passes(clock, 1)
        await time_passes(clock, 3)  # the pause
    await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(chat)), what="the podium")


def shown_once(fake: FakeBotApi, chat: dict) -> None:
    """Each question posted once and revealed once, by its closing edit; one podium; nothing else."""
    questions = fake.questions(chat)
    assert [q.text.splitlines()[0] for q in questions] == [f"Question {n}/3 · Tiny <Quiz> & Co" for n in (1, 2, 3)]
    assert all(q.edits == 1 and "Right answer" in q.text and not q.keyboard for q in questions), (
        "every question revealed exactly once, by its closing edit"
    )
    assert sum("Quiz over" in m.text for m in fake.sent_to(chat)) == 1
    assert len(fake.sent_to(chat)) == 5, "the start reply, three questions, the podium: nothing else"


async def test_a_45_second_outage_mid_quiz_loses_no_question_and_no_reveal(fake, tmp_path, monkeypatch):
    """Group A's first question closes during the outage; group B's first question is due
    during it (a post, not an edit); neither group waits for the other afterwards."""
    clock = FakeClock()
    fake.stamp = clock.now  # the outage is timed on the clock the bot runs on
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # retries: not this test's budget
    quiz = Catalog.load([quiz_folder(tmp_path)]).get("tiny")
    assert quiz is not None
    group, other = fake.group(-1045, "Group A"), fake.group(-1046, "Group B")
    ann, bob = (Member(fake, group, fake.user(50 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    cy = Member(fake, other, fake.user(60, "Cy"))
    async with running_bot(fake, settings_for(fake, tmp_path, quizhost_pause_seconds=3), clock):
        await ann.says("/quiz tiny")
        await time_passes(clock, 3)  # the pause before the first question
        q1 = await next_question(fake, group, 1)
        assert (await ann.presses(q1, right_letter(q1, quiz))).text.startswith("Locked in")
        assert (await bob.presses(q1, wrong_letter(q1, quiz))).text.startswith("Locked in")
        await time_passes(clock, 20)
        await cy.says("/quiz tiny")  # group B's first question is due in 3 s
        start = clock.now()
        fake.outage(OUTAGE_SECONDS)  # from 10 s before group A's first deadline
        await time_passes(clock, OUTAGE_SECONDS)
        for _ in range(20):  # once it is over: a back-off's 15 s at most
            if len(fake.questions(group)) > 1 and fake.questions(other):
                break
            await time_passes(clock, 1)

        await reveal_of(fake, group, q1)
        await play_on(fake, clock, quiz, [ann, bob], 2)
        await play_on(fake, clock, quiz, [cy], 1)
        await asyncio.sleep(0.5)  # a repeat would come now

    for chat in (group, other):
        print(f"\n=== {chat['title']} ===\n" + "\n".join(transcript(fake, chat, start)))
    failed = [c for c in fake.calls if c.method in WRITES and c.status != 200 and c.at >= start]
    assert {c.error for c in failed} == {"Internal Server Error", "connection dropped"}, "the outage happened"
    assert {c.method for c in failed} == {"sendMessage", "editMessageText"}, "a post and an edit met it"
    assert all(c.at < start + OUTAGE_SECONDS for c in failed), "after the outage every write went through"
    shown_once(fake, group)
    shown_once(fake, other)
    assert "Ann +1000" in q1.text and "Bob" not in q1.text.split("Scored:")[1]
