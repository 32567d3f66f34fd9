"""A host's panel on Telegram: a message in the host's private chat with the bot, its buttons
the host's actions (signed: bot/domain/tokens.py HostToken), kept current ("question 2 of 8,
3 of 5 answered") by editing it.

Edits are budgeted (docs/PLATFORMS.md: edits count towards Telegram's limits): at most one a
PANEL_EDIT_SECONDS per panel; a change in between is shown by one edit when that time is up.
Where each panel is is stored (HostPanelRecords): after a restart, or on another worker that
took the run up, the run's first change reads it back and the panel is kept current again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.domain.hosting import HostAction, is_paused
from bot.domain.model import Button, ChatRef, MessageRef, Player, Reply
from bot.domain.records import Phase
from bot.domain.session import Run
from bot.domain.tokens import HostToken
from bot.engine.run_table import RunTable
from bot.ports.chat import ChatAdapter, MessageBoard, PrivateChats
from bot.ports.clock import Clock
from bot.ports.store import HostPanelRecords
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
    store: HostPanelRecords
    # what signs the panels' buttons (the commands' DeepLinks.key), for a panel read back
    key: Callable[[], Awaitable[bytes]] | None = None
    _panels: dict[int, _Panel] = field(default_factory=dict)
    _read_back: set[int] = field(default_factory=set)  # runs whose stored panel was looked up here
    _tasks: set[asyncio.Task] = field(default_factory=set)

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
        try:
            await self.store.keep_host_panel(run.id, message.chat.chat_id, message.message_id)
        except Exception:  # the panel works; only a restart will not find it
            log.warning("run %d: where the host panel is was not stored", run.id, exc_info=True)
        return True

    def changed(self, run_id: int) -> None:
        """The run moved (an action, an answer): its panel shows it now, or once its edit budget allows."""
        held = self._panels.get(run_id)
        if held is None:
            if run_id not in self.runs.by_id:  # over (or not held here): nothing more to read back
                self._read_back.discard(run_id)
            elif run_id not in self._read_back and self.key is not None:
                self._read_back.add(run_id)
                task = asyncio.ensure_future(self._read(run_id, self.key))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            return
        if held.waiting is not None:
            return
        wait = held.edited_at + PANEL_EDIT_SECONDS - self.clock.now()
        held.waiting = asyncio.ensure_future(self._edit_after(run_id, held, max(0.0, wait)))

    async def _read(self, run_id: int, key: Callable[[], Awaitable[bytes]]) -> None:
        """A panel posted before a restart, or by another worker: read back, then kept current."""
        try:
            stored = await self.store.host_panel(run_id)
            run = self.runs.by_id.get(run_id)
            if stored is None or run is None or run_id in self._panels:
                return
            chat_id, message_id = stored
            message = MessageRef(ChatRef(run.row.platform, chat_id, is_private=True), message_id)
            self._panels[run_id] = _Panel(message, await key(), run.row.language, edited_at=0.0)
            self.changed(run_id)
        except Exception:
            log.info("run %d: the host panel was not read back", run_id, exc_info=True)

    async def _edit_after(self, run_id: int, held: _Panel, wait: float) -> None:
        try:
            if wait > 0:
                await self.clock.sleep(wait)
            held.waiting = None
            run = self.runs.by_id.get(run_id)
            if run is None:  # the game is over: the panel says so, without buttons
                self._panels.pop(run_id, None)
                self._read_back.discard(run_id)
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
