"""Two `quizhost run` processes, shard 0 and shard 1 of 2, on one PostgreSQL against the fake Discord.

Quizzes run at once in servers of both shards, players pressing throughout; the worker of
shard 1 is killed with SIGKILL in the middle of a question and started again. Every quiz
finishes, every acknowledged press is stored exactly once, and every channel's podium and
leaderboard equal the points of its stored answers.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess

import pytest

from bot.testing.fake_discord import FakeDiscord
from tests.support.discord_harness import fake  # noqa: F401
from tests.support.discord_workers import (
    Press,
    assert_counted_once,
    open_question,
    play,
    start_worker,
    stop,
    worker_env,
)

pytestmark = pytest.mark.postgres
SERVERS_PER_SHARD = 2
PLAYERS = 3


def shard_worker(fake: FakeDiscord, env: dict[str, str], shard: int) -> subprocess.Popen:
    return start_worker(fake, env, f"shard-{shard}", DISCORD_SHARD_IDS=str(shard))


async def test_sigkill_one_of_two_shard_workers_mid_question_loses_no_acknowledged_press(fake, tmp_path, postgres_url):
    servers = {s: [fake.add_guild(f"Shard {s} #{n}", shard=(s, 2)) for n in range(SERVERS_PER_SHARD)] for s in (0, 1)}
    channels = {s: [fake.guilds[g]["channels"][0] for g in gs] for s, gs in servers.items()}
    players = [fake.add_user(f"P{n}") for n in range(PLAYERS)]
    env = {**worker_env(fake, tmp_path, postgres_url), "DISCORD_SHARD_COUNT": "2"}
    workers = {s: shard_worker(fake, env, s) for s in (0, 1)}
    acks: list[Press] = []
    try:
        await fake.wait_for(
            lambda: (
                sorted(map(tuple, fake.connected_shards)) == [(0, 2), (1, 2)]
                and len(fake.syncs) >= 2 * len(fake.guilds)
            ),
            timeout=60,
            what="both workers",
        )
        for channel in channels[0] + channels[1]:
            started = await fake.slash(players[0], channel, "quiz", topic="tiny")
            assert "Tiny Test Quiz" in started["embeds"][0]["title"]
        hold = asyncio.Event()
        games = [
            asyncio.create_task(play(fake, c, players, acks, hold if c in channels[1] else None, c))
            for c in channels[0] + channels[1]
        ]
        await fake.wait_for(
            lambda: all(any(a[:2] == (c, 2) for a in acks) for c in channels[1]),
            timeout=60,
            what="a press acknowledged on question 2 in every server of shard 1",
        )
        assert all(open_question(fake, c, 2) for c in channels[1]), "question 2 closed before the kill"
        workers[1].send_signal(signal.SIGKILL)  # mid-question: question 2 is open and waiting
        assert await stop(workers[1]) is not None and workers[1].returncode == -signal.SIGKILL
        hold.set()  # the other players press while shard 1 is down, and after it is back
        workers[1] = shard_worker(fake, env, 1)
        await asyncio.wait_for(asyncio.gather(*games), 120)
        podiums = {
            c: await fake.wait_message(c, lambda m: "Quiz over" in m.text, timeout=60)
            for c in channels[0] + channels[1]
        }
    finally:
        errors = {s: await stop(w) for s, w in workers.items()}
    assert all(w.returncode == 0 for w in workers.values()), errors

    await assert_counted_once(postgres_url, channels[0] + channels[1], players, acks, podiums)
    # the restarted worker takes its servers' presses again: everyone's last answer there was acknowledged
    last = {(c, u) for c, n, u in acks if n == 3 and c in channels[1]}
    assert last == {(c, p.id) for c in channels[1] for p in players}
