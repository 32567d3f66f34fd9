"""Running the real `quizhost run` wiring against the fake Discord, and reading what players see."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import discord
import pytest
import yarl

from bot.app.settings import Settings, load_settings
from bot.app.wiring import run
from bot.testing.clock import FakeClock
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import FakeMessage

TINY_QUIZ = """\
id: tiny
aliases: [small-one]
tags: [testing]
difficulty: easy
title: Tiny Test Quiz
description: Three quick questions for the Discord tests.
questions:
  - id: red
    prompt: Which planet is red?
    options: [Mars, Venus, Jupiter, Saturn]
    answer: 0
    explanation: Iron oxide dust makes Mars look red.
  - id: big
    prompt: Which planet is the largest?
    options: [Mars, Venus, Jupiter, Saturn]
    answer: 2
    explanation: Jupiter has more mass than all the other planets together.
  - id: rings
    prompt: Which planet has the brightest rings?
    options: [Mars, Venus, Jupiter, Saturn]
    answer: 3
    explanation: Saturn's rings are ice, which reflects sunlight well.
"""
TINY_KEY = {
    "Which planet is red?": "Mars",
    "Which planet is the largest?": "Jupiter",
    "Which planet has the brightest rings?": "Saturn",
}
_OPTION_LINE = re.compile(r"^\u200f?([A-J])\) (.*)$")


@pytest.fixture
async def fake(monkeypatch, caplog):
    """A fake Discord that discord.py talks to; the test fails on any error the bot logged."""
    for name in list(os.environ):  # only the test's settings: a token or setting of this machine starts nothing
        if name.startswith(("TELEGRAM_", "DISCORD_", "QUIZHOST_")) or name == "LOG_LEVEL":
            monkeypatch.delenv(name)
    fake = await FakeDiscord().start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    try:
        yield fake
    finally:
        await fake.stop()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], "the bot logged errors"


@pytest.fixture
def server(fake: FakeDiscord) -> tuple[int, int]:
    """A server with two channels; returns (server id, first channel id)."""
    guild = fake.add_guild("Quiz server", channels=("general", "random"))
    return guild, fake.guilds[guild]["channels"][0]


def make_settings(tmp_path: Path, fake: FakeDiscord, **overrides: object) -> Settings:
    folder = tmp_path / "quizzes"
    folder.mkdir(exist_ok=True)
    (folder / "tiny.yaml").write_text(TINY_QUIZ, encoding="utf-8")
    values: dict[str, object] = {
        "quizhost_db": tmp_path / "quizhost.db",
        "quizhost_quizzes": str(folder),
        "quizhost_question_seconds": 30,
        "quizhost_pause_seconds": 0,
        "discord_bot_token": fake.token,
        "discord_guild_ids": ",".join(str(g) for g in fake.guilds),
        "discord_shards": "",
        "telegram_bot_token": None,
    }
    return load_settings(env_file=None, **{**values, **overrides})


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, settings: Settings, clock: FakeClock, syncs: int | None = None
) -> AsyncIterator[None]:
    """`quizhost run` in this process until the block ends; the fake clock drives question timers.

    It starts once the bot is on the gateway and `syncs` command syncs (default: one per
    server in DISCORD_GUILD_IDS, or the global one) have succeeded."""
    syncs = len(fake.syncs) + (max(1, len(settings.discord_guilds())) if syncs is None else syncs)
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings, clock=clock, stop=stop), name="quizhost run")
    try:
        await fake.wait_for(
            lambda: task.done() or (fake.connected_shards and len(fake.syncs) >= syncs),
            what="the bot to log in and sync its commands",
        )
        if task.done():
            task.result()  # raises what stopped it
            raise AssertionError("quizhost run ended before it connected")
        yield
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0


async def question_stored(db: Path, message_id: int, timeout: float = 10.0) -> None:
    """Wait until the engine has stored where question `message_id` was posted: a restart before
    that moment asks the question again (in a new message) instead of resuming this one."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            if conn.execute("SELECT 1 FROM runs WHERE message_id = ?", (str(message_id),)).fetchone():
                return
        await asyncio.sleep(0.01)
    raise TimeoutError(f"the engine never stored message {message_id}")


def is_question(number: int) -> Callable[[FakeMessage], bool]:
    return lambda m: bool(m.data["embeds"]) and m.data["embeds"][0]["title"].startswith(f"Question {number}/")


def options_of(message: FakeMessage) -> dict[str, str]:
    """Letter -> option text, as the question embed lists them."""
    description = message.data["embeds"][0]["description"]
    return {m.group(1): m.group(2) for line in description.splitlines() if (m := _OPTION_LINE.match(line))}


def prompt_of(message: FakeMessage) -> str:
    return message.data["embeds"][0]["description"].splitlines()[0].lstrip("\u200f")


def letter_of(message: FakeMessage, text: str) -> str:
    return next(letter for letter, option in options_of(message).items() if option == text)


def right_letter(message: FakeMessage, key: dict[str, str] = TINY_KEY) -> str:
    return letter_of(message, key[prompt_of(message)])


def wrong_letter(message: FakeMessage, key: dict[str, str] = TINY_KEY) -> str:
    right = right_letter(message, key)
    return next(letter for letter in options_of(message) if letter != right)


def button_id(message: FakeMessage, letter: str) -> str:
    for button in message.buttons():
        label = str(button.get("label", ""))
        if label == letter or label.startswith((f"{letter})", f"{letter} ·")):
            return button["custom_id"]
    raise AssertionError(f"no button {letter} on message {message.id}")


def endpoint_settings(tmp_path: Path, fake: FakeDiscord, port: int, **overrides: object) -> Settings:
    """The bot on the interactions endpoint (127.0.0.1:port/interactions), the fake posting there."""
    fake.use_endpoints(f"http://127.0.0.1:{port}/interactions")
    return make_settings(
        tmp_path,
        fake,
        discord_interactions_listen=f"127.0.0.1:{port}/interactions",
        discord_public_key=fake.public_key,
        **overrides,
    )


@contextlib.asynccontextmanager
async def running_endpoint_bot(fake: FakeDiscord, settings: Settings, clock: FakeClock) -> AsyncIterator[None]:
    """`quizhost run` with interactions over HTTP, once it synced its commands and its endpoint
    answered Discord's PING; it never opens the gateway."""
    syncs = len(fake.syncs) + max(1, len(settings.discord_guilds()))
    stop = asyncio.Event()
    task = asyncio.create_task(run(settings, clock=clock, stop=stop), name="quizhost run")
    try:
        await fake.wait_for(lambda: task.done() or len(fake.syncs) >= syncs, what="the command sync")
        if task.done():
            task.result()
            raise AssertionError("quizhost run ended before it synced")
        await fake.wait_endpoints()
        yield
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
