"""Telegram's webhook calls behind a load balancer, as the fake Bot API plays them.

Several workers sit behind one public URL. Each update goes to the next worker in turn; a
worker that refuses the connection, drops it or answers anything but a 2xx gets no second
chance: the update goes to the next one, until one answers 2xx (Telegram repeats an update
until it is confirmed). And some updates are delivered twice although a worker took them (an
answer Telegram missed, or a call it gave up waiting for): the repeat goes to another worker,
at the same moment or after the first answer. Every delivery is recorded.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field

import aiohttp

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
RETRY_SECONDS = 0.05  # between a failed delivery and the next try, on the next worker


@dataclass(frozen=True)
class Delivery:
    update_id: int
    worker: int  # its index in LoadBalancer.workers
    status: int  # the HTTP status; 0: no answer (refused, dropped, timed out)
    repeat: bool  # sent again on purpose although a worker had it (not a retry after a failure)


@dataclass
class LoadBalancer:
    """`workers`: each worker's webhook URL; `repeat`: the share of updates delivered twice."""

    workers: list[str]
    secret: str | None = None
    repeat: float = 0.0
    seed: int = 0
    patience: float = 60.0  # seconds an update is offered before it is given up
    deliveries: list[Delivery] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._turn = 0
        self._session: aiohttp.ClientSession | None = None
        self.in_flight: Counter[int] = Counter()  # worker -> deliveries sent and not answered yet

    async def deliver(self, update: dict) -> list[dict]:
        """Deliver until a worker confirms it (and maybe once more); the method calls the
        workers put in their 2xx replies, for the fake to carry out."""
        twice = self._rng.random() < self.repeat
        together = twice and self._rng.random() < 0.5
        extra = asyncio.ensure_future(self._until_taken(update, repeat=True)) if together else None
        try:
            replies = [await self._until_taken(update, repeat=False)]
            if twice and extra is None:
                replies.append(await self._until_taken(update, repeat=True))
            if extra is not None:
                replies.append(await extra)
        finally:
            if extra is not None and not extra.done():  # the caller gave up on this update
                extra.cancel()
        return [reply for reply in replies if reply]

    def delivered(self, update_id: int) -> list[Delivery]:
        return [d for d in self.deliveries if d.update_id == update_id]

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _until_taken(self, update: dict, repeat: bool) -> dict | None:
        loop = asyncio.get_running_loop()
        given_up = loop.time() + self.patience
        while loop.time() < given_up:
            worker = self._next_worker()
            self.in_flight[worker] += 1
            try:
                status, reply = await self._post(self.workers[worker], update)
            finally:
                self.in_flight[worker] -= 1
            self.deliveries.append(Delivery(update["update_id"], worker, status, repeat))
            if 200 <= status < 300:
                return reply
            await asyncio.sleep(RETRY_SECONDS)
        return None

    def _next_worker(self) -> int:
        self._turn = (self._turn + 1) % len(self.workers)
        return self._turn

    async def _post(self, url: str, update: dict) -> tuple[int, dict | None]:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.patience))
        headers = {"Content-Type": "application/json"}
        if self.secret:
            headers[SECRET_HEADER] = self.secret
        try:
            async with self._session.post(url, data=json.dumps(update).encode(), headers=headers) as response:
                body = await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError):
            return 0, None
        if not 200 <= status < 300 or not body:
            return status, None
        try:
            reply = json.loads(body)
        except ValueError:
            return status, None
        return status, reply if isinstance(reply, dict) and "method" in reply else None
