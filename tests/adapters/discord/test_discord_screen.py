"""/screen on Discord (the real wiring against the fake Discord, its web pages on): a member gets
the channel's big screen in the channel; a manager gets, ephemerally, the host's link as well;
the screen's stream follows the channel's quiz."""

from __future__ import annotations

import re

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import (  # noqa: F401 (the fixtures)
    fake,
    make_settings,
    running_bot,
    server,
)
from tests.support.screen_stream import following, seen


async def test_a_member_and_a_manager_get_the_screen_and_it_follows_the_channels_quiz(
    fake, clock, server, tmp_path, unused_tcp_port_factory
):
    _, channel = server
    ann = fake.add_user("Ann")
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    web = f"127.0.0.1:{unused_tcp_port_factory()}"
    settings = make_settings(tmp_path, fake, quizhost_web_url=f"http://{web}", quizhost_web_listen=web)
    async with running_bot(fake, settings, clock):
        told = await fake.slash(ann, channel, "screen")
        assert not told["ephemeral"] and told["content"].count("/s/") == 1
        hosts = await fake.slash(boss, channel, "screen", join="https://discord.gg/quiz-night")
        assert hosts["ephemeral"] and hosts["content"].count("/s/") == 2
        (watch,) = re.findall(r"http://\S+/s/\S+", told["content"])
        async with following(f"{watch}events") as stream:
            await fake.slash(ann, channel, "quiz", topic="tiny")
            (asked,) = await seen(stream, "question", 1)
            assert asked.data["prompt"] in (
                "Which planet is red?",
                "Which planet is the largest?",
                "Which planet has the brightest rings?",
            )
    assert fake.violations == []
