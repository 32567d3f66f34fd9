"""A question Discord refuses as it is (a 400 Invalid Form Body: sending it again cannot help)
ends its run at once, with a word in the channel, and the channel can play again (real
discord.py, fake Discord)."""

from __future__ import annotations

from typing import Any

from bot.testing.clock import FakeClock
from tests.support.discord_harness import fake, make_settings, running_bot, server  # noqa: F401


def asks_question_1(data: dict[str, Any]) -> bool:
    return any("Question 1/" in str(embed.get("title")) for embed in data.get("embeds") or [])


async def test_a_question_discord_refuses_ends_the_run_at_once_and_the_channel_plays_on(fake, server, tmp_path):
    _, channel = server
    ann = fake.add_user("Ann")
    refusing = [True]
    fake.refusing = lambda data: refusing[0] and asks_question_1(data)
    async with running_bot(fake, make_settings(tmp_path, fake), FakeClock()):
        await fake.slash(ann, channel, "quiz", topic="tiny")

        def ended() -> str | None:
            said = [str(m.data) for m in fake.channel_messages(channel)]
            return next((s for s in said if "question 1 was refused by the chat platform" in s), None)

        await fake.wait_for(ended, what="the word that the quiz ended")
        tries = [r for r in fake.requests if r[0] == "POST" and r[1].endswith(f"/channels/{channel}/messages")]
        refused = [r for r in tries if r[2] == 400]
        assert len(refused) == 1, "a refusal is not sent again"
        refusing[0] = False
        await fake.slash(ann, channel, "quiz", topic="tiny")  # nothing holds the channel
        await fake.wait_for(
            lambda: any(asks_question_1(m.data) for m in fake.channel_messages(channel)), what="question 1 posted"
        )
    assert fake.violations == []
