"""A Telegram button press as quizhost needs it: from PTB's objects, or straight from the JSON.

Building PTB's objects for a callback query costs about 140 µs (its message comes whole, text,
keyboard and all), the largest single cost of a press on two cores. The webhook takes presses
from the update's JSON instead; polling gets them from PTB. Both give the same `Press`, which
the adapter handles one way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import CallbackQuery, Chat, User
from telegram.constants import ChatType

from bot.adapters import telegram_format as fmt
from bot.model import ChatRef, Player

PLATFORM = "telegram"
NAME_MAX = 64


@dataclass(frozen=True, slots=True)
class Press:
    query_id: str
    data: str
    chat: ChatRef  # the chat of the pressed message; the presser's own for an inline message
    player: Player
    user_id: int
    group_id: int | None  # the (super)group to ask about admin rights; None in private chats


def full_name(first: str | None, last: str | None) -> str | None:
    """PTB's `full_name`: first name, then the last one if there is one."""
    if not first:
        return None
    return f"{first} {last}" if last else first


def chat_ref(chat: Chat) -> ChatRef:
    return ChatRef(PLATFORM, str(chat.id), chat.type == ChatType.PRIVATE, chat.effective_name or "")


def player_of(user: User, name: str | None = None) -> Player:
    return Player(PLATFORM, str(user.id), fmt.fit(name or user.full_name, NAME_MAX), user.language_code)


def press_of(query: CallbackQuery) -> Press:
    """The press in a callback query PTB has parsed."""
    user, message = query.from_user, query.message
    if message is None:  # an inline message carries no chat: the presser's own stands in
        chat, group = ChatRef(PLATFORM, str(user.id), True, user.full_name), None
    else:
        chat = chat_ref(message.chat)
        group = None if chat.is_private else message.chat.id
    return Press(query.id, query.data or "", chat, player_of(user), user.id, group)


def press_from_json(query: Any) -> Press | None:
    """The press in a callback query as Telegram sends it; None when it is not one."""
    if not isinstance(query, dict):
        return None
    user, message = query.get("from"), query.get("message")
    if not isinstance(user, dict) or not isinstance(user.get("id"), int) or not query.get("id"):
        return None
    name = full_name(user.get("first_name"), user.get("last_name")) or ""
    player = Player(PLATFORM, str(user["id"]), fmt.fit(name, NAME_MAX), user.get("language_code"))
    chat = message.get("chat") if isinstance(message, dict) else None
    if not isinstance(chat, dict) or not isinstance(chat.get("id"), int):
        ref, group = ChatRef(PLATFORM, str(user["id"]), True, name), None
    else:
        private = chat.get("type") == ChatType.PRIVATE
        title = chat.get("title") or full_name(chat.get("first_name"), chat.get("last_name")) or ""
        ref, group = ChatRef(PLATFORM, str(chat["id"]), private, title), None if private else chat["id"]
    return Press(str(query["id"]), str(query.get("data") or ""), ref, player, user["id"], group)
