"""A message create whose answer was lost is tried once more with the same nonce, and Discord
(`enforce_nonce`) answers it with the message it already made: the channel shows it once."""

from __future__ import annotations

import discord

from bot.testing.fake_discord import FakeDiscord
from tests.support.discord_harness import (  # noqa: F401 (fake, server: fixtures)
    fake,
    is_question,
    make_settings,
    running_bot,
    server,
)

CREATE = r"/channels/\d+/messages$"


async def test_a_question_whose_answer_was_lost_is_posted_once(fake, clock, server, tmp_path):
    _, channel = server
    ann = fake.add_user("Ann")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        fake.lose_answer("POST", CREATE)  # the first question's create: made, its answer lost
        await fake.slash(ann, channel, "quiz", topic="tiny")
        await fake.wait_for(lambda: len(creates(fake)) >= 2, what="the create tried again")
        q1 = await fake.wait_message(channel, is_question(1))
    assert [m.id for m in fake.channel_messages(channel) if is_question(1)(m)] == [q1.id]
    assert creates(fake) == [200, 200]  # the second create, answered with the first message
    assert q1.data["nonce"] and len(q1.data["nonce"]) <= 25


async def test_the_fake_answers_a_repeated_nonce_with_the_first_message(fake: FakeDiscord, server):
    """As Discord does: the same nonce within minutes, enforced, makes no second message;
    without enforcement it does."""
    _, channel = server
    client = discord.Client(intents=discord.Intents.none())
    await client.login(fake.token)
    try:
        target = client.get_partial_messageable(channel)
        first = await target.send("hello", nonce="owed-1")
        again = await target.send("hello", nonce="owed-1")
        other = await target.send("hello", nonce="owed-2")
    finally:
        await client.close()
    assert again.id == first.id and other.id != first.id
    assert [m.text for m in fake.channel_messages(channel)] == ["hello", "hello"]


def creates(fake: FakeDiscord) -> list[int]:
    return [status for method, path, status in fake.requests if method == "POST" and path.endswith("/messages")]
