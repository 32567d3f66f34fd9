"""A quiz written in the chat with every kind a Telegram poll makes (issues #22 and #23): a quiz
poll with several right options is a select-all-that-apply question, a regular poll a poll. The
author saves it, plays it in the private chat through to each reveal, and its export names the
kinds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from bot.testing.fake_telegram import Sent
from bot.testing.fake_telegram_polls import poll_json
from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_authoring import sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of  # noqa: F401 (the fixtures)
from tests.support.chat_transcript import Transcript
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

TRANSCRIPT = Path("/tmp/authoring-transcript-kinds.md")

GIANTS = poll_json("Which planets are gas giants?", ["Jupiter", "Mars", "Saturn", "Venus"], [0, 2], "Mostly hydrogen.")
FAVOURITE = poll_json("Which planet do you like best?", ["Mars", "Saturn", "Earth"], quiz=False)


def letter_of(question: Sent, option: str) -> str:
    """The letter an option got on the card (options may be shuffled)."""
    return next(
        m.group(1)
        for line in strip(question.text).splitlines()
        if (m := re.fullmatch(r"(?:✅ |▫️ )?([A-J])\) (.*?)(?: · \d+)?", line)) and m.group(2) == option
    )


async def test_a_chat_made_quiz_with_a_multi_and_a_poll_plays_to_the_reveals_and_exports_its_kinds(
    fake, clock, tmp_path
):
    user = fake.user(401, "Ann")
    ann = Member(fake, fake.private(user), user)
    settings = settings_for(fake, tmp_path)
    log = Transcript(fake)
    log.chat(ann.chat, "Ann's private chat with the bot")
    async with running_bot(fake, settings, clock):
        await log.step(ann.chat, "Ann", "/newquiz Planet mix", ann.says("/newquiz Planet mix"))
        said = "(a quiz poll, two right options) " + GIANTS["question"]
        multi = await log.step(ann.chat, "Ann", said, sends_poll(ann, GIANTS))
        assert multi.text == "Question 1 added: Which planets are gas giants?"
        said = "(a regular poll) " + FAVOURITE["question"]
        poll = await log.step(ann.chat, "Ann", said, sends_poll(ann, FAVOURITE))
        assert poll.text == "Question 2 added: Which planet do you like best?"
        saved = await log.step(ann.chat, "Ann", "/done", ann.says("/done"))
        assert saved.text.startswith("Saved “Planet mix”: 2 questions.")

        await log.step(ann.chat, "Ann", "/quiz planet-mix", ann.says("/quiz planet-mix"))
        first = await next_question(fake, ann.chat, 1)
        assert "Select all that apply" in first.text
        jupiter, saturn = letter_of(first, "Jupiter"), letter_of(first, "Saturn")
        picked = await log.step(ann.chat, "Ann", f"presses {jupiter}", ann.presses(first, jupiter), message=False)
        assert picked.text == f"Your picks: {jupiter}"
        picked = await log.step(ann.chat, "Ann", f"presses {saturn}", ann.presses(first, saturn), message=False)
        assert picked.text == f"Your picks: {', '.join(sorted((jupiter, saturn)))}"
        clock.advance(30)  # the picks count as they stand when the question's time is up
        revealed = strip((await reveal_of(fake, ann.chat, first)).text)
        assert f"✅ {jupiter}) Jupiter" in revealed and f"✅ {saturn}) Saturn" in revealed
        assert "Mostly hydrogen." in revealed

        second = await next_question(fake, ann.chat, 2)
        liked = letter_of(second, "Saturn")
        await log.step(ann.chat, "Ann", f"presses {liked}", ann.presses(second, liked), message=False)
        split = strip((await reveal_of(fake, ann.chat, second)).text)
        assert "✅" not in split and "📊 Poll results" in split, "a poll has no right option, only its split"
        assert re.search(rf"^{liked} 1 ▓+$", split, re.MULTILINE), split
        podium = await podium_of(fake, ann.chat)
        assert "Ann" in podium.text
    log.write(
        TRANSCRIPT,
        "A chat-made quiz with a select-all-that-apply question and a poll (test_telegram_authoring_kinds.py)",
        ["Ann's presses are acknowledged privately (“Your picks: …”); the picks stand when the time is up."],
    )

    exported = subprocess.run(
        [sys.executable, "-m", "bot.cli", "export", "planet-mix", "--chat", "telegram:401", "--format", "yaml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "QUIZHOST_DB": str(settings.quizhost_db)},
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    questions = yaml.safe_load(exported.stdout)["questions"]
    assert [q.get("kind") for q in questions] == ["multi", "poll"]
    assert questions[0]["answer"] == [0, 2] and questions[1]["options"] == ["Mars", "Saturn", "Earth"]
