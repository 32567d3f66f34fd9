"""Discord shards split over several `quizhost run` workers on one PostgreSQL (DISCORD_SHARD_IDS).

Each worker connects only its shards, serves the servers Discord routes to them, and the
workers identify one at a time, 5 s apart, as Discord counts identifies per bot, not per process.
"""

from __future__ import annotations

import contextlib

import pytest

from bot.adapters.discord.identify import IDENTIFY_SPACING
from tests.support.discord_harness import fake, make_settings, running_bot  # noqa: F401

pytestmark = pytest.mark.postgres


async def test_two_workers_of_one_shard_each_identify_in_turn_and_serve_their_servers(
    fake, clock, tmp_path, postgres_url
):
    guilds = [fake.add_guild("Zero", shard=(0, 2)), fake.add_guild("One", shard=(1, 2))]
    sam = fake.add_user("Sam")
    workers = [
        make_settings(
            tmp_path,
            fake,
            quizhost_db=postgres_url,
            quizhost_worker=f"w{n}",
            discord_shard_count="2",
            discord_shard_ids=str(n),
        )
        for n in range(2)
    ]
    async with contextlib.AsyncExitStack() as stack:
        for settings in workers:
            await stack.enter_async_context(running_bot(fake, settings, clock))
        await fake.wait_for(lambda: len(fake.connected_shards) == 2, timeout=15, what="both workers' shards")
        for guild in guilds:
            shown = await fake.slash(sam, fake.guilds[guild]["channels"][0], "quizzes")
            assert "Tiny Test Quiz (tiny)" in shown["embeds"][0]["description"]
    assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]  # each worker its own shard, once
    first, second = (i["at"] for i in fake.identifies)
    assert second - first >= IDENTIFY_SPACING - 0.1, "two workers identified within Discord's 5 s"
    assert fake.violations == []
