"""The garbage collector on a clock while the bot serves (`serving_process` in bot/app/wiring.py).

CPython starts a young collection when the objects made since the last one, less the objects
freed since, pass a threshold. A busy bot frees as many objects as it makes: the answers of a
closing question were made seconds ago, a question's answers live until it closes. So the
count climbs slowly and the young generation fills with everything made since: at 9,000
presses a second each young collection walked 30,000 to 50,000 live objects and paused the
loop for 6 to 11 ms, twice a second (docs/PERFORMANCE.md). None of them found any garbage: a
press makes no reference cycles.

Here the young generation is collected every `young_seconds` instead, whatever the count: it
then holds what the last tenth of a second made, a pause of well under a millisecond. What
outlives that moves to the middle generation, collected every `middle_seconds`: a pause as long
as one of the old young collections, once in half a minute. CPython's own thresholds stay as
they are set, a backstop for bursts, and so do its rare full collections.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_SECONDS = 0.1
MIDDLE_SECONDS = 30.0


class PacedCollector:
    """Collections on the loop's clock: the young generation every `young_seconds`, the young
    and middle ones every `middle_seconds`. Timer callbacks, no task: nothing to await."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        young_seconds: float = YOUNG_SECONDS,
        middle_seconds: float = MIDDLE_SECONDS,
    ) -> None:
        self._loop = loop
        self._young = young_seconds
        self._middle = middle_seconds
        self._middle_due = 0.0
        self._next: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._middle_due = self._loop.time() + self._middle
        self._next = self._loop.call_later(self._young, self._collect)

    def stop(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _collect(self) -> None:
        now = self._loop.time()
        if now >= self._middle_due:
            gc.collect(1)
            self._middle_due = now + self._middle
        else:
            gc.collect(0)
        self._next = self._loop.call_later(self._young, self._collect)
