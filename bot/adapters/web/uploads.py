"""Files waiting between the upload form's preview and its confirm, on disk for a while.

The confirm sends back only the id the preview gave, so the file is checked again and stored
exactly as previewed. Each admin of each chat has their own few waiting (PER_ADMIN), each chat
at most PER_CHAT: a new preview pushes out the oldest of the same admin, else the oldest of the
same chat, never another chat's. The files sit in the uploads folder, not in memory. A process
that restarts forgets them: the admin sends the file again.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.ports.clock import Clock

KEPT_SECONDS = 3600
PER_ADMIN = 3
PER_CHAT = 10


@dataclass(frozen=True)
class Held:
    chat_key: str
    admin: str  # who previewed it: the player the link was given to
    name: str
    path: Path
    until: float


class PendingUploads:
    def __init__(self, clock: Clock, folder: Path) -> None:
        self.clock = clock
        self.folder = folder
        self._held: dict[str, Held] = {}  # oldest first

    def hold(self, chat_key: str, admin: str, name: str, data: bytes) -> str:
        now = self.clock.now()
        for key in [k for k, h in self._held.items() if h.until <= now]:
            self._drop(key)
        same_chat = [k for k, h in self._held.items() if h.chat_key == chat_key]
        mine = [k for k in same_chat if self._held[k].admin == admin]
        if len(mine) >= PER_ADMIN:
            self._drop(mine[0])
        elif len(same_chat) >= PER_CHAT:
            self._drop(same_chat[0])
        handle, path = tempfile.mkstemp(dir=self.folder, prefix="held-")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        key = secrets.token_urlsafe(16)
        self._held[key] = Held(chat_key, admin, name, Path(path), now + KEPT_SECONDS)
        return key

    def take(self, chat_key: str, key: str) -> tuple[str, bytes] | None:
        """The name and data held under `key` for that chat (once); None for another chat's or a stale one."""
        held = self._held.get(key)
        if held is None or held.chat_key != chat_key or held.until <= self.clock.now():
            return None
        data = held.path.read_bytes()
        self._drop(key)
        return held.name, data

    def waiting(self, chat_key: str) -> int:
        return sum(1 for h in self._held.values() if h.chat_key == chat_key and h.until > self.clock.now())

    def _drop(self, key: str) -> None:
        self._held.pop(key).path.unlink(missing_ok=True)
