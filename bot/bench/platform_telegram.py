"""The Telegram players of `quizhost bench --platform telegram` (runs in the fake's process).

The fake Bot API of the end-to-end tests, with additions: a press is timestamped the moment it
joins the getUpdates queue (or is posted to the webhook), and its answerCallbackQuery the moment
the fake takes it, as a request or inside the webhook's reply. The webhook gets updates as
Telegram sends them: one per request, over at most `max_connections` connections at a time.
With several workers (`--workers`) the fake's load balancer of the tests
(bot/testing/fake_telegram_balancer.py) posts each update to the next worker in turn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from bot.bench.platform_fake import Candidate, Driver
from bot.bench.webhook_poster import PostFailed, WebhookPoster
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_balancer import SECRET_HEADER, LoadBalancer
from bot.testing.fake_telegram_methods import Press

FIRST_CHAT = -1_001_000_000_000  # supergroup ids are negative
FIRST_USER = 10_000_000
WEBHOOK_CONNECTIONS = 40  # Telegram's default max_connections
# what Telegram's webhook requests carry besides Host, Content-Length and the secret
TELEGRAM_HEADERS = {"Content-Type": "application/json", "Connection": "keep-alive", "Accept-Encoding": "gzip, deflate"}


class BenchBotApi(FakeBotApi):
    """The tests' fake, reporting presses and their answers to the driver."""

    driver: Driver
    poster: WebhookPoster | None = None
    posts: set[asyncio.Task] | None = None
    webhook_failures: int = 0

    async def _m_answerCallbackQuery(self, p: dict) -> bool:
        result = await super()._m_answerCallbackQuery(p)
        self.driver.acked(p["callback_query_id"], p.get("text"))
        return result

    async def _m_setWebhook(self, p: dict) -> bool:
        result = await super()._m_setWebhook(p)
        assert self.webhook is not None
        self.webhook["max_connections"] = int(p.get("max_connections") or WEBHOOK_CONNECTIONS)
        if self.poster is not None:  # the next post connects to this webhook
            await self.poster.close()
            self.poster = None
        return result

    async def _deliver(self, update: dict) -> None:
        """Posted in a task of its own: many updates are in flight at once, as Telegram sends them."""
        if self.webhook is None and self.balancer is None:
            await super()._deliver(update)
            return
        self.posts = self.posts if self.posts is not None else set()
        task = asyncio.ensure_future(self._post_update(update))
        self.posts.add(task)
        task.add_done_callback(self.posts.discard)

    async def _post_update(self, update: dict) -> None:
        """One update to the bot's webhook (or through the balancer to a worker's); a method
        call in the reply is carried out, as Telegram does."""
        methods = await self.balancer.deliver(update) if self.balancer else await self._post_to_hook(update)
        for method in methods:
            await self.carry_out(method)

    async def _post_to_hook(self, update: dict) -> list[dict]:
        assert self.webhook is not None
        if self.poster is None:
            headers = dict(TELEGRAM_HEADERS)
            if self.webhook.get("secret_token"):
                headers[SECRET_HEADER] = self.webhook["secret_token"]
            self.poster = WebhookPoster(self.webhook["url"], self.webhook["max_connections"], headers)
        try:
            status, body = await self.poster.post(json.dumps(update).encode())
        except (PostFailed, OSError):
            status, body = 0, b""
        if status != 200:
            self.webhook_failures += 1
            return []
        method = json.loads(body) if body else {}
        return [method] if "method" in method else []

    async def stop(self) -> None:
        if self.poster is not None:
            await self.poster.close()
        if self.balancer is not None:
            await self.balancer.close()
        await super().stop()

    async def bench_press(self, chat: dict, user: dict, message_id: int, data: str) -> str:
        """`press` of the tests' fake, timestamped as the update joins the queue getUpdates reads
        (or leaves for the webhook)."""
        sent = self.messages[(chat["id"], message_id)]
        query_id = f"cb{next(self._press_ids)}"
        query = {
            "id": query_id,
            "from": user,
            "message": self._message_json(sent),
            "chat_instance": f"ci{chat['id']}",
            "data": data,
        }
        update: dict[str, Any] = {"update_id": next(self._update_ids), "callback_query": query}
        self.presses[query_id] = Press(query_id, update["update_id"])
        self.driver.pressed(query_id)
        await self._deliver(update)
        return query_id


class TelegramDriver(Driver):
    def __init__(self) -> None:
        super().__init__()
        self.fake = BenchBotApi()
        self.fake.driver = self
        self.rosters: list[tuple[dict, list[dict]]] = []  # chat, its players
        self.calls_before = 0  # calls made before this bot started
        self.raw_ids: list[str] = []  # callback queries made for the bare client since it last counted

    async def listen(self) -> dict:
        await self.fake.start()
        return {"port": self.fake.port, "token": self.fake.token, "api_url": self.fake.url}

    async def close(self) -> None:
        await self.fake.stop()

    def setup(self, chats: int, players: int) -> dict:
        self.calls_before = len(self.fake.calls)
        first = FIRST_USER + sum(len(people) for _, people in self.rosters)
        for i in range(chats):
            chat = self.fake.group(FIRST_CHAT - len(self.rosters), f"Bench group {len(self.rosters)}")
            people = [self.fake.user(first + i * players + j, f"P{i}", f"{j}") for j in range(players)]
            self.rosters.append((chat, people))
        return {"chats": len(self.rosters)}

    async def start_quizzes(self, topic: str, timeout: float) -> list[Candidate]:
        """/quiz in every chat not yet playing; wait for every first question."""
        fake = self.fake
        await fake.wait_for(self._listening, timeout, "the bot to poll or set its webhook")
        waiting = [(chat, people) for chat, people in self.rosters if chat["id"] not in fake._questions]
        for chat, people in waiting:
            await fake.send_text(chat, people[0], f"/quiz {topic}")
        await fake.wait_for(
            lambda: all(chat["id"] in fake._questions for chat, _ in waiting),
            timeout,
            "the first question in every chat",
        )
        pool = []
        for chat, people in waiting:
            message_id = min(fake._questions[chat["id"]])
            choices = [b["callback_data"] for b in fake.messages[(chat["id"], message_id)].buttons()]
            pool += [Candidate(chat, person, message_id, choices) for person in people]
        return pool

    def _listening(self) -> bool:
        """The bot polls or set its webhook; with workers, every one of them set it (so listens)."""
        calls = [c.method for c in self.fake.calls[self.calls_before :]]
        if self.fake.balancer is not None:
            return calls.count("setWebhook") >= len(self.fake.balancer.workers)
        return "getUpdates" in calls or "setWebhook" in calls

    async def balance(self, addresses: list[str], secret: str) -> dict:
        """From now on, updates go round robin to these workers' webhooks (their common secret)."""
        if self.fake.balancer is not None:
            await self.fake.balancer.close()
        self.fake.balancer = LoadBalancer(addresses, secret)
        return {"workers": len(addresses)}

    def delivered(self) -> dict:
        """Updates each worker took (a 2xx) since `balance`, in its order, and deliveries that failed."""
        balancer = self.fake.balancer
        deliveries = balancer.deliveries if balancer is not None else []
        taken = [d.worker for d in deliveries if 200 <= d.status < 300]
        workers = len(balancer.workers) if balancer is not None else 0
        return {"per_worker": [taken.count(n) for n in range(workers)], "failed": len(deliveries) - len(taken)}

    def more_commands(self) -> dict[str, Callable[..., Any]]:
        return {"balance": self.balance, "delivered": self.delivered}

    async def press(self, candidate: Candidate) -> Any:
        return await self.fake.bench_press(
            candidate.chat, candidate.player, candidate.message, self.rng.choice(candidate.choices)
        )

    def raw_targets(self, count: int) -> dict:
        """Callback queries nobody will deliver: a bare client answers them directly."""
        ids = []
        for _ in range(count):
            query_id = f"raw{next(self.fake._press_ids)}"
            self.fake.presses[query_id] = Press(query_id, 0)
            ids.append(query_id)
        self.raw_ids += ids
        return {"url": f"{self.fake.url}{self.fake.token}/answerCallbackQuery", "ids": ids}

    def raw_answered(self) -> int:
        answered = sum(1 for key in self.raw_ids if self.fake.presses[key].answered)
        self.raw_ids = []
        return answered
