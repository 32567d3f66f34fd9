"""The fake platform's process, seen from the bench: spawn it, send commands, read answers;
and the bot's settings that point it there."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app.settings import Settings

LINE_LIMIT = 1 << 26  # the raw reference's ids arrive on one line
QUESTION_SECONDS = 300  # the first question of a group waits for its deadline: it stays open throughout


class FakeProcessError(RuntimeError):
    """The fake's process failed; the message carries the end of its stderr."""


class FakeProcess:
    """`python -m bot.bench.platform_fake <platform>` on 127.0.0.1, driven over stdin/stdout."""

    def __init__(self, process: asyncio.subprocess.Process, info: dict) -> None:
        self.process, self.info = process, info
        self._stderr: collections.deque[str] = collections.deque(maxlen=40)
        self._drain = asyncio.ensure_future(self._read_stderr())

    @classmethod
    async def spawn(cls, platform: str) -> FakeProcess:
        # the same interpreter finds the same bot package (and its shipped fakes), installed or not
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.bench.platform_fake",
            platform,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )
        fake = cls(process, {})
        fake.info = await fake._answer()
        return fake

    async def ask(self, command: str, **arguments: Any) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"cmd": command, **arguments}) + "\n").encode())
        await self.process.stdin.drain()
        return await self._answer()

    async def _answer(self) -> dict:
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            await self.process.wait()
            await asyncio.sleep(0.05)  # the last of stderr
            raise FakeProcessError("the fake platform's process ended:\n" + "".join(self._stderr))
        answer = json.loads(line)
        if "error" in answer:
            raise FakeProcessError(f"the fake platform said: {answer['error']}")
        return answer

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self._stderr.append(line.decode(errors="replace"))

    async def close(self) -> None:
        if self.process.returncode is None:
            try:
                await asyncio.wait_for(self.ask("quit"), 10)
                await asyncio.wait_for(self.process.wait(), 10)
            except (FakeProcessError, TimeoutError, BrokenPipeError, ConnectionResetError):
                self.process.kill()
                await self.process.wait()
        await asyncio.gather(self._drain, return_exceptions=True)

    async def __aenter__(self) -> FakeProcess:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def bot_settings(
    platform: str, info: dict, chats: dict, db: Path, http: str, webhook: str | None = None, endpoint: str = ""
) -> Settings:
    """The bot's settings, all given here: no token or .env of this machine may start anything else.
    `endpoint`: Discord's interactions endpoint URL (http://127.0.0.1:port/path) to listen on."""
    from bot.app.settings import Settings

    values: dict[str, Any] = dict(
        quizhost_db=db,
        quizhost_quizzes="",
        quizhost_question_seconds=QUESTION_SECONDS,
        quizhost_pause_seconds=0,
        log_level="WARNING",
        telegram_bot_token=None,
        telegram_webhook_url="",
        telegram_proxy="",
        telegram_http=http,
        discord_bot_token=None,
        discord_guild_ids="",
        discord_shards="",
    )
    if platform == "telegram":
        values.update(telegram_bot_token=info["token"], telegram_api_url=info["api_url"])
        if webhook:
            port = free_port()
            values.update(
                telegram_webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
                telegram_webhook_listen=f"127.0.0.1:{port}",
                telegram_webhook_answers=webhook,
            )
    else:
        values.update(discord_bot_token=info["token"], discord_guild_ids=",".join(map(str, chats["guild_ids"])))
        if endpoint:
            listen = endpoint.removeprefix("http://")
            values.update(discord_interactions_listen=listen, discord_public_key=info["public_key"])
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def pointed_at(info: dict | None) -> Iterator[None]:
    """discord.py at the fake (class attributes, as in the end-to-end tests); Telegram needs none."""
    if info is None:
        yield
        return
    import discord
    import yarl

    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = info["api_base"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(info["gateway_url"])
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
