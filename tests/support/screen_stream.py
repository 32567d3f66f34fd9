"""The big screen's event stream read raw, as a browser's EventSource reads it: every byte kept
(a test asserts on what was sent, not only on what parsed), the events parsed as they come."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp


@dataclass(frozen=True)
class Received:
    id: int
    kind: str
    data: dict
    raw: str


class Stream:
    """An SSE stream read as bytes arrive: the raw text so far and the events parsed from it."""

    def __init__(self) -> None:
        self.raw = ""
        self.events: list[Received] = []

    def feed(self, chunk: str) -> None:
        self.raw += chunk
        blocks = self.raw.replace("\r\n", "\n").split("\n\n")
        self.events = [e for e in map(_parsed, blocks[:-1]) if e is not None]


def _parsed(block: str) -> Received | None:
    fields: dict[str, str] = {}
    for line in block.split("\n"):
        name, _, value = line.partition(": ")
        if name in ("id", "event", "data"):
            fields[name] = value
    if "data" not in fields:
        return None  # a keep-alive comment
    return Received(int(fields["id"]), fields["event"], json.loads(fields["data"]), block)


@contextlib.asynccontextmanager
async def following(url: str, last_id: int | None = None, raw_last_id: str | None = None) -> AsyncIterator[Stream]:
    """`raw_last_id`: a Last-Event-ID header as a hostile client may send it, not an id."""
    stream = Stream()
    said = str(last_id) if last_id is not None else raw_last_id
    headers = {"Last-Event-ID": said} if said is not None else {}

    async def read(response: aiohttp.ClientResponse) -> None:
        async for chunk in response.content.iter_any():
            stream.feed(chunk.decode())

    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as response:
        assert response.status == 200 and response.headers["Content-Type"] == "text/event-stream"
        reader = asyncio.create_task(read(response))
        try:
            yield stream
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


async def seen(stream: Stream, kind: str, count: int) -> list[Received]:
    """Wait until the stream has `count` events of `kind`."""
    return await until(
        lambda: (found := [e for e in stream.events if e.kind == kind]) and len(found) >= count and found,
        f"{count} {kind} events on the screen",
    )


async def until(predicate: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    """Wait until `predicate()` is truthy, looking every few milliseconds (bytes arrive on their own)."""
    try:
        async with asyncio.timeout(timeout):
            while not (value := predicate()):
                await asyncio.sleep(0.005)
            return value
    except TimeoutError:
        raise AssertionError(f"no {what} within {timeout} s") from None
