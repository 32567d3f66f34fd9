"""The Discord players of `quizhost bench --platform discord` (runs in the fake's process).

The fake Discord of the end-to-end tests (REST and gateway), with two additions: a press is
timestamped when its INTERACTION_CREATE is handed to the gateway, and its interaction callback
when it reaches the fake.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from bot.adapters.discord import views
from bot.bench.platform_fake import Candidate, Driver
from bot.domain import tokens
from bot.testing.fake_discord import FakeDiscord, FakeInteraction, FakeMessage

CHANNELS_PER_SERVER = 500  # Discord's limit on channels in one server
QUESTION_PREFIX = views.PREFIX + tokens.Kind.ANSWER.prefix


class BenchDiscord(FakeDiscord):
    """The tests' fake, reporting interaction callbacks and question messages to the driver."""

    driver: Driver

    def __init__(self) -> None:
        super().__init__()
        self.questions: dict[int, int] = {}  # channel id -> its first question message

    async def _callback(self, request: web.Request) -> web.Response:
        response = await super()._callback(request)
        if response.status == 200:
            interaction = self.interactions[int(request.match_info["id"])]
            data = interaction.callbacks[-1].get("data") or {}
            self.driver.acked(interaction.id, data.get("content"))
        return response

    def _store(
        self, channel_id: int, data: dict[str, Any], ephemeral: bool = False, interaction_id: int | None = None
    ) -> FakeMessage:
        stored = super()._store(channel_id, data, ephemeral, interaction_id)
        if not ephemeral and any(str(b.get("custom_id", "")).startswith(QUESTION_PREFIX) for b in stored.buttons()):
            self.questions.setdefault(channel_id, stored.id)
        return stored


class DiscordDriver(Driver):
    def __init__(self) -> None:
        super().__init__()
        self.fake = BenchDiscord()
        self.fake.driver = self
        self.rosters: list[tuple[int, list[Any]]] = []  # channel, its players
        self.guild_ids: list[int] = []
        self.raw_ids: list[int] = []  # interactions made for the bare client since it last counted

    async def listen(self) -> dict:
        await self.fake.start()
        return {
            "port": self.fake.port,
            "token": self.fake.token,
            "api_base": self.fake.api_base,
            "gateway_url": self.fake.gateway_url,
        }

    async def close(self) -> None:
        await self.fake.stop()

    def setup(self, chats: int, players: int) -> dict:
        """Servers of up to 500 channels; every channel a chat with its own players."""
        for start in range(0, chats, CHANNELS_PER_SERVER):
            names = tuple(f"bench-{n}" for n in range(start, min(chats, start + CHANNELS_PER_SERVER)))
            guild = self.fake.add_guild(f"Bench server {len(self.guild_ids)}", channels=names)
            self.guild_ids.append(guild)
            for channel in self.fake.guilds[guild]["channels"]:
                people = [self.fake.add_user(f"P{len(self.rosters)}.{j}") for j in range(players)]
                self.rosters.append((channel, people))
        return {"chats": len(self.rosters), "guild_ids": self.guild_ids}

    async def start_quizzes(self, topic: str, timeout: float) -> list[Candidate]:
        """/quiz in every channel; wait for every first question."""
        fake = self.fake
        await fake.wait_ready(syncs=len(self.guild_ids), timeout=timeout)
        for channel, people in self.rosters:
            fake.push_slash(people[0], channel, "quiz", topic=topic)
        await fake.wait_for(
            lambda: all(channel in fake.questions for channel, _ in self.rosters),
            timeout,
            "the first question in every channel",
        )
        pool = []
        for channel, people in self.rosters:
            message = fake.messages[fake.questions[channel]]
            choices = [b["custom_id"] for b in message.buttons()]
            pool += [Candidate(channel, person, message.id, choices) for person in people]
        return pool

    async def press(self, candidate: Candidate) -> Any:
        interaction = self.fake.push_press(candidate.player, candidate.message, self.rng.choice(candidate.choices))
        self.pressed(interaction.id)
        return interaction.id

    def raw_targets(self, count: int) -> dict:
        """Interactions nobody will dispatch: a bare client answers their callbacks directly."""
        fake, loop = self.fake, asyncio.get_running_loop()
        channel = self.rosters[0][0]
        targets = []
        for _ in range(count):
            interaction_id = fake.new_id()
            token = f"raw-{interaction_id}"
            payload = {"id": str(interaction_id), "type": 3, "channel_id": str(channel)}
            fake.interactions[interaction_id] = FakeInteraction(interaction_id, token, payload, loop.time())
            targets.append(f"{interaction_id}/{token}")
            self.raw_ids.append(interaction_id)
        return {"url": f"{fake.api_base}/interactions/", "ids": targets}

    def raw_answered(self) -> int:
        answered = sum(1 for key in self.raw_ids if self.fake.interactions[key].callbacks)
        self.raw_ids = []
        return answered
