"""Two `quizhost run` workers taking Discord's interactions over HTTP, on one PostgreSQL, behind
the fake Discord's balancing (each interaction to the next worker in turn; a worker that refuses
the connection passes it to the other).

Any worker takes any press, the one running a quiz posts and closes its questions; with one
worker killed (SIGKILL) in the middle of a question, the other takes its quizzes over: every
question still closes, and every press the bot acknowledged is counted exactly once.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from collections import defaultdict

import asyncpg
import pytest

from bot.testing.fake_discord import FakeDiscord
from tests.support.discord_harness import button_id, fake, is_question  # noqa: F401
from tests.support.discord_workers import (
    Press,
    assert_counted_once,
    http_workers,
    open_question,
    play,
    stop,
)

pytestmark = pytest.mark.postgres
SERVERS = 2
PLAYERS = 3


async def started(fake: FakeDiscord, workers: list[subprocess.Popen], channels: list[int], players) -> None:
    """Both workers synced and answer Discord's PING; /quiz in every channel."""
    await fake.wait_for(lambda: len(fake.syncs) >= len(workers) * len(fake.guilds), timeout=60, what="the syncs")
    await fake.wait_endpoints(timeout=60)
    for channel in channels:
        shown = await fake.slash(players[0], channel, "quiz", topic="tiny")
        assert "Tiny Test Quiz" in shown["embeds"][0]["title"]


async def owners(db: str) -> dict[str, str]:
    conn = await asyncpg.connect(db)
    try:
        return {r["chat_key"]: r["owner"] for r in await conn.fetch("SELECT chat_key, owner FROM runs")}
    finally:
        await conn.close()


def acked_by(fake: FakeDiscord) -> dict[int, set[int]]:
    """Channel -> the workers that acknowledged a press there ("Locked in" in their reply)."""
    found: dict[int, set[int]] = defaultdict(set)
    for delivery in fake.deliveries:
        content = ((delivery.reply or {}).get("data") or {}).get("content") or ""
        if content.startswith("Locked in"):
            found[fake.interactions[delivery.interaction_id].channel_id].add(delivery.worker)
    return found


async def test_any_of_two_http_workers_takes_any_press_and_the_owner_closes(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    guilds = [fake.add_guild(f"Server {n}") for n in range(SERVERS)]
    channels = [fake.guilds[g]["channels"][0] for g in guilds]
    players = [fake.add_user(f"P{n}") for n in range(PLAYERS)]
    workers = http_workers(fake, tmp_path, postgres_url, [unused_tcp_port_factory() for _ in range(2)])
    acks: list[Press] = []
    try:
        await started(fake, workers, channels, players)
        burst = asyncio.Lock()
        games = (play(fake, c, players, acks, None, c, burst=burst) for c in channels)
        await asyncio.wait_for(asyncio.gather(*games), 120)
        podiums = {c: await fake.wait_message(c, lambda m: "Quiz over" in m.text, timeout=60) for c in channels}
    finally:
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")  # pytest shows what the workers logged when the test fails
    await assert_counted_once(postgres_url, channels, players, acks, podiums)
    assert all(w.returncode == 0 for w in workers), errors
    assert set((await owners(postgres_url)).values()) <= {"http-0", "http-1"}
    # round robin: in every channel both workers acknowledged presses, the quiz's owner and the other
    assert all(acked_by(fake)[c] == {0, 1} for c in channels), acked_by(fake)
    assert fake.identifies == [], "a worker opened the gateway"
    assert fake.violations == []


async def test_sigkill_one_of_two_http_workers_mid_question_loses_no_acknowledged_press(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    guilds = [fake.add_guild(f"Server {n}") for n in range(SERVERS)]
    channels = [fake.guilds[g]["channels"][0] for g in guilds]
    players = [fake.add_user(f"P{n}") for n in range(PLAYERS)]
    workers = http_workers(fake, tmp_path, postgres_url, [unused_tcp_port_factory() for _ in range(2)])
    acks: list[Press] = []
    games: list[asyncio.Task] = []
    try:
        await started(fake, workers, channels, players)
        owned = await owners(postgres_url)
        victim = int(owned[f"discord:{channels[0]}"].removeprefix("http-"))
        doomed = [c for c in channels if owned[f"discord:{c}"] == f"http-{victim}"]
        hold = asyncio.Event()
        reached = {c: asyncio.Event() for c in doomed}
        games = [
            asyncio.create_task(play(fake, c, players, acks, hold if c in doomed else None, c, reached.get(c)))
            for c in channels
        ]
        # a press in on question 2 in every channel of the worker to kill (waiting for its "Locked
        # in" alone hung when a reply came after Discord's 3 s: the retry found it "already answered")
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in reached.values())), 90)
        assert all(open_question(fake, c, 2) for c in doomed), "question 2 closed before the kill"
        workers[victim].send_signal(signal.SIGKILL)  # mid-question: question 2 is open and waiting
        await stop(workers[victim])
        assert workers[victim].returncode == -signal.SIGKILL
        killed_at = len(fake.deliveries)
        hold.set()  # the other players press now: the survivor takes their presses and the quiz over
        await asyncio.wait_for(asyncio.gather(*games), 180)
        podiums = {c: await fake.wait_message(c, lambda m: "Quiz over" in m.text, timeout=60) for c in channels}
    finally:
        for game in games:
            game.cancel()
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")  # pytest shows what the workers logged when the test fails
    survivor = workers[1 - victim]
    assert survivor.returncode == 0, errors
    await assert_counted_once(postgres_url, channels, players, acks, podiums)
    assert set((await owners(postgres_url)).values()) == {f"http-{1 - victim}"}  # it took the quizzes over
    assert all(d.worker != victim for d in fake.deliveries[killed_at:] if d.status), "the dead worker answered"
    # the one thing Discord saw go wrong: interactions the killed worker held never got their answer
    held = {d.interaction_id for d in fake.deliveries if d.worker == victim and d.status == 0}
    unexpected = [v for v in fake.violations if not any(str(i) in v for i in held)]
    assert unexpected == []


async def test_a_press_posted_again_to_either_http_worker_changes_nothing(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    """A press Discord signed, caught and posted again within its timestamp's window: the
    worker that took it answered it; every repeat, to it or the other one, is acknowledged
    without a word and stores nothing (the claims are the database's, storage/shared/interactions.py)."""
    guild = fake.add_guild("Server")
    channel = fake.guilds[guild]["channels"][0]
    ann = fake.add_user("Ann")
    workers = http_workers(fake, tmp_path, postgres_url, [unused_tcp_port_factory() for _ in range(2)])
    try:
        await started(fake, workers, [channel], [ann])
        question = await fake.wait_message(channel, is_question(1), timeout=60)
        body = json.dumps(fake.press_payload(ann, question.id, button_id(question, "A"))).encode()
        headers = fake.signed(body)
        replies = [await fake.post_raw(url, body, headers) for url in (*fake.endpoints, *fake.endpoints)]
        conn = await asyncpg.connect(postgres_url)
        try:
            stored = await conn.fetchval("SELECT count(*) FROM answers")
        finally:
            await conn.close()
    finally:
        errors = [await stop(w) for w in workers]
        print(*errors, sep="\n")  # pytest shows what the workers logged when the test fails
    assert [status for status, _ in replies] == [200] * 4
    assert json.loads(replies[0][1])["data"]["content"].startswith("Locked in")
    assert [json.loads(reply) for _, reply in replies[1:]] == [{"type": 6}] * 3, "a repeat was handled again"
    assert stored == 1
    assert all(w.returncode == 0 for w in workers), errors
