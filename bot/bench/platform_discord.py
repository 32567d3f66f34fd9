"""The Discord players of `quizhost bench --platform discord` (runs in the fake's process).

The fake Discord of the end-to-end tests (REST and gateway), with three changes: a press is
timestamped when its INTERACTION_CREATE is handed to the gateway, and its interaction callback
when it reaches the fake; with `--http` its interactions are posted by the bench's own client
(bot/bench/webhook_poster.py), as the fake Telegram posts its webhook's updates.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp import web

from bot.adapters.discord import views
from bot.bench.platform_fake import Candidate, Driver
from bot.bench.webhook_poster import PostFailed, WebhookPoster
from bot.domain import tokens
from bot.testing.fake_discord import FakeDiscord, FakeInteraction, FakeMessage
from bot.testing.fake_discord_endpoint import CONNECTIONS

CHANNELS_PER_SERVER = 500  # Discord's limit on channels in one server
QUESTION_PREFIX = views.PREFIX + tokens.Kind.ANSWER.prefix


class BenchDiscord(FakeDiscord):
    """The tests' fake, reporting interaction callbacks and question messages to the driver."""

    driver: Driver

    def __init__(self) -> None:
        super().__init__()
        self.questions: dict[int, int] = {}  # channel id -> its first question message
        self.posters: dict[str, WebhookPoster] = {}  # endpoint URL -> its client

    async def post_raw(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        """As the tests' fake posts with aiohttp's client, on the bench's own (webhook_poster.py):
        that client cost the fake about 190 µs a press against 115, and it held each wave of
        presses back until the fake had prepared all of them (docs/PERFORMANCE.md). An endpoint
        it cannot connect to raises OSError, as the fake expects (another worker takes the
        interaction); one that took the request and gave no readable answer, aiohttp's error."""
        poster = self.posters.get(url)
        if poster is None:
            poster = self.posters[url] = WebhookPoster(url, CONNECTIONS, {})
        try:
            return await poster.post(body, headers)
        except PostFailed as cut:
            raise aiohttp.ServerDisconnectedError(str(cut)) from cut

    async def stop(self) -> None:
        await super().stop()  # its posts end first
        for poster in self.posters.values():
            await poster.close()

    def _replied(self, interaction: FakeInteraction, body: dict[str, Any]) -> None:
        """The endpoint mode's acknowledgement: the bot's HTTP reply."""
        super()._replied(interaction, body)
        if interaction.callbacks:
            self.driver.acked(interaction.id, (body.get("data") or {}).get("content"))

    async def _callback(self, request: web.Request) -> web.Response:
        response = await super()._callback(request)
        if response.status in (200, 204):
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
        self.balanced_from = 0  # deliveries before the workers of this pass

    async def listen(self) -> dict:
        await self.fake.start()
        return {
            "port": self.fake.port,
            "token": self.fake.token,
            "api_base": self.fake.api_base,
            "gateway_url": self.fake.gateway_url,
            "public_key": self.fake.public_key,  # what signs the endpoint mode's posts
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
        """/quiz in every channel not yet playing; wait for every first question."""
        fake = self.fake
        if fake.endpoints:  # no gateway: the commands synced and the endpoint answering PINGs
            await fake.wait_for(lambda: len(fake.syncs) >= len(self.guild_ids), timeout, "the command sync")
            await fake.wait_endpoints(timeout)
        else:
            await fake.wait_ready(syncs=len(self.guild_ids), timeout=timeout)
        # channels not playing yet: a pass of `--workers` adds its own, on a fresh database
        waiting = [(channel, people) for channel, people in self.rosters if channel not in fake.questions]
        for channel, people in waiting:
            fake.push_slash(people[0], channel, "quiz", topic=topic)
        await fake.wait_for(
            lambda: all(channel in fake.questions for channel, _ in waiting),
            timeout,
            "the first question in every channel",
        )
        pool = []
        for channel, people in waiting:
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

    def use_endpoint(self, url: str) -> dict:
        """Interactions posted to the bot's endpoint from now on (`--http`)."""
        self.fake.use_endpoints(url)
        return {"endpoint": url}

    async def raw_endpoint(self, url: str, count: int, window: int) -> dict:
        """`count` presses like the bot's (a question's message and all), signed and posted to a
        bare handler at `url`, `window` in flight; how many it acknowledged, and how fast."""
        fake = self.fake
        channel, people = self.rosters[0]
        message = fake.messages[fake.questions[channel]].data
        data = {"custom_id": message["components"][0]["components"][0]["custom_id"], "component_type": 2}
        template = fake.interaction_payload(people[0], channel, 3, data, message=message)
        slots, statuses = asyncio.Semaphore(window), Counter[str]()

        async def one() -> bool:
            try:
                body = json.dumps({**template, "id": str(fake.new_id())}).encode()
                status, reply = await fake.post_raw(url, body, fake.signed(body))
            finally:
                slots.release()
            statuses[str(status)] += 1
            return status == 200 and json.loads(reply).get("type") == 4

        gc.disable()  # as in the bot's phases (Driver._begin): no collection of the fake's heap meanwhile
        try:
            began, posts = time.perf_counter(), []
            for _ in range(count):  # as the flat-out phase presses: a new one whenever one is answered
                await slots.acquire()
                posts.append(asyncio.ensure_future(one()))
            acked = sum(await asyncio.gather(*posts))
            seconds = time.perf_counter() - began
        finally:
            gc.enable()
            gc.collect()
        return {"acked": acked, "seconds": seconds, "statuses": dict(statuses)}

    def balance(self, addresses: list[str], secret: str) -> dict:
        """`--workers`: interactions posted to these workers' endpoints in turn (`secret`: unused,
        Discord signs instead)."""
        self.fake.use_endpoints(*addresses)
        self.balanced_from = len(self.fake.deliveries)
        # each pass is a fresh database whose runs are numbered from 1 again, so its outbox keys
        # (the messages' nonces) repeat the last pass's: Discord would hand back those messages
        self.fake.nonces.clear()
        return {"workers": len(addresses)}

    def delivered(self) -> dict:
        """Interactions each worker answered since `balance`, and deliveries that failed."""
        deliveries = self.fake.deliveries[self.balanced_from :]
        taken = [d.worker for d in deliveries if d.status == 200]
        return {
            "per_worker": [taken.count(n) for n in range(len(self.fake.endpoints))],
            "failed": len(deliveries) - len(taken),
        }

    def more_commands(self) -> dict[str, Callable[..., Any]]:
        return {
            "use_endpoint": self.use_endpoint,
            "raw_endpoint": self.raw_endpoint,
            "balance": self.balance,
            "delivered": self.delivered,
        }
