"""The fake Discord's endpoint mode: interactions posted, signed, to the bot's interactions endpoint.

With `endpoints` set (the URLs of one bot, or of several workers behind a load balancer, taken
in turn), every interaction the fake makes is POSTed as Discord does: JSON, signed with the
fake application's Ed25519 key (`public_key` is what DISCORD_PUBLIC_KEY must be). The HTTP
reply is the interaction's callback, checked and shown as a callback made by REST would be
(late, invalid or missing replies are violations); follow-ups come through the webhook routes.

Mixed into `bot.testing.fake_discord.FakeDiscord`.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
from nacl.signing import SigningKey

from bot.testing import fake_discord_payloads as p
from bot.testing.fake_discord_rest import ANSWER_WITHIN, FakeInteraction

CONNECTIONS = 100  # requests in flight to the endpoint at once


@dataclass
class Delivery:
    """One interaction posted to the endpoint: to which worker, what came back, and when."""

    interaction_id: int
    worker: int
    status: int = 0  # 0: no answer (the connection failed or was cut)
    reply: dict[str, Any] | None = None
    seconds: float = 0.0


class EndpointMode:
    violations: list[str]
    interactions: dict[int, FakeInteraction]
    messages: dict[int, p.FakeMessage]

    def _bump(self) -> None:
        raise NotImplementedError

    def _answer(self, interaction: FakeInteraction, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def endpoint_mode(self) -> None:
        self.signing_key = SigningKey.generate()
        self.endpoints: list[str] = []  # empty: interactions go on the gateway
        self.deliveries: list[Delivery] = []
        self.in_flight: list[int] = []  # per worker: posted, not answered yet
        self._turn = 0
        self._http: aiohttp.ClientSession | None = None
        self._posting: set[asyncio.Task[None]] = set()

    @property
    def public_key(self) -> str:
        return self.signing_key.verify_key.encode().hex()

    def use_endpoints(self, *urls: str) -> None:
        """Post interactions to these endpoints from now on, each to the next one in turn."""
        self.endpoints = list(urls)
        self.in_flight = [0] * len(urls)

    def signed(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        """The headers Discord sends with `body`."""
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        signature = self.signing_key.sign(stamp.encode() + body).signature.hex()
        return {"Content-Type": "application/json", "X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp}

    async def post_raw(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        """A request exactly as given (a test breaks its signature, say); its status and body."""
        async with self._session().post(url, data=body, headers=headers) as response:
            return response.status, await response.read()

    async def ping(self, url: str) -> bool:
        """What Discord does when the endpoint URL is saved: a PING, which must get a PONG."""
        body = json.dumps({"id": "1", "application_id": "1", "type": 1, "token": "ping", "version": 1}).encode()
        try:
            status, reply = await self.post_raw(url, body, self.signed(body))
        except (aiohttp.ClientError, OSError):  # not listening yet
            return False
        return status == 200 and json.loads(reply) == {"type": 1}

    async def wait_endpoints(self, timeout: float = 30.0) -> None:
        """Until every endpoint answers a PING."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for url in self.endpoints:
            while not await self.ping(url):
                if loop.time() > deadline:
                    raise TimeoutError(f"fake Discord: {url} never answered a PING")
                await asyncio.sleep(0.05)

    def _post_interaction(self, interaction: FakeInteraction) -> None:
        worker = self._turn % len(self.endpoints)
        self._turn += 1
        task = asyncio.ensure_future(self._deliver(interaction, worker))
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def _deliver(self, interaction: FakeInteraction, first: int) -> None:
        """To the worker whose turn it is; one that refuses the connection (down) passes it to
        the next, as a load balancer does; one that took it and died never answers."""
        body = json.dumps(interaction.payload).encode()
        for turn in range(len(self.endpoints)):
            worker = (first + turn) % len(self.endpoints)
            delivery = Delivery(interaction.id, worker)
            self.deliveries.append(delivery)
            self.in_flight[worker] += 1
            began = asyncio.get_running_loop().time()
            try:
                delivery.status, reply = await self.post_raw(self.endpoints[worker], body, self.signed(body))
                delivery.reply = json.loads(reply) if delivery.status == 200 else None
            except aiohttp.ClientConnectorError:
                continue  # never reached it: the next worker
            except (aiohttp.ClientError, ValueError):
                pass  # the worker died holding it: Discord shows "This interaction failed"
            except OSError:
                continue  # no connection made by another client (the bench's): the next worker
            finally:
                self.in_flight[worker] -= 1
                delivery.seconds = asyncio.get_running_loop().time() - began
            break
        if delivery.reply is not None:
            self._replied(interaction, delivery.reply)
        self._bump()

    def _replied(self, interaction: FakeInteraction, body: dict[str, Any]) -> None:
        """The endpoint's reply, taken as Discord takes a callback."""
        late = asyncio.get_running_loop().time() - interaction.pushed_at
        if late > ANSWER_WITHIN:
            self.violations.append(f"interaction {interaction.id} answered after {late:.1f} s")
            return
        kind, data = body.get("type"), body.get("data") or {}
        problems = p.callback_problems(kind, data)
        if problems:
            self.violations += problems
            return
        interaction.callbacks.append(body)
        assert isinstance(kind, int)  # a callback type, or it had problems
        self._answer(interaction, kind, data)

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=CONNECTIONS))
        return self._http

    async def close_endpoint_mode(self) -> None:
        for task in list(self._posting):
            task.cancel()
        await asyncio.gather(*self._posting, return_exceptions=True)
        if self._http is not None:
            await self._http.close()
