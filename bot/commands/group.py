"""What each group of commands (a mixin of `bot.commands.core.Commands`) uses of the facade."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.web import WebCommands

if TYPE_CHECKING:
    from bot.commands.core import Caller
    from bot.engine.core import Engine


class CommandGroup:
    engine: Engine
    web: WebCommands

    def _may_configure(self, caller: Caller) -> bool:
        raise NotImplementedError  # bot.commands.core.Commands decides
