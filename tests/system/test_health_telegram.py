"""/healthz and /metrics of a Telegram worker, end to end: `quizhost run` (real PTB) against the
fake Bot API, on SQLite. A Bot API out of reach makes the worker unhealthy (a load balancer
stops sending it updates) until it is back; refusals are counted by kind."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import pytest

from bot.adapters import platform_watch
from bot.testing.postgres import free_port
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th

KICKED = "Forbidden: bot was kicked from the group chat"


async def health(ops: str) -> tuple[int, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(f"http://{ops}/healthz") as response:
        return response.status, await response.json()


async def health_until(
    ops: str, wanted: Callable[[int, dict[str, str]], bool], timeout: float = 20.0
) -> tuple[int, dict[str, str]]:
    """/healthz asked again and again (as a load balancer does) until its answer is `wanted`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not wanted(*(answer := await health(ops))):
        assert loop.time() < deadline, f"/healthz still says {answer}"
        await asyncio.sleep(0.05)
    return answer


async def metrics(ops: str) -> str:
    async with aiohttp.ClientSession() as http, http.get(f"http://{ops}/metrics") as response:
        return await response.text()


def errors(text: str, platform: str, kind: str) -> float:
    line = f'quizhost_platform_errors_total{{kind="{kind}",platform="{platform}"}} '
    rows = [row for row in text.splitlines() if row.startswith(line)]
    assert len(rows) == 1, f"/metrics has no {line.strip()}"
    return float(rows[0].split()[-1])


@pytest.fixture
def no_grace(monkeypatch) -> None:
    """A failed call makes the platform "down" at once (the grace is 10 s, for blips)."""
    monkeypatch.setattr(platform_watch, "GRACE_SECONDS", 0.0)


@pytest.mark.parametrize(
    ("webhook", "http"),
    [(False, "aiohttp"), (True, "aiohttp"), (False, "httpx")],
    ids=["polling", "webhook", "polling-httpx"],
)
async def test_healthz_is_503_naming_telegram_while_the_bot_api_is_unreachable(
    fake, clock, tmp_path, no_grace, webhook, http
):
    ops = f"127.0.0.1:{free_port()}"
    listen = f"127.0.0.1:{free_port()}"
    options = (
        {
            "telegram_webhook_url": f"http://{listen}/tg",
            "telegram_webhook_listen": listen,
            "telegram_webhook_secret": "s3cret",
        }
        if webhook
        else {}
    )
    options["telegram_http"] = http
    group, ann = fake.group(-1101), fake.user(1101, "Ann")
    async with th.running_bot(fake, th.settings_for(fake, tmp_path, quizhost_ops_listen=ops, **options), clock):
        assert await health_until(ops, lambda status, _: status == 200) == (200, {"store": "ok", "telegram": "ok"})

        await fake.stop()  # Telegram out of reach: every call is refused
        if webhook:  # a webhook worker calls only when it has something to say: a member types
            await fake.post_to_webhook(fake.text_update(group, ann, "/help"), "s3cret")
        _, parts = await health_until(ops, lambda status, _: status == 503)
        assert parts["store"] == "ok"
        assert parts["telegram"].startswith(("down: connection refused", "down: connection lost")), parts
        assert fake.token not in str(parts)

        await fake.start()  # back on the same address
        assert await health_until(ops, lambda status, _: status == 200) == (200, {"store": "ok", "telegram": "ok"})
        assert errors(await metrics(ops), "telegram", "network") >= 1


async def test_metrics_count_a_429_and_a_403_of_the_bot_api_by_kind(fake, clock, tmp_path):
    ops = f"127.0.0.1:{free_port()}"
    group = fake.group(-1102)
    ann = th.Member(fake, group, fake.user(1102, "Ann"))
    fake.expected_refusals.add(KICKED)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path, quizhost_ops_listen=ops), clock):
        fake.fail("sendMessage", "429", retry_after=1)
        assert "/quiz" in (await ann.says("/help")).text  # the reply waited out the 429
        fake.remove_bot(group)
        await fake.send_text(group, ann.user, "/help")
        await fake.wait_for(lambda: any(c.status == 403 for c in fake.calls), what="the refused reply")

        text = await metrics(ops)
        assert errors(text, "telegram", "rate_limited") == 1
        assert errors(text, "telegram", "forbidden") == 1
        assert errors(text, "telegram", "network") == errors(text, "telegram", "server") == 0
        assert (await health(ops))[0] == 200, "refusals are answers: Telegram is there"
