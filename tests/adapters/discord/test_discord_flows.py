"""More of quizhost on Discord: picks by button, sharding, slow work deferred within 3 seconds."""

from __future__ import annotations

import discord

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import fake, is_question, make_settings, running_bot, server  # noqa: F401


async def test_quiz_and_language_picks_are_persistent_buttons_too(fake, clock, server, tmp_path):
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        unknown = await fake.slash(ann, channel, "quiz", topic="astrology")
        assert unknown["ephemeral"] and "No quiz matches “astrology”" in unknown["content"]
        catalog = await fake.slash(ann, channel, "quiz")
        assert not catalog["ephemeral"] and catalog["content"] == "Pick a quiz:"
        started = await fake.press(ann, int(catalog["id"]), "quizhost:qp:tiny")
        assert "Tiny Test Quiz" in started["embeds"][0]["title"]
        await fake.wait_message(channel, is_question(1))
        assert "stopped by Ann" in (await fake.slash(ann, channel, "stop"))["content"]

        picks = await fake.slash(bob, channel, "language")
        assert [b["label"] for row in picks["components"] for b in row["components"]] == [
            "English",
            "हिन्दी",
            "chiShona",
            "اردو",
        ]
        refused = await fake.press(bob, int(picks["id"]), "quizhost:ql:ur")
        assert refused["ephemeral"] and "Only chat admins" in refused["content"]
        chosen = await fake.press(boss, int(picks["id"]), "quizhost:ql:hi")
        assert not chosen["ephemeral"] and "हिन्दी" in chosen["content"]

        renamed = fake.add_user("Annie")
        renamed.id = ann.id  # the same Discord user with a new display name
        stats = await fake.slash(renamed, channel, "stats")
        assert "Annie" in stats["embeds"][0]["title"]
    assert fake.violations == []


async def test_auto_sharding_connects_every_shard_and_each_serves_its_servers(fake, clock, tmp_path):
    fake.shard_count = 2  # what GET /gateway/bot recommends
    guilds = [fake.add_guild("Zero", shard=(0, 2)), fake.add_guild("One", shard=(1, 2))]
    sam = fake.add_user("Sam")
    async with running_bot(fake, make_settings(tmp_path, fake, discord_shards="auto"), clock):
        # discord.py waits 5 s between two IDENTIFYs, as Discord asks of sharded bots
        await fake.wait_for(lambda: len(fake.connected_shards) == 2, timeout=15, what="both shards")
        for guild in guilds:
            shown = await fake.slash(sam, fake.guilds[guild]["channels"][0], "quizzes")
            assert "Tiny Test Quiz (tiny)" in shown["embeds"][0]["description"]
    assert sorted(i["shard"] for i in fake.identifies) == [[0, 2], [1, 2]]
    assert ("GET", "/api/v10/gateway/bot", 200) in fake.requests
    privileged = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
    assert all(
        i["intents"] == discord.Intents(guilds=True).value and not i["intents"] & privileged for i in fake.identifies
    )
    assert fake.violations == []


async def test_a_command_slowed_by_rate_limits_is_deferred_then_answered(fake, clock, server, tmp_path):
    _, channel = server
    ann = fake.add_user("Ann")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        # /stop closes the question (an edit) before it answers; Discord holds that edit back 2.5 s
        fake.rate_limit("PATCH", rf"/messages/{question.id}$", retry_after=2.5)
        stopped = await fake.slash(ann, channel, "stop")
        assert stopped["deferred"] and "Quiz stopped by Ann" in stopped["content"]
        interaction = list(fake.interactions.values())[-1]
        assert interaction.callbacks[0]["type"] == 5  # "thinking…" within the 3 s
        assert all(b["disabled"] for b in fake.messages[question.id].buttons())
    assert fake.violations == []


async def test_a_quiz_is_refused_at_once_where_the_bot_may_not_post(fake, clock, server, tmp_path):
    guild, general = server
    quiet = fake.guilds[guild]["channels"][1]
    fake.bot_permissions[quiet] = MEMBER_PERMISSIONS & ~(1 << 14)  # no Embed Links there
    ann = fake.add_user("Ann")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        refused = await fake.slash(ann, quiet, "quiz", topic="tiny")
        assert refused["ephemeral"] and "Embed Links" in refused["content"]
        started = await fake.slash(ann, general, "quiz", topic="tiny")  # nothing was started in #random
        assert "Tiny Test Quiz" in started["embeds"][0]["title"]
    assert fake.channel_messages(quiet) == [] and fake.violations == []


async def test_a_server_that_refuses_the_sync_is_named_and_the_others_still_work(fake, clock, server, tmp_path, caplog):
    _, channel = server
    settings = make_settings(tmp_path, fake, discord_guild_ids=f"{next(iter(fake.guilds))},4242")
    async with running_bot(fake, settings, clock, syncs=1):
        shown = await fake.slash(fake.add_user("Ann"), channel, "help")
        assert "/quiz" in shown["embeds"][0]["description"]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "server 4242" in errors[0] and "applications.commands" in errors[0]
    caplog.clear()  # the expected error
