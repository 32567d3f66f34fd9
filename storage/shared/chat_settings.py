"""A chat's settings as the chats table keeps them, one column a ChatSettings field by the same
name: both stores read them, and a chat's move carries them, from this one list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from bot.domain.records import ChatSettings
from bot.domain.scoring import Scoring

SETTING_COLUMNS = tuple(f.name for f in fields(ChatSettings))
_FLAGS = frozenset(f.name for f in fields(ChatSettings) if f.type == "bool")  # SQLite keeps 0/1

# what a chat moved to a new key (a Telegram group become a supergroup) keeps of its row
MOVED_COLUMNS = ", ".join(("title", "is_private", *SETTING_COLUMNS, "created_at"))


def settings_from(row: Iterable[Any]) -> ChatSettings:
    """The settings of a row selected as SETTING_COLUMNS."""
    values = dict(zip(SETTING_COLUMNS, row, strict=True))
    values.update({name: bool(values[name]) for name in _FLAGS})
    values["scoring"] = Scoring(values["scoring"])
    return ChatSettings(**values)
