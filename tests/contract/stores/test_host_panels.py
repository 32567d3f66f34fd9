"""Where each hosted run's panel is: kept across a restart, a later panel of the same run in
place of the last, and none for a run that never had one."""

from __future__ import annotations

from tests.contract.stores.rows import CHAT, run_row


async def test_a_runs_panel_is_kept_across_a_restart_and_replaced_by_its_next(store_factory, store):
    await store.ensure_chat(CHAT)
    first = await store.create_run(run_row())
    await store.keep_host_panel(first, "501", "7")
    await store.keep_host_panel(first, "501", "9")  # /host again: a new panel
    store = await store_factory.restart(store)
    assert await store.host_panel(first) == ("501", "9")
    assert await store.host_panel(first + 1) is None
