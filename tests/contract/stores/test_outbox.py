"""The outbox: messages ride with the run state that makes them due, all or nothing, and a
restart finds them as the sender last stored them."""

from __future__ import annotations

import asyncio

from bot.domain.records import MessageKind, OutboxMessage
from tests.contract.stores.rows import CHAT, stored_run


def message(key: str, run_id: int, kind: MessageKind = MessageKind.NOTICE) -> OutboxMessage:
    return OutboxMessage(key, run_id, CHAT.key, kind, f'{{"say": "{key}"}}', 100.0)


async def test_messages_ride_with_run_states_in_order_and_survive_a_restart(store_factory):
    store = await store_factory.open()
    row = await stored_run(store)
    one, two, three = message("a", row.id), message("b", row.id, MessageKind.PODIUM), message("c", row.id)
    await store.save_run(row, send=[one, two])
    assert await store.outbox() == [one, two], "in the order added, every field as given"

    # two states of one run queued together: the later state wins, the messages of both stay
    row.index = 0
    await asyncio.gather(store.save_run(row, send=[three]), store.save_run(row, done=["a"]))
    assert [m.key for m in await store.outbox()] == ["b", "c"]
    assert (await store.open_runs())[0].index == 0

    tried = OutboxMessage("b", row.id, CHAT.key, MessageKind.PODIUM, two.payload, 100.0, 2, 1, 7.5)
    await store.outbox_update(tried)
    await store.save_run(row, send=[message("b", row.id)])  # already there: kept as stored
    store = await store_factory.restart(store)
    assert (await store.outbox())[0] == tried and tried.uncertain == 1
    await store.outbox_remove(["b", "unknown"])
    assert [m.key for m in await store.outbox()] == ["c"]
