"""Honest numbers, end to end: five members of a Telegram group play the kinds tour, answering
right, partly right, wrong, voting and skipping, and every place that says what an answer was
worth says the same: the reveal, the podium and the boards (through python-telegram-bot against
the fake Bot API), then the statistics, the run report and the downloads read from the same
database (tests/adapters/web/test_honest_report.py reads them in a browser)."""

from __future__ import annotations

import re

from bot.testing.fake_telegram import FakeBotApi
from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_kinds import QUIZ, Player
from tests.support.telegram_harness import next_question, reveal_of, running_bot, settings_for
from tests.support.transcript import Transcript

STEPS = [o.get("en") for o in QUIZ.questions[6].options]  # the file lists them in the right order
RIGHT_PICKS = [QUIZ.questions[1].options[i].get("en") for i in QUIZ.questions[1].answers]


async def play_the_tour(fake: FakeBotApi, clock, tmp_path) -> dict[str, str]:
    """Play the tour in a group: Ann right throughout; Bob partly right (two of three picks, two
    steps of four in place), right, wrong and once silent; Cy wrong throughout; Dee answers the
    first question only. Everyone but Dee votes in the poll. The texts the group saw, by name."""
    log = Transcript("Five members play the kinds tour: right, partly right, wrong, votes and skips")
    group = fake.group(-1481, "Honest numbers")
    fake.bot_deletes_in.add(group["id"])
    names = ("Ann", "Bob", "Cy", "Dee")
    ann, bob, cy, dee = (Player(fake, group, fake.user(80 + i, n), log) for i, n in enumerate(names, 1))
    fake.expected_refusals.add("Bad Request: chat not found")  # acks to private chats never opened
    seen: dict[str, str] = {}
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/quiz kinds-tour")
        q1 = await next_question(fake, group, 1)
        for who, text in ((ann, "3/7"), (bob, "3/7"), (cy, "1/4"), (dee, "3/7")):
            await who.picks(q1, text)
        clock.advance(30)
        await reveal_of(fake, group, q1)

        q2 = await next_question(fake, group, 2)
        for text in RIGHT_PICKS:
            await ann.picks(q2, text)
        for text in RIGHT_PICKS[:2]:
            await bob.picks(q2, text)
        await cy.picks(q2, "Gradient accumulation")
        clock.advance(30)  # a group has no Done: the deadline ends the picking
        seen["multi"] = strip((await reveal_of(fake, group, q2)).text)

        q3 = await next_question(fake, group, 3)
        for who, text in ((ann, "True"), (bob, "False"), (cy, "False")):
            await who.picks(q3, text)
        clock.advance(30)  # Dee is known and silent: the question waits for its deadline
        await reveal_of(fake, group, q3)

        q4 = await next_question(fake, group, 4)
        typed = [await ann.replies(q4, "allreduce"), await cy.replies(q4, "broadcast")]
        await taken(fake, group, typed)
        clock.advance(30)
        await reveal_of(fake, group, q4)

        q5 = await next_question(fake, group, 5)
        typed = [await who.replies(q5, text) for who, text in ((ann, "14"), (bob, "13,9"), (cy, "7"))]
        await taken(fake, group, typed)
        clock.advance(30)
        await reveal_of(fake, group, q5)

        q6 = await next_question(fake, group, 6)
        for who, text in ((ann, "FSDP / ZeRO-3"), (bob, "Pipeline parallelism"), (cy, "FSDP / ZeRO-3")):
            await who.picks(q6, text)
        clock.advance(30)
        seen["poll"] = strip((await reveal_of(fake, group, q6)).text)

        q7 = await next_question(fake, group, 7)
        for step in STEPS:
            await ann.picks(q7, step)
        for step in (STEPS[0], STEPS[1], STEPS[3], STEPS[2]):
            await bob.picks(q7, step)
        for step in reversed(STEPS):
            await cy.picks(q7, step)
        clock.advance(30)
        seen["ordering"] = strip((await reveal_of(fake, group, q7)).text)

        podium = await fake.wait_for(lambda: next((m for m in fake.sent_to(group) if "Quiz over" in m.text), None))
        seen["podium"] = strip(podium.text)
        seen["leaderboard"] = strip((await dee.says("/leaderboard")).text)
    log.write(tmp_path)
    return seen


async def taken(fake: FakeBotApi, group: dict, replies: list[int]) -> None:
    """Wait until the bot took each typed reply (it deletes them in a group where it may): the
    deadline moved on at once might close the question before the updates reach the bot."""
    await fake.wait_for(
        lambda: all((group["id"], reply) in fake.deleted for reply in replies), what="the replies taken"
    )


def podium_line(podium: str, name: str) -> tuple[int, str]:
    """A player's points and the rest of their podium line."""
    line = next(line for line in podium.splitlines() if f" {name}: " in line)
    found = re.search(rf" {name}: (\d+) pts · (.*)$", line)
    assert found, line
    return int(found.group(1)), found.group(2)


async def test_the_reveal_the_podium_and_the_boards_agree_on_every_answer(fake, clock, tmp_path):
    seen = await play_the_tour(fake, clock, tmp_path)

    assert re.search(r"Bob \+\d+ \([\d.]+ s\) · partly right, 67%", seen["multi"]), "two of three right picks"
    assert re.search(r"Bob \+\d+ \([\d.]+ s\) · partly right, 50%", seen["ordering"]), "two of four in place"
    assert "Cy +" not in seen["multi"] and "Cy +" not in seen["ordering"]
    assert "3 votes" in seen["poll"] and "partly" not in seen["poll"] and "Right answer" not in seen["poll"]

    podium = seen["podium"]
    # six scored questions were asked (the poll is not scored): every line counts all six
    assert podium_line(podium, "Ann")[1] == "6/6 right · 100%"
    assert podium_line(podium, "Bob")[1] == "2/6 right · 53% · 2 partly right", "(2 + 2/3 + 1/2) of 6"
    assert podium_line(podium, "Cy") == (0, "0/6 right · 0%")
    assert podium_line(podium, "Dee")[1] == "1/6 right · 17%", "five questions not answered count as asked"

    board = seen["leaderboard"]
    for name in ("Ann", "Bob", "Dee"):
        points = podium_line(podium, name)[0]
        assert re.search(rf"{name}: {points} pts", board), f"{name}'s board points are the podium's"
