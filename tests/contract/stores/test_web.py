"""What the web pages keep in the store: one link secret per database (the first one stored
wins), a public leaderboard switched on and off per chat and kept when the chat changes its
id, and a chat's runs listed latest first, never another chat's."""

from __future__ import annotations

from bot.domain.model import ChatRef
from bot.domain.records import RunRow, RunStatus


def run(chat: ChatRef, quiz_id: str, at: float, status: RunStatus = RunStatus.FINISHED) -> RunRow:
    return RunRow(
        chat.key, chat.chat_id, chat.platform, False, quiz_id, "en", 1, ("q1",), 30, 5.0, "test:1", at, status=status
    )


async def test_the_first_secret_stored_is_the_one_every_later_call_reads(store):
    assert await store.web_secret("first") == "first"
    assert await store.web_secret("second") == "first"


async def test_a_public_board_is_off_until_switched_on_and_stays_with_the_chat(store):
    old, new = ChatRef("test", "-1"), ChatRef("test", "-100")
    await store.ensure_chat(old)
    assert await store.board_public(old.key) is False
    await store.set_board_public(old.key, True)
    await store.set_board_public(old.key, True)  # again: no error
    assert await store.board_public(old.key) is True
    assert await store.board_public("test:other") is False
    await store.move_chat(old.key, new)
    assert await store.board_public(new.key) is True
    assert await store.board_public(old.key) is False
    await store.set_board_public(new.key, False)
    assert await store.board_public(new.key) is False


async def test_a_chats_runs_latest_first_and_only_its_own(store):
    mine, other = ChatRef("test", "1"), ChatRef("test", "2")
    for chat in (mine, other):
        await store.ensure_chat(chat)
    first = await store.create_run(run(mine, "capitals", 100.0))
    await store.create_run(run(other, "birds", 150.0))
    second = await store.create_run(run(mine, "birds", 200.0, RunStatus.OPEN))
    listed = await store.chat_runs(mine.key)
    assert [(r.run_id, r.quiz_id, r.started_at, r.status) for r in listed] == [
        (second, "birds", 200.0, RunStatus.OPEN),
        (first, "capitals", 100.0, RunStatus.FINISHED),
    ]
    assert [r.run_id for r in await store.chat_runs(mine.key, limit=1)] == [second]


async def test_revoked_links_count_from_the_latest_revocation_and_move_with_the_chat(store):
    old, new, other = ChatRef("test", "-1"), ChatRef("test", "-100"), ChatRef("test", "-2")
    for chat in (old, other):
        await store.ensure_chat(chat)
    assert await store.links_not_before(old.key) == 0.0  # never revoked
    await store.revoke_links(old.key, 1000.5)
    assert await store.links_not_before(old.key) == 1000.5
    await store.revoke_links(old.key, 2000.25)
    await store.revoke_links(old.key, 1500.0)  # an earlier instant (another worker's clock) never moves it back
    assert await store.links_not_before(old.key) == 2000.25
    assert await store.links_not_before(other.key) == 0.0, "another chat's links are untouched"
    await store.move_chat(old.key, new)
    assert await store.links_not_before(new.key) == 2000.25
    assert await store.links_not_before(old.key) == 0.0


async def test_a_revocation_survives_a_restart(store_factory):
    store = await store_factory.open()
    await store.revoke_links("test:1", 42.0)
    store = await store_factory.restart(store)
    assert await store.links_not_before("test:1") == 42.0
