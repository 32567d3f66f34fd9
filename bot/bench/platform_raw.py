"""The reference of `quizhost bench --platform`: a bare aiohttp client acknowledging presses.

No bot library, no engine: one `ClientSession`, `concurrency` requests in flight, each the
acknowledgement a press costs (answerCallbackQuery with its text, or an ephemeral interaction
callback), against the same fake in the same run. It is the ceiling for this machine, this
fake and this HTTP stack; the bench reports the bot's rate as a fraction of it.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import aiohttp

from bot.bench.platform_process import FakeProcess

ACK_TEXT = "Locked in: B"
CHUNK = 2000  # the fake Discord refuses callbacks later than 3 s after the interaction was made


def telegram_request(url: str, query_id: str) -> tuple[str, dict[str, Any]]:
    # form-encoded, as PTB sends it
    return url, {"data": {"callback_query_id": query_id, "text": ACK_TEXT}}


def discord_request(url: str, target: str) -> tuple[str, dict[str, Any]]:
    # type 4 = a message in answer; flags 64 = ephemeral, as discord.py sends send_message(ephemeral=True)
    return f"{url}{target}/callback", {"json": {"type": 4, "data": {"content": ACK_TEXT, "flags": 64}}}


async def acknowledge_all(requests: list[tuple[str, dict[str, Any]]], concurrency: int) -> tuple[float, Counter]:
    """POST every request, `concurrency` at a time; returns (seconds, count per HTTP status)."""
    statuses: Counter = Counter()
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        queue: Iterator[tuple[str, dict[str, Any]]] = iter(requests)

        async def worker() -> None:
            for url, kwargs in queue:
                async with session.post(url, **kwargs) as response:
                    await response.read()
                    statuses[response.status] += 1

        began = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - began, statuses


async def raw_rate(fake: FakeProcess, platform: str, count: int, concurrency: int) -> dict:
    """`count` presses the bot never sees, made by the fake and acknowledged here; the rate the
    fake accepted acknowledgements at."""
    make = telegram_request if platform == "telegram" else discord_request
    seconds, statuses, done = 0.0, Counter[int](), 0
    while done < count:
        chunk = min(CHUNK, count - done)
        targets = await fake.ask("raw", count=chunk)
        took, counted = await acknowledge_all([make(targets["url"], t) for t in targets["ids"]], concurrency)
        seconds, done = seconds + took, done + chunk
        statuses.update(counted)
    accepted = (await fake.ask("raw_answered"))["result"]
    return {
        "acked": accepted,
        "seconds": round(seconds, 3),
        "per_s": round(accepted / seconds) if seconds else 0,
        "statuses": {str(k): v for k, v in statuses.items()},
        "concurrency": concurrency,
    }


def median_run(runs: list[dict]) -> dict:
    """The median run, with every run's rate beside it."""
    ordered = sorted(runs, key=lambda r: r["per_s"])
    return {**ordered[len(ordered) // 2], "runs_per_s": [r["per_s"] for r in runs]}
