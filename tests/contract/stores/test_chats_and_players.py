"""Chats, their settings and players' display names."""

from __future__ import annotations

import pytest

from bot.domain.model import ChatRef, Player
from bot.domain.records import ChatSettings
from tests.contract.stores.rows import CHAT


async def test_a_chat_never_configured_has_no_settings(store):
    assert await store.chat_settings("test:never-seen") == ChatSettings()
    await store.ensure_chat(CHAT)
    await store.ensure_chat(CHAT)  # every start ensures its chat: the second time is harmless
    assert await store.chat_settings(CHAT.key) == ChatSettings()


async def test_settings_are_stored_per_chat_and_none_clears_one(store):
    other = ChatRef("test", "g2")
    await store.update_chat_settings(CHAT, language="hi", question_seconds=20)
    await store.update_chat_settings(CHAT, pause_seconds=2.5)
    await store.update_chat_settings(other, language="sn")
    assert await store.chat_settings(CHAT.key) == ChatSettings("hi", 20, 2.5)
    await store.update_chat_settings(CHAT, question_seconds=None)
    assert await store.chat_settings(CHAT.key) == ChatSettings("hi", None, 2.5)
    assert await store.chat_settings(other.key) == ChatSettings("sn", None, None)


async def test_an_unknown_setting_is_refused_and_changes_nothing(store):
    await store.update_chat_settings(CHAT, language="hi")
    with pytest.raises(ValueError):
        await store.update_chat_settings(CHAT, language="ur", colour="red")
    assert (await store.chat_settings(CHAT.key)).language == "hi"


async def test_display_names_stay_current_and_unknown_players_are_left_out(store):
    await store.ensure_player(Player("test", "u1", "Ann"))
    await store.ensure_player(Player("test", "u2", "Bob"))
    await store.ensure_player(Player("test", "u1", "Ann B."))
    assert await store.player_names({"test:u1", "test:u2", "test:nobody"}) == {"test:u1": "Ann B.", "test:u2": "Bob"}
    assert await store.player_names(set()) == {}


async def test_the_close_notice_is_off_until_set_and_moves_with_the_chat(store):
    assert (await store.chat_settings(CHAT.key)).close_notice is False
    await store.update_chat_settings(CHAT, close_notice=True)
    assert await store.chat_settings(CHAT.key) == ChatSettings(close_notice=True)
    moved = ChatRef("test", "g-new")
    await store.move_chat(CHAT.key, moved)
    assert (await store.chat_settings(moved.key)).close_notice is True
    await store.update_chat_settings(moved, close_notice=False)
    assert (await store.chat_settings(moved.key)).close_notice is False
