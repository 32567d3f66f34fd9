"""What the engine knows of a chat: its settings (cached), the language to answer it in, and
its move to a new id."""

from __future__ import annotations

import logging
from typing import Protocol

from bot.domain.model import ChatRef, Player, written
from bot.domain.records import ChatSettings
from bot.engine.run_table import RunTable
from bot.ports.store import AnswerQueue, ChatRecords
from bot.texts.i18n import normalise

log = logging.getLogger("quizhost.engine")


class ChatsStore(ChatRecords, AnswerQueue, Protocol):
    """What Chats asks of the store: the chats' rows, and a move waits for the answers in flight."""


class Chats:
    def __init__(self, store: ChatsStore, runs: RunTable, default_language: str) -> None:
        self.store = store
        self.runs = runs
        self.default_language = default_language
        self._settings: dict[str, ChatSettings] = {}

    async def settings(self, chat: ChatRef) -> ChatSettings:
        return await self.settings_of(chat.key)

    async def settings_of(self, chat_key: str) -> ChatSettings:
        """A chat's settings by its key (an assignment's run names its group by key alone)."""
        if chat_key not in self._settings:
            self._settings[chat_key] = await self.store.chat_settings(chat_key)
        return self._settings[chat_key]

    async def fresh_settings(self, chat_key: str) -> ChatSettings:
        """A chat's settings as stored now, for what keeps them (a run starting, /settings shown):
        another worker may have changed them since this one cached them, and a run must not
        start with a minimum age or scoring rule an admin has already changed."""
        self._settings.pop(chat_key, None)
        return await self.settings_of(chat_key)

    async def update(self, chat: ChatRef, **fields: object) -> None:
        await self.store.update_chat_settings(chat, **fields)
        self._settings.pop(chat.key, None)

    async def language_for(self, chat: ChatRef, player: Player | None = None) -> str:
        """The chat's /language, else the user's client language, else the bot's default; plain
        text where the chat asks for it (/settings plain on)."""
        settings = await self.settings(chat)
        return written(normalise(settings.language) or self.client_language(player), settings.plain_text)

    def client_language(self, player: Player | None) -> str:
        """The user's client language ("hi-IN" -> "hi") if we speak it, else QUIZHOST_LANGUAGE."""
        return normalise(player.language if player else None) or self.default_language

    async def move(self, old: ChatRef, new: ChatRef) -> None:
        """A chat got a new id (a Telegram group upgraded to a supergroup): its quiz in progress,
        settings and leaderboard carry on under the new one. Moving twice changes nothing."""
        by_chat = self.runs.by_chat
        run = by_chat.get(old.key)
        if run is not None and by_chat.get(new.key) is None:
            flight, settled = self.runs.flights[run.id], -1
            while flight.ticket != settled:  # presses stored under the old key land first...
                settled = flight.ticket
                await self.store.answers_settled(settled)
            del by_chat[old.key]  # ...and from here on they carry the new one
            run.row.chat_key, run.row.chat_id = new.key, new.chat_id
            run.row.message_id = None  # the open question's message stays behind in the old chat
            by_chat[new.key] = run
        await self.store.move_chat(old.key, new)
        self._settings.pop(old.key, None)
        self._settings.pop(new.key, None)
        log.info("chat %s is now %s", old.key, new.key)
