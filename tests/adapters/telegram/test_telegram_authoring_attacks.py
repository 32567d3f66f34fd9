"""Writing a quiz in the chat on Telegram, tried as an attacker would (issue #46): question numbers
out of range or absurd, a draft past what a quiz file may be, stale Undo buttons. Each gets a
clear answer in the author's language and changes nothing it should not."""

from __future__ import annotations

import time

from bot.commands.budget import REFILL_SECONDS
from bot.content.importers.common import MAX_FILE_BYTES
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi, Sent
from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_authoring import answer_in, sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, running_bot, settings_for

NUMBER = "Give a question number: the draft has 3 questions."


class Author(Member):
    """A person writing a quiz, a few seconds between commands: one user's replies come from a
    budget that refills with time (bot/commands/budget.py), and the test's clock stands still."""

    def __init__(self, fake: FakeBotApi, chat: dict, user: dict, clock: FakeClock) -> None:
        super().__init__(fake, chat, user)
        self.clock = clock

    async def says(self, text: str, sender_chat: dict | None = None) -> Sent:
        self.clock.advance(REFILL_SECONDS)
        return await super().says(text, sender_chat)


def poll(n: int) -> dict:
    return poll_json(f"Question number {n}?", ["Yes", "No"], 0)


async def three_questions(ann: Member) -> None:
    await ann.says("/newquiz Numbers")
    for n in (1, 2, 3):
        assert (await sends_poll(ann, poll(n))).text == f"Question {n} added: Question number {n}?"


async def listing(ann: Member) -> str:
    """The draft as /newquiz lists it (the draft open: nothing changes)."""
    return (await ann.says("/newquiz")).text


async def test_absurd_question_numbers_are_refused_and_change_nothing(fake, clock, tmp_path):
    user = fake.user(601, "Ann")
    ann = Author(fake, fake.private(user), user, clock)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await three_questions(ann)
        before = await listing(ann)
        for typed in (
            "/edit 99999999999999999999",
            "/edit 0",
            "/edit -1",
            "/edit 00012",  # its first four digits name question 1
            "/delete 00012",
            "/delete 0003" + "0" * 4000,
            "/move 00012 1",
            "/edit ²",  # a digit, not a decimal
        ):
            assert (await ann.says(typed)).text == NUMBER, typed
        for typed in ("/move 1 -1", "/move 1 0", "/move 1 99999999999999999999", "/move 1 " + "9" * 4000):
            assert (await ann.says(typed)).text.startswith("Usage: /move N M"), typed
        assert await listing(ann) == before
        assert (await ann.says("/delete 003")).text.startswith("📝 Numbers\n\nQuestion 3 removed.")
        empty = await ann.says("/newquiz Other")  # a second draft at once: the first one is shown
        assert empty.text.startswith("📝 Numbers\n\nYou are writing a quiz already")


async def test_done_on_an_empty_draft_and_without_one(fake, clock, tmp_path):
    user = fake.user(602, "Ann")
    ann = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert (await ann.says("/done")).text == "You have no quiz draft. /newquiz starts one."
        await ann.says("/newquiz Empty")
        assert (await ann.says("/done")).text == "The draft has no question yet: send a quiz poll first."
        assert (await ann.says("/edit 1")).text == "Give a question number: the draft has 0 questions."
        assert (await ann.says("/quiz empty")).text != ""  # nothing was saved under its name
        assert "Empty" not in (await ann.says("/quizzes")).text


async def test_an_undo_button_of_a_question_taken_back_does_not_remove_the_next_one(fake, clock, tmp_path):
    """Undo, then a new question, then the old Undo again: it names a question that is gone."""
    user = fake.user(603, "Ann")
    ann = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await three_questions(ann)
        third = next(m for m in fake.sent_to(ann.chat) if m.text == "Question 3 added: Question number 3?")
        undo = third.buttons()[0]["callback_data"]
        assert "Question 3 removed." in (await answer_in(ann, ann.presses_data(third.message_id, undo))).text
        assert (await sends_poll(ann, poll(4))).text == "Question 3 added: Question number 4?"
        again = await ann.presses_data(third.message_id, undo)
        assert again.text == "That question is not in your draft any more."
        assert "3. Question number 4?" in await listing(ann)


async def test_an_undo_button_of_a_saved_draft_does_not_touch_the_next_draft(fake, clock, tmp_path):
    user = fake.user(604, "Ann")
    ann = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await three_questions(ann)
        first = next(m for m in fake.sent_to(ann.chat) if m.text == "Question 1 added: Question number 1?")
        assert (await ann.says("/done")).text.startswith("Saved “Numbers”: 3 questions.")
        await ann.says("/newquiz Next")
        await sends_poll(ann, poll(5))
        stale = await ann.presses_data(first.message_id, first.buttons()[0]["callback_data"])
        assert stale.text == "That question is not in your draft any more."
        assert "1. Question number 5?" in await listing(ann)


async def test_a_draft_stops_at_the_size_a_quiz_file_may_be(fake, clock, tmp_path):
    """Polls as long as Telegram lets a user make them (300-character question, ten options of
    100, an explanation of 200), in a script of four bytes a character: about 6 kB a question, so
    the 500 questions a quiz may hold would be 3 MB. The draft stops at 1 MB with a clear answer,
    and /done saves what it holds."""
    wide = "𝒜"  # U+1D49C: four bytes in UTF-8
    user = fake.user(605, "Ann")
    ann = Member(fake, fake.private(user), user)

    def big(n: int) -> dict:
        options = [f"{i}{wide * 99}" for i in range(10)]
        return poll_json(f"{n:03}{wide * 297}", options, 0, wide * 200)

    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/newquiz Wide")
        started, n = time.perf_counter(), 0
        while True:
            n += 1
            answer = await sends_poll(ann, big(n))
            if not answer.text.startswith("Question "):
                break
            assert n < 300, "the draft took more than 1 MB of questions"
        print(f"\n{n - 1} questions of about 6 kB were taken, in {time.perf_counter() - started:.1f} s")
        assert answer.text == (
            "This question would make the quiz larger than 1 MB, the most a quiz may be: nothing changed. "
            "/done saves it as it is."
        )
        assert 150 < n - 1 < 170
        assert (await ann.says("/edit 1 short | yes | *no")).text == "Question 1 replaced: short"
        saved = await ann.says("/done")
        assert saved.text.startswith(f"Saved “Wide”: {n - 1} questions."), saved.text
        assert MAX_FILE_BYTES == 1_000_000


async def test_a_poll_sent_for_edit_n_replaces_that_question_after_others_moved(fake, clock, tmp_path):
    """/edit 3, then question 1 deleted and the rest moved: the poll that follows replaces the
    question /edit named, wherever it is now, not whichever question took its number."""
    user = fake.user(606, "Ann")
    ann = Author(fake, fake.private(user), user, clock)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await three_questions(ann)
        await sends_poll(ann, poll(4))
        assert (await ann.says("/edit 3")).text.startswith("Send the new poll for question 3")
        await ann.says("/delete 1")
        replaced = await sends_poll(ann, poll(30))
        assert replaced.text == "Question 2 replaced: Question number 30?"
        assert "1. Question number 2?\n2. Question number 30?\n3. Question number 4?" in await listing(ann)

        assert (await ann.says("/edit 1")).text.startswith("Send the new poll for question 1")
        await ann.says("/move 1 3")
        assert (await sends_poll(ann, poll(20))).text == "Question 3 replaced: Question number 20?"
        assert "1. Question number 30?\n2. Question number 4?\n3. Question number 20?" in await listing(ann)

        assert (await ann.says("/edit 2")).text.startswith("Send the new poll for question 2")
        await ann.says("/delete 2")  # the question being edited is gone: the next poll is a new one
        assert (await sends_poll(ann, poll(5))).text == "Question 3 added: Question number 5?"


async def test_polls_forwarded_together_all_join_the_draft(fake, clock, tmp_path):
    """Twenty quiz polls selected in a channel and forwarded at once come as twenty updates the
    bot handles together: each becomes a question, numbered in turn; none is lost."""
    user, channel_author = fake.user(607, "Ann"), fake.user(608, "Quiz channel")
    ann = Member(fake, fake.private(user), user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/newquiz Forwarded")
        before = len(fake.sent_to(ann.chat))
        for n in range(1, 21):
            await fake.send_poll(ann.chat, user, poll(n), channel_author)
        await fake.wait_for(lambda: len(fake.sent_to(ann.chat)) >= before + 20, what="twenty answers")
        answers = sorted(m.text.partition(":")[0] for m in fake.sent_to(ann.chat)[before:])
        assert answers == sorted(f"Question {n} added" for n in range(1, 21))
        listed = await listing(ann)
        assert all(f". Question number {n}?" in listed for n in range(1, 21)) and "21." not in listed
