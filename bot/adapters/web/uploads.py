"""Files waiting between the upload form's preview and its confirm, in memory for a while.

The confirm sends back only the id the preview gave, so the file is checked again and stored
exactly as previewed. A process that restarts forgets them: the admin sends the file again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.ports.clock import Clock

KEPT_SECONDS = 3600
MAX_WAITING = 100  # per process: the oldest goes first


@dataclass(frozen=True)
class Held:
    chat_key: str
    name: str
    data: bytes
    until: float


class PendingUploads:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._held: dict[str, Held] = {}

    def hold(self, chat_key: str, name: str, data: bytes) -> str:
        now = self.clock.now()
        self._held = {k: h for k, h in self._held.items() if h.until > now}
        while len(self._held) >= MAX_WAITING:
            self._held.pop(next(iter(self._held)))
        key = secrets.token_urlsafe(16)
        self._held[key] = Held(chat_key, name, data, now + KEPT_SECONDS)
        return key

    def take(self, chat_key: str, key: str) -> Held | None:
        """The file held under `key` for that chat (once); None for another chat's or a stale one."""
        held = self._held.get(key)
        if held is None or held.chat_key != chat_key or held.until <= self.clock.now():
            return None
        del self._held[key]
        return held
