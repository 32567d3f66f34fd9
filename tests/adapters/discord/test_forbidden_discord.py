"""A Discord channel the bot lost access to (403 Missing Access): the quiz's question post is
refused, and the channel's schedules pause with a log line (real discord.py, fake Discord)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from bot.testing.clock import FakeClock
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import fake, make_settings, running_bot, server  # noqa: F401


async def test_a_discord_channel_that_denies_the_bot_pauses_its_schedules(fake, server, tmp_path, caplog):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    clock = FakeClock(datetime(2026, 6, 1, 6, tzinfo=UTC).timestamp())
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(boss, channel, "schedule", what="daily 09:00 tiny")
        fake.no_access.add(channel)  # the bot lost access to the channel
        with caplog.at_level(logging.WARNING, "quizhost.schedule"):
            started = await fake.slash(boss, channel, "quiz", topic="tiny")  # answered in the interaction
            assert "Tiny Test Quiz" in started["embeds"][0]["title"]
            await fake.wait_for(lambda: "its schedules are paused" in caplog.text, what="the schedules paused")
        assert f"discord:{channel} does not let the bot post; its schedules are paused (1)" in caplog.text
        listing = await fake.slash(boss, channel, "schedule", what="")
        assert listing["embeds"][0]["title"] == "⏰ Schedules"
        assert (
            "#1 daily 09:00: the quiz Tiny Test Quiz; next 2026-06-01 09:00 UTC · paused: I could not post here"
            in listing["embeds"][0]["description"]
        )
    assert fake.violations == []


async def test_discord_schedule_on_by_an_admin_resumes_a_denied_channels_schedule(fake, server, tmp_path, caplog):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    someone = fake.add_user("Someone", permissions=MEMBER_PERMISSIONS)
    clock = FakeClock(datetime(2026, 6, 1, 6, tzinfo=UTC).timestamp())
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(boss, channel, "schedule", what="daily 09:00 tiny")
        fake.no_access.add(channel)
        with caplog.at_level(logging.WARNING, "quizhost.schedule"):
            await fake.slash(boss, channel, "quiz", topic="tiny")
            await fake.wait_for(lambda: "its schedules are paused" in caplog.text, what="the schedules paused")
        fake.no_access.discard(channel)  # access given back: no event for it, an admin resumes
        refused = await fake.slash(someone, channel, "schedule", what="on")
        assert "Only chat admins can change this." in str(refused)
        back = await fake.slash(boss, channel, "schedule", what="on 1")
        (embed,) = back["embeds"]
        assert embed["title"] == "▶️ Schedules resumed"
        assert "#1 daily 09:00: the quiz Tiny Test Quiz; next 2026-06-01 09:00 UTC\n" in embed["description"]
        listing = await fake.slash(boss, channel, "schedule", what="")
        assert "paused" not in listing["embeds"][0]["description"]
    assert fake.violations == []
