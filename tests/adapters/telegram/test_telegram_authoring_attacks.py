"""Writing a quiz in the chat on Telegram, tried as an attacker would (issue #46): question numbers
out of range or absurd. Each gets a clear answer in the author's language and changes nothing."""

from __future__ import annotations

from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_authoring import sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, running_bot, settings_for

NUMBER = "Give a question number: the draft has 3 questions."


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
    ann = Member(fake, fake.private(user), user)
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
