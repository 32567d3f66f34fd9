"""The bench's fake Discord posts interactions with the bench's own client (bot/bench/webhook_poster.py)
rather than aiohttp's, as Discord does: signed, so that an endpoint checking the signature takes
them; a worker that refuses the connection passes the interaction to the next, as a load balancer
does; a worker that took it and hung up has failed it, and nobody else gets it."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.bench.platform_discord import DiscordDriver
from bot.bench.platform_endpoint import bare_handler
from bot.bench.platform_process import free_port
from bot.testing.fake_discord import FakeDiscord
from tests.support.raw_http import Server

BUTTON = "answer-a"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = DiscordDriver().fake
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def question(fake: FakeDiscord) -> tuple[object, int]:
    """A player and a message with one button, posted through the fake's REST API as the bot would."""
    guild = fake.add_guild("Bench server", channels=("general",))
    channel = fake.guilds[guild]["channels"][0]
    button = {"type": 2, "style": 1, "label": "A", "custom_id": BUTTON}
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        posted = await http.post(
            f"{fake.api_base}/channels/{channel}/messages",
            json={"content": "Which one?", "components": [{"type": 1, "components": [button]}]},
        )
        assert posted.status == 200, await posted.text()
        message = int((await posted.json())["id"])
    return fake.add_user("Player"), message


async def test_a_press_is_signed_and_a_worker_that_refuses_the_connection_passes_it_on(fake):
    player, message = await question(fake)
    async with bare_handler(fake.public_key) as verifying:  # 401 unless the signature holds
        fake.use_endpoints(f"http://127.0.0.1:{free_port()}/interactions", verifying)  # nothing listens on the first
        interaction = fake.push_press(player, message, BUTTON)
        await fake.wait_for(lambda: interaction.callbacks, 10, "the press's answer")
    assert [(d.worker, d.status) for d in fake.deliveries] == [(0, 0), (1, 200)]
    assert interaction.callbacks[0]["type"] == 4 and interaction.callbacks[0]["data"]["flags"] == 64
    assert fake.violations == []


async def test_a_worker_that_takes_a_press_and_hangs_up_has_failed_it(fake):
    player, message = await question(fake)
    hangs_up = Server(lambda n: None)  # reads the request, then closes the connection without a word
    url = await hangs_up.start()
    fake.use_endpoints(url, url)
    loop, errors = asyncio.get_running_loop(), list[dict]()
    loop.set_exception_handler(lambda _, context: errors.append(context))
    try:
        fake.push_press(player, message, BUTTON)
        await fake.wait_for(lambda: fake.deliveries and fake.deliveries[-1].seconds, 10, "the worker to hang up")
        await asyncio.sleep(0)  # the delivery's task ends
        gc.collect()  # a task that ended on an error nobody handled says so as it goes
    finally:
        loop.set_exception_handler(None)
        await hangs_up.stop()
    assert [(d.worker, d.status) for d in fake.deliveries] == [(0, 0)], "no other worker was given it"
    assert errors == [], "the fake took the hang-up in its stride"
