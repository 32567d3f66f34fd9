"""Rounds and hints written in the chat on Telegram, and a quiz file of rounds uploaded: `quizhost
run` against the fake Bot API. What is saved plays its rounds, the second one's points doubled."""

from __future__ import annotations

from bot.adapters.telegram import runtime as telegram_runtime
from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_authoring import sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_rounds import ROUNDS_QUIZ
from tests.adapters.telegram.test_telegram_uploads import sends_file
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

LARGEST = poll_json("Which planet is the largest?", ["Mars", "Jupiter"], 1, "Jupiter is 11 Earths wide.")
MOONS = poll_json("How many moons has Mars?", ["One", "Two"], 1, "Phobos and Deimos.")
SUN = poll_json("What is the Sun?", ["A planet", "A star"], 1, "A main-sequence star.")


async def test_hints_and_rounds_written_in_the_chat_are_saved_and_played(fake, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)
    ann = Member(fake, fake.private(fake.user(401, "Ann")), fake.user(401, "Ann"))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert (await ann.says("/hint A gas giant")).text == "You have no quiz draft. /newquiz starts one."
        await ann.says("/newquiz Planets night")
        assert "hint" in (await ann.says("/hint A gas giant")).text.casefold(), "no question yet: how to"
        assert (await sends_poll(ann, LARGEST)).text == "Question 1 added: Which planet is the largest?"
        assert (await ann.says("/hint   A gas   giant")).text == "Hint for question 1: A gas giant"
        refused = await ann.says("/round Finale x20")
        assert refused.text.endswith("A round's points multiplier is 0.5 to 10")
        assert (await ann.says("/round Finale")).text == "Round 2: Finale. The next questions belong to it."
        started = await ann.says("/round Double x2")  # renames the round nothing was written in yet
        assert started.text == "Round 2: Double. The next questions belong to it. points ×2"
        await sends_poll(ann, MOONS)
        await sends_poll(ann, SUN)
        listing = await ann.says("/newquiz")
        assert "— Round 1 —\n1. Which planet is the largest?\n— Double —\n2. How many moons" in listing.text
        saved = await ann.says("/done")
        assert saved.text.startswith("Saved “Planets night”: 3 questions. /quiz planets-night plays it here")

        await ann.says("/quiz planets-night")
        gains = []
        for number in range(1, 4):
            q = await next_question(fake, ann.chat, number)
            await ann.presses(q, _right_letter(q))  # at once: 1000 and her streak's bonus
            reveal = await reveal_of(fake, ann.chat, q)
            gains.append(reveal.text.split("+")[1].split()[0] if "+" in reveal.text else "")
        said = [m.text.splitlines()[0] for m in fake.sent_to(ann.chat)]
    assert gains == ["1000", "2200", "2400"], "the second round's points doubled"
    assert "Round 1 of 2: Round 1" in said and "Round 2 of 2: Double · points ×2" in said
    assert said.index("📊 Standings after Round 1") < said.index("Round 2 of 2: Double · points ×2")


def _right_letter(question) -> str:
    """The letter of the right option: these polls' right options are Jupiter, Two, A star."""
    right = {"Jupiter", "Two", "A star"}
    line = next(line for line in question.text.splitlines() if line[3:] in right)
    return line[0]


async def test_a_quiz_file_of_rounds_uploaded_in_a_group_keeps_its_rounds(fake, clock, tmp_path):
    group = fake.group(-4001, "Pub")
    ann = Member(fake, group, fake.user(402, "Ann"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        reply = await sends_file(ann, "night.yaml", ROUNDS_QUIZ.encode())
        assert "Saved" in reply.text and "4 questions" in reply.text
        await ann.says("/quiz night")
        first = await next_question(fake, group, 1)
        said = [m.text.splitlines()[0] for m in fake.sent_to(group)]
        assert said[said.index(first.text.splitlines()[0]) - 1] == "Round 1 of 2: Warm-up"
        await ann.says("/stop")
