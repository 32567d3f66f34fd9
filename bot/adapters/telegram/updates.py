"""One bad update harms only itself: every update Telegram sends is taken once, and one that
cannot be read or handled is logged with its id and acknowledged like the rest.

Polling confirms updates by asking for the next offset; if reading a batch raises, PTB asks
for the same batch again, for ever, and every chat waits. So each update is checked here,
before PTB sees the batch: presses go to the adapter (a failure is that press's alone), an
update PTB cannot build its objects from is dropped, and a repeated update_id is skipped.
The webhook uses the same gate for its one update per request.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from telegram import Update

log = logging.getLogger("quizhost.telegram")

REMEMBERED = 10_000  # update ids kept to tell a repeat; Telegram repeats only recent ones


class UpdateGate:
    """Which update ids were taken already, and the sifting of one batch of updates."""

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self._order: deque[int] = deque()
        self._seen: set[int] = set()
        self._remembered = remembered

    def first_time(self, update_id: int) -> bool:
        """True the first time an id is offered, False for a repeat."""
        if update_id in self._seen:
            log.info("update %d came again: it was handled already", update_id)
            return False
        self._seen.add(update_id)
        self._order.append(update_id)
        if len(self._order) > self._remembered:
            self._seen.discard(self._order.popleft())
        return True

    def forget(self, update_id: int) -> None:
        """Take the id as new when it is offered again (it was not handled here)."""
        self._seen.discard(update_id)

    def sift(self, updates: list[Any], on_press: Callable[[int, dict], None]) -> list[dict]:
        """The updates of one getUpdates answer PTB may build, after presses are handed over.

        The last update's id always stays (alone, as an empty update, when its content went
        elsewhere): PTB confirms the batch by the last id it is given.
        """
        kept: list[dict] = []
        last: int | None = None
        for update in updates:
            update_id = update_id_of(update)
            if update_id is None:
                log.error("an update without a usable update_id was dropped: %.200r", update)
                continue
            last = update_id
            if self.first_time(update_id) and (taken := self._take(update_id, update, on_press)) is not None:
                kept.append(taken)
        if last is not None and (not kept or kept[-1]["update_id"] != last):
            kept.append({"update_id": last})
        return kept

    @staticmethod
    def _take(update_id: int, update: dict, on_press: Callable[[int, dict], None]) -> dict | None:
        """The update for PTB, or None when it was handled here or cannot be read."""
        try:
            if "callback_query" in update:
                on_press(update_id, update["callback_query"])
                return None
            Update.de_json(update, None)  # what PTB will do with it: a failure here would repeat there
            return update
        except Exception:
            log.exception("update %d could not be handled; it is acknowledged and dropped", update_id)
            return None


def update_id_of(update: Any) -> int | None:
    """The update's id, when it has one Telegram could have sent (a non-negative int)."""
    if not isinstance(update, dict):
        return None
    update_id = update.get("update_id")
    if type(update_id) is not int or update_id < 0:
        return None
    return update_id
