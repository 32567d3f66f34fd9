"""One member's burst of slash commands on Discord, on the gateway and on the interactions
endpoint: a few are carried out and answered in the channel, the rest are not, and only the
member sees why (Discord needs every interaction answered; an ephemeral answer costs the bot
nothing and nobody else sees it). Another member in another channel is not held back."""

from __future__ import annotations

import contextlib

import pytest

from bot.commands.budget import BURST
from tests.support.discord_harness import (  # noqa: F401 (fake, server: fixtures)
    endpoint_settings,
    fake,
    is_question,
    make_settings,
    running_bot,
    running_endpoint_bot,
    server,
)

SLOW_DOWN = "You are sending me a lot at once"


@pytest.mark.parametrize("path", ["gateway", "endpoint"])
async def test_a_burst_of_help_is_answered_a_few_times_then_only_to_the_sender(
    fake, clock, server, tmp_path, unused_tcp_port, path
):
    guild, general = server
    other = fake.guilds[guild]["channels"][1]
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    if path == "gateway":
        bot = running_bot(fake, make_settings(tmp_path, fake), clock)
    else:
        bot = running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(bot)
        shown = [await fake.slash(ann, general, "help") for _ in range(BURST + 3)]
        started = await fake.slash(bob, other, "quiz", topic="tiny")
        assert "Tiny Test Quiz" in started["embeds"][0]["title"]
        await fake.wait_message(other, is_question(1))
    answered, held = shown[:BURST], shown[BURST:]
    assert all(not s["ephemeral"] and "/quiz" in s["embeds"][0]["description"] for s in answered)
    assert all(s["ephemeral"] and SLOW_DOWN in s["content"] for s in held), held
    assert fake.violations == []
