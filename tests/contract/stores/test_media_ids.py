"""The file_ids platforms gave the bot's uploads, kept by the file's digest: read back by any
store on the database and after a restart, replaced by a newer one, per platform."""

from __future__ import annotations


async def test_a_file_id_is_kept_per_platform_and_replaced_by_a_newer_one(store_factory, store):
    assert await store.media_file_id("telegram", "sha-1") is None
    await store.keep_media_file_id("telegram", "sha-1", "AgACAgIAAx0")
    await store.keep_media_file_id("discord", "sha-1", "elsewhere")
    assert await store.media_file_id("telegram", "sha-1") == "AgACAgIAAx0"
    await store.keep_media_file_id("telegram", "sha-1", "AgACAgIAAx1")  # Telegram gave another id
    await store.close()  # the next start (SQLite: one process a file)
    store_factory.opened.remove(store)
    other = await store_factory.open()
    assert await other.media_file_id("telegram", "sha-1") == "AgACAgIAAx1"
    assert await other.media_file_id("discord", "sha-1") == "elsewhere"
    assert await other.media_file_id("telegram", "sha-2") is None
