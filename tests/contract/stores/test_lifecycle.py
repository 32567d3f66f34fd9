"""Opening, closing and opening again: migrations run once, nothing submitted is lost."""

from __future__ import annotations

from bot.domain.model import Player
from tests.contract.stores.rows import CHAT, answer, run_row


async def test_migrations_run_once_and_a_restart_keeps_everything(store_factory, store):
    version = await store.schema_version()
    assert version >= 1
    await store.update_chat_settings(CHAT, language="ur")
    await store.ensure_player(Player("test", "u1", "Ann"))
    run_id = await store.create_run(run_row())
    assert await store.insert_answer(answer(run_id, "test:u1", 1.0))

    store = await store_factory.restart(store)

    assert await store.schema_version() == version
    assert (await store.chat_settings(CHAT.key)).language == "ur"
    assert [r.id for r in await store.open_runs()] == [run_id]
    assert [(s.name, s.points) for s in await store.leaderboard(CHAT.key)] == [("Ann", 900)]


async def test_close_commits_answers_nobody_awaited(store_factory, store):
    await store.ensure_chat(CHAT)
    run_id = await store.create_run(run_row())
    for n in range(5):
        store.submit_answer(answer(run_id, f"test:u{n}", 1.0 + n))  # the presses' waiters went away

    store = await store_factory.restart(store)

    assert len(await store.run_answers(run_id)) == 5
