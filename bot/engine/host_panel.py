"""A host's panel on Telegram: a message in the host's private chat with the bot, its buttons
the host's actions (signed: bot/domain/tokens.py HostToken), kept current ("question 2 of 8,
3 of 5 answered") by editing it.

Edits are budgeted (docs/PLATFORMS.md: edits count towards Telegram's limits): at most one a
PANEL_EDIT_SECONDS per panel; a change in between is shown by one edit when that time is up.
A panel is held in memory: after a restart its buttons still work (they are signed), and the
next panel shows again at the next /host.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from bot.domain.hosting import HostAction, is_paused
from bot.domain.model import Button, MessageRef, Player, Reply
from bot.domain.records import Phase
from bot.domain.session import Run
from bot.domain.tokens import HostToken
from bot.engine.run_table import RunTable
from bot.ports.chat import ChatAdapter, MessageBoard, PrivateChats
from bot.ports.clock import Clock
from bot.texts import render_host

log = logging.getLogger("quizhost.engine")

PANEL_EDIT_SECONDS = 3.0


@dataclass
class _Panel:
    message: MessageRef
    key: bytes  # signs its buttons
    language: str
    edited_at: float
    waiting: asyncio.Task | None = None  # the edit that shows a change made since the last


@dataclass(eq=False)
class HostPanels:
    adapters: dict[str, ChatAdapter]
    clock: Clock
    runs: RunTable
    _panels: dict[int, _Panel] = field(default_factory=dict)

    async def open(self, run: Run, host: Player, key: bytes) -> bool:
        """Post the panel in the host's private chat; False where the platform has none, or the
        host never started the bot there (a bot may not write first)."""
        adapter = self.adapters.get(run.row.platform)
        if not isinstance(adapter, PrivateChats) or not isinstance(adapter, MessageBoard):
            return False
        try:
            chat = await adapter.private_chat(host)
            message = await adapter.post(chat, panel(run, key))
        except Exception:
            log.info("run %d: no host panel in %s's private chat", run.id, host.key, exc_info=True)
            return False
        self._panels[run.id] = _Panel(message, key, run.row.language, self.clock.now())
        return True

    def changed(self, run_id: int) -> None:
        """The run moved (an action, an answer): its panel shows it now, or once its edit budget allows."""
        held = self._panels.get(run_id)
        if held is None or held.waiting is not None:
            return
        wait = held.edited_at + PANEL_EDIT_SECONDS - self.clock.now()
        held.waiting = asyncio.ensure_future(self._edit_after(run_id, held, max(0.0, wait)))

    async def _edit_after(self, run_id: int, held: _Panel, wait: float) -> None:
        try:
            if wait > 0:
                await self.clock.sleep(wait)
            held.waiting = None
            run = self.runs.by_id.get(run_id)
            if run is None:  # the game is over: the panel says so, without buttons
                self._panels.pop(run_id, None)
            board = self.adapters.get(held.message.chat.platform)
            if isinstance(board, MessageBoard):
                held.edited_at = self.clock.now()
                await board.edit(held.message, panel(run, held.key) if run is not None else ended(held))
        except Exception:
            log.info("run %d: the host panel was not edited", run_id, exc_info=True)


def panel(run: Run, key: bytes) -> Reply:
    row = run.row
    lang = row.language
    number = row.index + 1 if row.index >= 0 else 0
    asking = row.phase != Phase.PAUSING  # asked, or on its way
    answered = len(run.answers) if asking else 0
    playing = max(len(run.players), answered)
    text = render_host.panel_text(lang, number, run.total, answered, playing, is_paused(row), asking)
    title = render_host.panel_title(lang, run.quiz.title.get(lang))
    return Reply(text, title=title, buttons=panel_buttons(run, key), language=lang)


def panel_buttons(run: Run, key: bytes) -> tuple[Button, ...]:
    lang = run.row.language
    return tuple(
        Button(render_host.button_label(lang, action), HostToken(run.id, action.value).encode(key))
        for action in HostAction
    )


def ended(held: _Panel) -> Reply:
    return Reply(render_host.panel_over(held.language), language=held.language)
