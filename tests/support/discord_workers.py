"""`quizhost run` workers against the fake Discord on one PostgreSQL, and players pressing in
their channels until the bot says their answer is in; what the database must say afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import asyncpg

from bot.testing.fake_discord import FakeDiscord, FakeMessage, FakeUser
from storage.postgres.store import PostgresStore
from tests.support.discord_harness import TINY_QUIZ, button_id, is_question
from tests.support.paths import ROOT_DIR

Press = tuple[int, int, int]  # channel id, question number, user id


def start_worker(fake: FakeDiscord, env: dict[str, str], name: str, **more: str) -> subprocess.Popen:
    """`quizhost run` named `name` (QUIZHOST_WORKER), discord.py pointed at the fake; `more`: its own settings."""
    env = {**env, **more, "QUIZHOST_WORKER": name}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.discord_worker", fake.api_base, fake.gateway_url],
        cwd=env["HOME"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def worker_env(fake: FakeDiscord, tmp_path: Path, db: str) -> dict[str, str]:
    folder = tmp_path / "quizzes"
    folder.mkdir()
    (folder / "tiny.yaml").write_text(TINY_QUIZ, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_", "QUIZHOST_"))}
    return {
        **env,
        "PYTHONPATH": str(ROOT_DIR),
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "QUIZHOST_DB": db,
        "QUIZHOST_QUIZZES": str(folder),
        "QUIZHOST_QUESTION_SECONDS": "20",
        "QUIZHOST_PAUSE_SECONDS": "0",
        "DISCORD_BOT_TOKEN": fake.token,
        "DISCORD_GUILD_IDS": ",".join(str(g) for g in fake.guilds),
        "LOG_LEVEL": "WARNING",
    }


def http_workers(fake: FakeDiscord, tmp_path: Path, db: str, ports: list[int]) -> list[subprocess.Popen]:
    """One worker per port, each with its own endpoint; the fake balances over them."""
    env = worker_env(fake, tmp_path, db)
    fake.use_endpoints(*(f"http://127.0.0.1:{port}/interactions" for port in ports))
    return [
        start_worker(
            fake,
            env,
            f"http-{n}",
            DISCORD_INTERACTIONS_LISTEN=f"127.0.0.1:{port}/interactions",
            DISCORD_PUBLIC_KEY=fake.public_key,
        )
        for n, port in enumerate(ports)
    ]


def open_question(fake: FakeDiscord, channel: int, number: int) -> FakeMessage | None:
    """Question `number` as players can still press it (after a re-post, the newest), else None."""
    asked = [m for m in fake.channel_messages(channel) if is_question(number)(m)]
    later = any(is_question(number + 1)(m) or "Quiz over" in m.text for m in fake.channel_messages(channel))
    live = [m for m in asked if any(not b.get("disabled") for b in m.buttons())]
    return None if later or not live else live[-1]


def asked(fake: FakeDiscord, channel: int, number: int) -> Callable[[], bool]:
    """Question `number` was posted in the channel (or the quiz is already over)."""
    return lambda: any(is_question(number)(m) or "Quiz over" in m.text for m in fake.channel_messages(channel))


async def press_until_answered(
    fake: FakeDiscord, channel: int, number: int, player: FakeUser, rng: random.Random, acks: list[Press]
) -> None:
    """Press until the bot says "Locked in" (an acknowledged press) or the question is over.

    While the shard's worker is down the press reaches nobody (the fake has no connection for
    it, or the interaction is never answered): the player presses again, as a person would."""
    letter = rng.choice("ABCD")
    while (question := open_question(fake, channel, number)) is not None:
        try:
            shown = await fake.press(player, question.id, button_id(question, letter))
        except (AssertionError, TimeoutError):  # no worker for the shard, disabled meanwhile, or unanswered
            await asyncio.sleep(0.2)
            continue
        if shown["content"].startswith("Locked in"):
            acks.append((channel, number, player.id))
            return
        if "already answered" in shown["content"] or "closed" in shown["content"]:
            return  # a press the killed worker stored but never acknowledged, or too late
        await asyncio.sleep(0.2)  # not saved: press again


async def play(
    fake: FakeDiscord,
    channel: int,
    players: list[FakeUser],
    acks: list[Press],
    hold: asyncio.Event | None,
    seed: int,
    held: asyncio.Event | None = None,
    burst: asyncio.Lock | None = None,
) -> None:
    """Every player answers every question; with `hold`, question 2 waits for it after one
    press, and `held` is set when it does (that press is in, acknowledged or not: a reply that
    came too late still stored it). With `burst` (shared by the channels), a question's presses
    go one after the other with no other channel's in between: a round-robin balancer then
    gives every channel both workers. Interleaved press by press, two channels alias, one
    channel's presses always on the even turns, the other's on the odd."""
    rng = random.Random(seed)
    for number in (1, 2, 3):
        await fake.wait_for(asked(fake, channel, number), timeout=60, what=f"question {number} in {channel}")
        async with burst or contextlib.nullcontext():
            for n, player in enumerate(players):
                if number == 2 and n == 1 and hold is not None:
                    if held is not None:
                        held.set()
                    await hold.wait()  # the worker is killed while this question is open
                await press_until_answered(fake, channel, number, player, rng, acks)


async def stop(worker: subprocess.Popen) -> str:
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
    try:
        _, err = await asyncio.to_thread(worker.communicate, timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        _, err = worker.communicate()
    return err


async def assert_counted_once(
    db: str, channels: list[int], players: list[FakeUser], acks: list[Press], podiums: dict[int, FakeMessage]
) -> None:
    """Every quiz finished; every acknowledged press stored exactly once; every channel's podium
    and leaderboard equal the points of its stored answers."""
    conn = await asyncpg.connect(db)
    try:
        stored = [
            tuple(r)
            for r in await conn.fetch(
                "SELECT chat_key, idx + 1, player_key, COUNT(*) FROM answers GROUP BY chat_key, idx, player_key"
            )
        ]
        runs = [tuple(r) for r in await conn.fetch("SELECT chat_key, status FROM runs")]
        truth = {
            (r[0], r[1]): r[2]
            for r in await conn.fetch(
                "SELECT chat_key, player_key, SUM(points) FROM answers GROUP BY chat_key, player_key"
            )
        }
    finally:
        await conn.close()
    assert sorted(runs) == sorted((f"discord:{c}", "finished") for c in channels)
    assert all(count == 1 for *_, count in stored), "a press counted twice"
    answered = {(key, number, player) for key, number, player, _ in stored}
    lost = [a for a in acks if (f"discord:{a[0]}", a[1], f"discord:{a[2]}") not in answered]
    assert not lost, f"acknowledged presses not stored: {lost}"
    assert len(acks) == len(set(acks))
    store = await PostgresStore.open(db, owner="checker")
    try:
        for channel, podium in podiums.items():
            key = f"discord:{channel}"
            board = await store.leaderboard(key)
            assert {s.player_key: s.points for s in board} == {p: n for (c, p), n in truth.items() if c == key}
            for standing in board:  # what the channel saw at the end: the same points
                assert f"{standing.name}: {standing.points}" in podium.text, (standing, podium.text)
    finally:
        await store.close()
