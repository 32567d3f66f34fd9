"""What every group of commands shares: who may configure a chat."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.commands.core import Caller


def may_configure(caller: Caller) -> bool:
    """Admins configure a group; a private chat is its player's own."""
    return caller.chat.is_private or caller.is_admin
