"""Plain text for screen readers on Discord (/settings plain on): a whole game in a channel with
teams (the kinds tour: a picture, every kind of question, the podium), the boards, a hosted
game; every version of every message the bot made (answers to presses and commands too) read
back from the fake Discord: no block bars, no decorative symbols, the split counted in words,
the right answer said as a sentence. The picture's attachment carries its `alt` as its
description, and the embed shows it as text."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_modals import text_inputs
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeMessage, FakeUser
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)
from tests.support.plain_text import unplain

TOUR = Catalog.load(default_quiz_folders()).get("kinds-tour")
ALT = TOUR.questions[0].media.alt.get("en")  # type: ignore[union-attr]
SAID = ("content", "title", "description", "text", "name", "value", "label", "placeholder")


def strings(payload: Any) -> Iterator[str]:
    """Every text a reader may meet in a message's payload: content, embeds, components, attachments."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in SAID and isinstance(value, str):
                yield value
            elif isinstance(value, dict | list):
                yield from strings(value)
    elif isinstance(payload, list):
        for item in payload:
            yield from strings(item)


def everything_said(fake: FakeDiscord) -> list[str]:
    return [text for message in fake.messages.values() for version in message.history for text in strings(version)]


async def answer(
    fake: FakeDiscord, who: FakeUser, channel: int, question: FakeMessage, number: int, first: bool
) -> None:
    """Press the first option (or the last), or type an answer into the form "Answer" opens."""
    buttons = question.buttons()
    typed = next((b for b in buttons if b["custom_id"].startswith("quizhost:qt:")), None)
    if typed is None:
        await fake.press(who, question.id, buttons[0 if first else -1]["custom_id"])
        return
    form = await fake.press(who, question.id, typed["custom_id"])
    await fake.submit_modal(who, channel, form, {text_inputs(form)[0]["label"]: "14" if number == 5 else "allreduce"})


async def closed(fake: FakeDiscord, clock, question: FakeMessage) -> FakeMessage:
    """The question once closed (its buttons gone): the clock moves a second at a time."""
    while fake.messages[question.id].data.get("components"):
        clock.advance(1)
        await asyncio.sleep(0.01)
    return fake.messages[question.id]


async def test_a_whole_game_with_teams_a_picture_boards_and_a_host_in_plain_text(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with dh.running_bot(fake, dh.make_settings(tmp_path, fake), clock):
        said = await fake.slash(boss, channel, "settings", plain="on")
        assert "Plain text for screen readers: on" in str(said)
        await fake.slash(boss, channel, "teams", what="Owls Foxes")
        lineup = await fake.wait_for(lambda: next((m for m in fake.channel_messages(channel) if m.buttons()), None))
        await fake.press(ann, lineup.id, lineup.buttons()[0]["custom_id"])
        await fake.press(bob, lineup.id, lineup.buttons()[1]["custom_id"])

        await fake.slash(boss, channel, "quiz", topic="kinds-tour")
        revealed = []
        for number in range(1, len(TOUR.questions) + 1):
            q = await fake.wait_message(channel, dh.is_question(number))
            for who in (ann, bob):
                await answer(fake, who, channel, q, number, first=who is ann)
            revealed.append(await closed(fake, clock, q))
        podium = await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
        for who in (ann, bob):
            await fake.slash(who, channel, "leaderboard")
            await fake.slash(who, channel, "stats")

        await fake.slash(boss, channel, "host", topic="tiny")
        await fake.slash(boss, channel, "next")
        hosted = await fake.wait_message(channel, lambda m: dh.is_question(1)(m) and m.id > revealed[-1].id)
        await fake.press(ann, hosted.id, dh.button_id(hosted, dh.right_letter(hosted)))
        await fake.slash(boss, channel, "next")
        await fake.slash(boss, channel, "end")
        await fake.wait_message(channel, lambda m: "Quiz stopped" in m.text)

    q1 = revealed[0]
    (picture,) = q1.data["attachments"]
    assert picture["description"] == ALT, "the attachment's alt text"
    assert q1.data["embeds"][0]["footer"]["text"] == ALT, "the embed's text"
    assert re.search(r"^[A-D]: 1 answer, 50%$", q1.text, re.M), "the split counted in words"
    assert re.search(r"^Right answer: [A-D], 3/7\.$", q1.text, re.M), "the right answer as a sentence"
    assert re.search(r"^1\. (Ann|Bob): \d+ pts", podium.text, re.M) and "Teams:" in podium.text
    assert unplain(everything_said(fake)) == []
    assert fake.violations == []
