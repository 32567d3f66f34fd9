"""/healthz and /metrics of a Discord worker, end to end: `quizhost run` (real discord.py)
against the fake Discord, on SQLite. A closed gateway makes the worker unhealthy until
discord.py is back on it; refusals of the REST API are counted by kind."""

from __future__ import annotations

import logging

import pytest

from bot.testing.postgres import free_port
from tests.support.discord_harness import fake, is_question, make_settings, running_bot, server  # noqa: F401
from tests.system.test_health_telegram import errors, health, health_until, metrics, no_grace  # noqa: F401


@pytest.mark.parametrize(
    "shards", [{}, {"discord_shard_count": "1", "discord_shard_ids": "0"}], ids=["one-client", "sharded-client"]
)
async def test_healthz_is_503_naming_discord_while_the_gateway_is_closed(
    fake, server, clock, tmp_path, no_grace, caplog, shards
):
    ops = f"127.0.0.1:{free_port()}"
    async with running_bot(fake, make_settings(tmp_path, fake, quizhost_ops_listen=ops, **shards), clock):
        assert await health_until(ops, lambda status, _: status == 200) == (200, {"store": "ok", "discord": "ok"})

        await fake.close_gateway()  # an outage: the connection closed, new ones refused
        _, parts = await health_until(ops, lambda status, _: status == 503)
        assert parts == {"store": "ok", "discord": parts["discord"]}
        assert parts["discord"].startswith("down: gateway not connected"), parts

        fake.open_gateway()  # discord.py resumes the session on its own
        assert await health_until(ops, lambda status, _: status == 200, timeout=60) == (
            200,
            {"store": "ok", "discord": "ok"},
        )
        assert errors(await metrics(ops), "discord", "server") >= 1  # the refused gateway connections
    # discord.py logs each failed reconnect as an error: the ones this outage caused, and no other
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures and all(m.startswith("Attempting a reconnect") for m in failures), failures
    caplog.clear()


async def test_metrics_count_a_429_and_a_403_of_discord_by_kind(fake, server, clock, tmp_path):
    guild, channel = server
    closed = fake.guilds[guild]["channels"][1]
    ann = fake.add_user("Ann")
    ops = f"127.0.0.1:{free_port()}"
    async with running_bot(fake, make_settings(tmp_path, fake, quizhost_ops_listen=ops), clock):
        await health_until(ops, lambda status, _: status == 200)  # discord.py has its servers
        fake.rate_limit("POST", rf"/channels/{channel}/messages$", times=1, retry_after=0.1)
        await fake.slash(ann, channel, "quiz", topic="tiny")
        await fake.wait_message(channel, is_question(1))  # posted once the 429 was waited out
        fake.no_access.add(closed)  # the bot lost access to the other channel
        await fake.slash(ann, closed, "quiz", topic="tiny")
        await fake.wait_for(lambda: any(status == 403 for *_, status in fake.requests), what="the refused post")

        text = await metrics(ops)
        assert errors(text, "discord", "rate_limited") == 1
        assert errors(text, "discord", "forbidden") == 1
        assert errors(text, "discord", "network") == errors(text, "discord", "server") == 0
        assert await health(ops) == (200, {"store": "ok", "discord": "ok"}), "refusals are answers: Discord is there"
    assert fake.violations == []
