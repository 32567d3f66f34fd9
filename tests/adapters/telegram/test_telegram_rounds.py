"""A quiz of rounds played in a Telegram group: each round announced before its first question,
the standings between rounds only, and a double-points round's points doubled."""

from __future__ import annotations

import pytest

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from tests.support.telegram_harness import (
    Member,
    clean_environment,
    next_question,
    reveal_of,
    right_letter,
    running_bot,
    settings_for,
    wrong_letter,
)

ROUNDS_QUIZ = """\
id: night
title: "Pub night"
description: "Two rounds, the second worth double."
rounds:
  - name: "Warm-up"
    questions:
      - id: sun
        prompt: "Which star is nearest to the Earth?"
        options: ["The Sun", "Proxima Centauri", "Sirius"]
        answer: 0
        hint: "You see it every day."
      - id: water
        prompt: "At sea level, at what temperature does water boil?"
        options: ["90 °C", "100 °C", "120 °C"]
        answer: 1
  - name:
      en: "Double or nothing"
      hi: "दोगुना या कुछ नहीं"
    multiplier: 2
    questions:
      - id: legs
        prompt: "How many legs has a spider?"
        options: ["Six", "Eight", "Ten"]
        answer: 1
      - id: moon
        prompt: "Which planet has the moon Titan?"
        options: ["Jupiter", "Saturn", "Mars"]
        answer: 1
"""


@pytest.fixture
async def fake(monkeypatch):
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # 11 messages in a second
    api = FakeBotApi()
    await api.start()
    yield api
    await api.stop()
    assert api.unanswered() == [], "every button press must be answered"


def night_settings(fake: FakeBotApi, tmp_path):
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "night.yaml").write_text(ROUNDS_QUIZ, encoding="utf-8")
    return settings


async def test_a_quiz_of_two_rounds_announces_each_doubles_the_second_and_ranks_between(fake, tmp_path):
    clock = FakeClock()
    settings = night_settings(fake, tmp_path)
    quiz = Catalog.load([tmp_path / "quizzes"]).get("night")
    group = fake.group(-1002, "Pub")
    ann, bob = Member(fake, group, fake.user(31, "Ann")), Member(fake, group, fake.user(32, "Bob"))
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz night")
        gains = []
        for number in range(1, 5):
            q = await next_question(fake, group, number)
            await ann.presses(q, right_letter(q, quiz))  # at once: 1000 and her streak's bonus
            await bob.presses(q, wrong_letter(q, quiz))
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline: nobody is known yet
            reveal = await reveal_of(fake, group, q)
            gains.append(next(line for line in reveal.text.splitlines() if "Ann +" in line))
        podium = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(group) if "Quiz over" in m.text), None), what="the podium"
        )

    # round 2's ×2: 1000 + 200 and 1000 + 300 of the streak bonus, doubled
    assert [g.split("Ann +")[1].split()[0] for g in gains] == ["1000", "1100", "2400", "2600"]
    assert "🥇 Ann: 7100 pts" in podium.text
    texts = [m.text for m in fake.sent_to(group)]
    said = [t.splitlines()[0] for t in texts[1:]]  # after the start's reply
    questions = [q.text.splitlines()[0] for q in fake.questions(group)]
    assert said == [
        "Round 1 of 2: Warm-up",
        questions[0],
        "💡 Hint for question 1: You see it every day.",  # half its time went by: a timed game's hint
        questions[1],
        "📊 Standings after Warm-up",
        "Round 2 of 2: Double or nothing · points ×2",
        questions[2],
        questions[3],
        podium.text.splitlines()[0],
    ]
    standings = next(t for t in texts if t.startswith("📊"))
    assert "🥇 Ann: 2100 pts" in standings and "🥈 Bob: 0 pts" in standings
    assert sum("Standings" in t for t in texts) == 1, "standings between rounds only"
