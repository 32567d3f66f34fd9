"""Host panels (bot/engine/host_panel.py, storage/shared/host_panels.py): where each hosted
run's panel was posted, so that it is kept current after a restart and from any worker."""

from __future__ import annotations

from typing import Protocol


class HostPanelRecords(Protocol):
    async def keep_host_panel(self, run_id: int, chat_id: str, message_id: str) -> None:
        """The run's panel is message `message_id` in the host's private chat `chat_id` (in
        place of the one kept before)."""

    async def host_panel(self, run_id: int) -> tuple[str, str] | None:
        """The private chat and message of the run's panel; None when none was posted."""
