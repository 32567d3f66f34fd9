"""The live events port (bot/ports/live.py), as each implementation keeps it: in one process's
memory (SQLite) and through PostgreSQL between workers. Ids grow; a viewer gets what came after
the id it names, a new viewer the current question's events, and then each event as it comes.
Only a chat someone watches keeps events: one nobody watches publishes nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.ports.live import GRACE_SECONDS, LiveEvent, LiveEvents, LiveKind
from bot.testing.clock import FakeClock
from storage.postgres.store import PostgresStore
from storage.shared.live import LiveChannels
from tests.support.screen_stream import until

CHAT, OTHER = "test:g1", "test:g2"


@contextlib.asynccontextmanager
async def two_workers(url: str) -> AsyncIterator[tuple[LiveEvents, LiveEvents]]:
    first = await PostgresStore.open(url, owner="w1")
    second = await PostgresStore.open(url, owner="w2")
    try:
        yield first.live_events(), second.live_events()
    finally:
        await first.close()
        await second.close()


async def taken(events: LiveEvents, chat: str, after: int | None, count: int) -> list[LiveEvent]:
    got: list[LiveEvent] = []
    async with asyncio.timeout(10), contextlib.aclosing(events.follow(chat, after)) as following:
        async for event in following:  # closed on return: the viewer leaves, as a dropped stream does
            got.append(event)
            if len(got) == count:
                return got
    raise AssertionError("the stream ended")


@contextlib.asynccontextmanager
async def watching(publisher: LiveEvents, viewer: LiveEvents, chat: str) -> AsyncIterator[None]:
    """A viewer that stays on the chat (through `viewer`), once `publisher` knows of it."""
    staying = asyncio.create_task(taken(viewer, chat, None, 1_000_000))
    try:
        await until(lambda: publisher.watched(chat), f"{chat} watched")
        yield
    finally:
        staying.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await staying


async def published(live: LiveEvents, chat: str, kinds: list[LiveKind]) -> None:
    for n, kind in enumerate(kinds):
        await live.publish(chat, 7, kind, {"n": n}, 1000.0 + n)


async def after_an_id_then_each_as_it_comes(publisher: LiveEvents, viewer: LiveEvents) -> None:
    async with watching(publisher, viewer, CHAT):
        await _after_an_id_then_each_as_it_comes(publisher, viewer)


async def _after_an_id_then_each_as_it_comes(publisher: LiveEvents, viewer: LiveEvents) -> None:
    await published(publisher, OTHER, [LiveKind.QUESTION])  # another chat's: never seen here
    await published(publisher, CHAT, [LiveKind.QUESTION, LiveKind.ANSWERED, LiveKind.CLOSED])
    first = await taken(viewer, CHAT, 0, 3)
    assert [e.kind for e in first] == [LiveKind.QUESTION, LiveKind.ANSWERED, LiveKind.CLOSED]
    assert [e.data["n"] for e in first] == [0, 1, 2] and all(e.chat_key == CHAT and e.run_id == 7 for e in first)
    assert first[0].id < first[1].id < first[2].id

    again = await taken(viewer, CHAT, first[0].id, 2)  # reconnecting after the first
    assert [e.id for e in again] == [e.id for e in first[1:]]

    waiting = asyncio.create_task(taken(viewer, CHAT, first[-1].id, 1))
    await asyncio.sleep(0.1)
    await published(publisher, CHAT, [LiveKind.PODIUM])
    (podium,) = await waiting
    assert podium.kind is LiveKind.PODIUM and podium.id > first[-1].id


async def the_current_question_and_what_followed_it(publisher: LiveEvents, viewer: LiveEvents) -> None:
    kinds = [LiveKind.QUESTION, LiveKind.CLOSED, LiveKind.QUESTION, LiveKind.ANSWERED]
    async with watching(publisher, viewer, CHAT):
        await published(publisher, CHAT, kinds)
        await asyncio.sleep(0.1)
        snapshot = await taken(viewer, CHAT, None, 2)
    assert [(e.kind, e.data["n"]) for e in snapshot] == [(LiveKind.QUESTION, 2), (LiveKind.ANSWERED, 3)]


async def test_in_memory_a_viewer_gets_what_came_after_its_id_then_each_as_it_comes():
    live = LiveChannels()
    await after_an_id_then_each_as_it_comes(live, live)


async def test_in_memory_a_new_viewer_gets_the_current_question_and_what_followed_it():
    live = LiveChannels()
    await the_current_question_and_what_followed_it(live, live)


@pytest.mark.postgres
async def test_between_workers_a_viewer_gets_what_came_after_its_id_then_each_as_it_comes(postgres_url):
    async with two_workers(postgres_url) as (publisher, viewer):
        await after_an_id_then_each_as_it_comes(publisher, viewer)


@pytest.mark.postgres
async def test_between_workers_a_new_viewer_gets_the_current_question_and_what_followed_it(postgres_url):
    async with two_workers(postgres_url) as (publisher, viewer):
        await the_current_question_and_what_followed_it(publisher, viewer)


async def test_the_memory_backlog_is_bounded_per_chat():
    live = LiveChannels(backlog=3)
    for n in range(10):
        live.deliver(LiveEvent(n + 1, CHAT, 1, LiveKind.ANSWERED, {"n": n}, 0.0))
    live.deliver(LiveEvent(5, CHAT, 1, LiveKind.ANSWERED, {}, 0.0))  # an id seen already changes nothing
    assert live.last_id(CHAT) == 10

    assert [e.id for e in await taken(live, CHAT, 0, 3)] == [8, 9, 10]


async def test_in_memory_a_process_started_later_numbers_its_events_above_the_one_before():
    """A restart with SQLite: the browser reconnects with the last id it saw from the process
    before, and must be sent what the new process publishes (the open question again)."""
    before = LiveChannels()
    async with watching(before, before, CHAT):
        await published(before, CHAT, [LiveKind.QUESTION, LiveKind.ANSWERED, LiveKind.CLOSED])
    seen_last = before.last_id(CHAT)
    after = LiveChannels()
    async with watching(after, after, CHAT):
        await published(after, CHAT, [LiveKind.QUESTION])
        assert [e.kind for e in await taken(after, CHAT, seen_last, 1)] == [LiveKind.QUESTION]


async def nothing_kept_for_a_chat_nobody_watches(publisher: LiveEvents, viewer: LiveEvents) -> list[str]:
    """A chat published to before anyone watched it: its first viewer gets only what came after it
    arrived; the chats the engine was asked to show again, in order."""
    shown: list[str] = []

    async def show(chat_key: str) -> None:
        shown.append(chat_key)

    publisher.watching(show)
    assert not publisher.watched(CHAT)
    await published(publisher, CHAT, [LiveKind.QUESTION, LiveKind.ANSWERED])
    async with watching(publisher, viewer, CHAT):
        await until(lambda: shown, "the chat shown again")
        await published(publisher, CHAT, [LiveKind.QUESTION])
        (now,) = await taken(viewer, CHAT, 0, 1)
        assert (now.kind, now.data["n"]) == (LiveKind.QUESTION, 0), "the ones before the viewer were not kept"
    return shown


async def test_in_memory_a_chat_nobody_watches_keeps_nothing_and_its_first_viewer_has_it_shown():
    live = LiveChannels()
    assert await nothing_kept_for_a_chat_nobody_watches(live, live) == [CHAT]


@pytest.mark.postgres
async def test_between_workers_a_chat_nobody_watches_writes_nothing_and_its_owner_shows_it(postgres_url):
    async with two_workers(postgres_url) as (publisher, viewer):
        assert await nothing_kept_for_a_chat_nobody_watches(publisher, viewer) == [CHAT]
        conn = await asyncpg.connect(postgres_url)
        try:
            kinds = await conn.fetch("SELECT kind FROM live_events WHERE chat_key = $1", CHAT)
        finally:
            await conn.close()
        assert [row["kind"] for row in kinds] == ["question"], "only what came while it was watched"


async def test_in_memory_a_chat_stays_watched_for_the_grace_then_its_backlog_goes():
    clock = FakeClock()
    live = LiveChannels(now=clock.now)
    async with watching(live, live, CHAT):
        await published(live, CHAT, [LiveKind.QUESTION])
        (asked,) = await taken(live, CHAT, None, 1)
    clock.advance(GRACE_SECONDS)
    assert live.watched(CHAT) and live.last_id(CHAT) == asked.id, "a reconnect within the grace resumes"
    clock.advance(1)
    live.sweep()
    assert live.last_id(CHAT) == 0 and not live.watched(CHAT)
