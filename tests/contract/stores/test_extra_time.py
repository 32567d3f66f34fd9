"""Extra time: the rules admins gave members (a chat's standing one, an assignment's own), set
again in place, taken back with "off", kept across a restart and a chat's move; and a run's own
factor, stored with it as it starts."""

from __future__ import annotations

from bot.domain.extra_time import ExtraTime, factor_for
from bot.domain.model import ChatRef
from tests.contract.stores.rows import CHAT, run_row

ANN, BOB = "test:ann", "test:bob"


async def test_rules_are_set_replaced_listed_and_taken_back(store_factory, store):
    await store.set_extra_time(ExtraTime(CHAT.key, BOB, 1.5, name="Bob"))
    await store.set_extra_time(ExtraTime(CHAT.key, ANN, 1.5, name="Ann"))
    await store.set_extra_time(ExtraTime(CHAT.key, ANN, 2.0, name="Ann B."))  # again: in place
    await store.set_extra_time(ExtraTime(CHAT.key, ANN, 1.5, assignment_id=7, name="Ann B."))
    await store.set_extra_time(ExtraTime("test:elsewhere", ANN, 1.5))
    store = await store_factory.restart(store)
    assert await store.extra_times(CHAT.key) == [
        ExtraTime(CHAT.key, ANN, 2.0, name="Ann B."),
        ExtraTime(CHAT.key, BOB, 1.5, name="Bob"),
    ]
    assert await store.extra_times(CHAT.key, 7) == [ExtraTime(CHAT.key, ANN, 1.5, 7, "Ann B.")]
    ann = await store.player_extra_times(CHAT.key, ANN)
    assert [(r.assignment_id, r.factor) for r in ann] == [(0, 2.0), (7, 1.5)]
    assert (factor_for(ann), factor_for(ann, 7), factor_for(ann, 8)) == (2.0, 1.5, 2.0)

    await store.set_extra_time(ExtraTime(CHAT.key, ANN, 1.0))  # off
    assert await store.extra_times(CHAT.key) == [ExtraTime(CHAT.key, BOB, 1.5, name="Bob")]
    assert factor_for(await store.player_extra_times(CHAT.key, ANN), 8) == 1.0
    assert await store.player_extra_times(CHAT.key, "test:nobody") == []


async def test_a_moved_chat_takes_its_rules_along(store):
    await store.ensure_chat(CHAT)
    await store.set_extra_time(ExtraTime(CHAT.key, ANN, 2.0, name="Ann"))
    moved = ChatRef(CHAT.platform, "moved", title=CHAT.title)
    await store.move_chat(CHAT.key, moved)
    assert await store.extra_times(CHAT.key) == []
    assert await store.extra_times(moved.key) == [ExtraTime(moved.key, ANN, 2.0, name="Ann")]


async def test_a_run_keeps_its_time_factor_across_a_restart(store_factory, store):
    private = ChatRef("test", "u9", is_private=True)
    await store.ensure_chat(CHAT)
    await store.ensure_chat(private)
    usual, stretched = run_row(CHAT), run_row(private)
    stretched.time_factor = 1.5
    usual.id, stretched.id = await store.create_run(usual), await store.create_run(stretched)
    store = await store_factory.restart(store)
    assert [(r.id, r.time_factor) for r in await store.open_runs()] == [(usual.id, 1.0), (stretched.id, 1.5)]
