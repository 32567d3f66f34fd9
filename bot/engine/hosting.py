"""A host's actions on a hosted run (/next, /pause, /resume, /skip, /hint, /end, the panel's
buttons): checked by the domain's rules (bot/domain/hosting.py), applied under the run's lock,
stored with the messages they owe the chat.

With several workers on PostgreSQL, an action for a run another worker runs is stored for it and
its owner woken (as /stop travels: bot/engine/wakeups.py), which applies it here with `apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.domain import hosting, owed
from bot.domain.hosting import HostAction, HostRefusal
from bot.domain.model import ChatRef, Player, Reply
from bot.domain.records import RunStatus
from bot.domain.session import Run
from bot.engine.chats import Chats
from bot.engine.host_panel import HostPanels
from bot.engine.run_lifecycle import RunLifecycle
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.engine.sender import Sender
from bot.ports.clock import Clock
from bot.ports.store import PlayerNames, RunRecords, RunWakeups
from bot.texts import render_host


class HostStore(RunRecords, PlayerNames, Protocol):
    """Hosting: the run's state, and who ended it for its report."""


@dataclass(eq=False)
class Hosting:
    store: HostStore
    clock: Clock
    sender: Sender
    runs: RunTable
    steps: RunSteps
    lifecycle: RunLifecycle
    chats: Chats
    wakeups: RunWakeups | None  # several workers on one database: actions for their runs
    panels: HostPanels | None = None  # the host's panel (Telegram), kept current

    async def host_run(self, run_id: int, action: HostAction, by: Player) -> Reply:
        """A panel's button: the action on run `run_id` (its data was signed for it)."""
        run = self.runs.by_id.get(run_id)
        if run is not None:
            return await self.host(run.chat, action, by, False)
        lang = self.chats.client_language(by)
        if self.wakeups is None:
            return render_host.refused(lang, HostRefusal.NO_RUN)
        await self.store.ensure_player(by)
        taken = await self.wakeups.request_host(run_id, action, by.key)  # the owner checks its host
        return render_host.done(lang, action) if taken else render_host.refused(lang, HostRefusal.NO_RUN)

    async def open_panel(self, chat: ChatRef, host: Player, key: bytes) -> bool:
        """The host's panel for the chat's hosted run, in the host's private chat: False when
        there is none, or it could not be posted."""
        run = self.runs.by_chat.get(chat.key)
        if run is None or self.panels is None or not hosting.may_host(run.row, host.key):
            return False
        return await self.panels.open(run, host, key)

    async def host(self, chat: ChatRef, action: HostAction, by: Player, is_admin: bool) -> Reply:
        """The host's `action` on the chat's run; the reply to show the one who asked."""
        lang = await self.chats.language_for(chat, by)
        run = self.runs.by_chat.get(chat.key)
        if run is None:
            return await self._elsewhere(chat, action, by, lang)
        if not hosting.is_hosted(run.row):
            return render_host.refused(lang, HostRefusal.NOT_HOSTED)
        if not hosting.may_host(run.row, by.key):
            return render_host.refused(lang, HostRefusal.NOT_HOST)
        await self.store.ensure_player(by)  # an END names its host in the run's report
        refusal = await self.apply(run.id, action, by.key)
        return render_host.refused(lang, refusal) if refusal is not None else render_host.done(lang, action)

    async def _elsewhere(self, chat: ChatRef, action: HostAction, by: Player, lang: str) -> Reply:
        """Another worker may run the chat's game: the action is stored for it, and it is woken."""
        row = await self.wakeups.chat_run(chat.key) if self.wakeups is not None else None
        if row is None:
            return render_host.refused(lang, HostRefusal.NO_RUN)
        if not hosting.is_hosted(row):
            return render_host.refused(lang, HostRefusal.NOT_HOSTED)
        if not hosting.may_host(row, by.key):
            return render_host.refused(lang, HostRefusal.NOT_HOST)
        assert self.wakeups is not None
        await self.store.ensure_player(by)
        if not await self.wakeups.request_host(row.id, action, by.key):
            return render_host.refused(lang, HostRefusal.NO_RUN)
        return render_host.done(lang, action)

    async def apply(self, run_id: int, action: HostAction, by: str) -> HostRefusal | None:
        """Take the action on a run held here: None when it was taken, else why not."""
        held = self.runs.held(run_id)
        if held is None:
            return HostRefusal.NO_RUN
        run, flight = held
        # an action another worker took, or a panel's button: signed for the run, not for who pressed
        if not hosting.may_host(run.row, by):
            return HostRefusal.NOT_HOST
        if action is HostAction.END:
            return await self._end(run, by)
        advance = False
        async with flight.lock:
            if run.row.status != RunStatus.OPEN:
                return HostRefusal.NO_RUN
            if (refusal := hosting.check(run, action)) is not None:
                return refusal
            advance = await self._take(run, action)
        if run.id in self.runs.by_id:
            self.runs.schedule(run)
        if advance:  # what was due later is due now: the close, or the next question
            await self.steps.advance(run)
        await self.sender.push(run.row.chat_key)
        self._show(run.id)
        return None

    def _show(self, run_id: int) -> None:
        if self.panels is not None:
            self.panels.changed(run_id)

    async def _take(self, run: Run, action: HostAction) -> bool:
        """Under the run's lock: change it and store it; True when a step is now due."""
        now, lang = self.clock.now(), run.row.language
        if action is HostAction.NEXT:
            hosting.next_now(run.row, now)
            return True
        if action is HostAction.PAUSE:
            hosting.pause(run.row, now)
            left = hosting.time_left(run)
            await self.steps.save(run, [owed.host_notice(run, render_host.paused_notice(lang, left), now, "paused")])
        elif action is HostAction.RESUME:
            left = hosting.time_left(run)
            hosting.resume(run, now)
            await self.steps.save(run, [owed.host_notice(run, render_host.resumed_notice(lang, left), now, "resumed")])
        elif action is HostAction.SKIP:
            await self.steps.skip(run)
        elif action is HostAction.HINT:
            await self.steps.hint(run)
        return False

    async def _end(self, run: Run, by: str) -> HostRefusal | None:
        """END: the open question closes as /stop closes it, then the podium; the run's report
        names its host as who ended it."""
        if not await self.lifecycle.end_run(run.id):
            return HostRefusal.NO_RUN
        await self.store.record_stop(run.id, by)
        self._show(run.id)
        return None
