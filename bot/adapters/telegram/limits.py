"""Telegram's send limits held at every instant: 30 messages in any second for the bot, 20 in
any minute for one group, as sliding windows.

PTB's AIORateLimiter is a leaky bucket (aiolimiter): it lets a full bucket go at once and then
refills it, so a busy second could carry a burst and the refill (59 sends were seen in one
second, 27 in one group's minute). Here each limit remembers when its last sends left and
lets one more go only when fewer than the limit left within the window. The windows are a
little longer than Telegram's (SAFETY), so a request that reaches Telegram a few milliseconds
later than it left still lands inside them.

Which calls count is PTB's rule (BaseRateLimiter is its documented hook): every call with a
chat_id counts for the bot, and for the group when the id is negative or a @name. A 429 is
waited out (retry_after) and tried again, holding back every other call meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram.constants import FloodLimit
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger("quizhost.telegram")

BOT_PER_SECOND = FloodLimit.MESSAGES_PER_SECOND  # 30
GROUP_PER_MINUTE = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP  # 20
SAFETY = 0.1  # seconds added to each window for the way to Telegram
GROUPS_KEPT = 10_000  # idle groups' windows are dropped beyond this many


def bot_share(workers: int) -> int:
    """One worker's part of the bot's messages a second when `workers` send for the same bot.

    Telegram counts the bot's sends, not a process's: each of N webhook workers keeps to 30 // N
    (whole messages, rounded down), so together they stay within 30 in any second without
    asking each other; a worker that died only leaves its share unused."""
    return max(1, BOT_PER_SECOND // workers)


Now = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class SlidingWindow:
    """At most `limit` acquisitions in any `period` seconds; waiters go first come, first served."""

    def __init__(self, limit: int, period: float, now: Now = time.monotonic, sleep: Sleep = asyncio.sleep) -> None:
        self.limit, self.period = limit, period
        self._now, self._sleep = now, sleep
        self._times: deque[float] = deque()
        self.turn = asyncio.Lock()

    async def acquire(self) -> None:
        async with self.turn:
            await self.wait_for_room()
            self.record()

    async def wait_for_room(self) -> None:
        """Until one more fits (the caller holds `turn`, so nobody takes the room meanwhile)."""
        while True:
            now = self._now()
            while self._times and self._times[0] <= now - self.period:
                self._times.popleft()
            if len(self._times) < self.limit:
                return
            await self._sleep(self._times[0] + self.period - now)

    def record(self) -> None:
        self._times.append(self._now())

    def idle(self) -> bool:
        return not self._times or self._times[-1] <= self._now() - self.period


class SlidingWindowLimiter(BaseRateLimiter[int]):
    """PTB's rate limiter hook with sliding windows; `rate_limit_args` is the number of 429 retries."""

    def __init__(
        self,
        bot_per_second: int = BOT_PER_SECOND,
        group_per_minute: float = GROUP_PER_MINUTE,
        max_retries: int = 3,
        now: Now = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._now, self._sleep = now, sleep
        self._bot = SlidingWindow(bot_per_second, 1.0 + SAFETY, now, sleep) if bot_per_second else None
        self._group_limit = int(group_per_minute)  # 0: no group limit (tests that replay a whole quiz)
        self._groups: dict[int | str, SlidingWindow] = {}
        self._max_retries = max_retries
        self.released = 0  # calls to a chat let through so far (tests wait for them to arrive)
        self._unblocked = asyncio.Event()
        self._unblocked.set()

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        retries = rate_limit_args or self._max_retries
        chat_id = data.get("chat_id")
        group, bot = self._group_window(chat_id), self._bot if chat_id is not None else None
        for attempt in range(retries + 1):
            try:
                await self._unblocked.wait()
                await self._take(group, bot)
                self.released += chat_id is not None
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                await self._wait_out(exc)
        raise AssertionError("unreachable")

    @staticmethod
    async def _take(group: SlidingWindow | None, bot: SlidingWindow | None) -> None:
        """A place in both windows, stamped when the request leaves: the group's turn is held
        while the bot's window is waited for, so neither stamp is earlier than the send."""
        async with group.turn if group is not None else contextlib.nullcontext():
            if group is not None:
                await group.wait_for_room()
            if bot is not None:
                await bot.acquire()
            if group is not None:
                group.record()

    def _group_window(self, chat_id: Any) -> SlidingWindow | None:
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(chat_id)
        is_group = (isinstance(chat_id, int) and chat_id < 0) or isinstance(chat_id, str)
        if not is_group or not self._group_limit:
            return None
        window = self._groups.get(chat_id)
        if window is None:
            if len(self._groups) >= GROUPS_KEPT:
                self._groups = {k: w for k, w in self._groups.items() if not w.idle()}
            window = self._groups[chat_id] = SlidingWindow(
                self._group_limit, 60.0 + SAFETY * 10, self._now, self._sleep
            )
        return window

    async def _wait_out(self, exc: RetryAfter) -> None:
        after = exc.retry_after
        seconds = after.total_seconds() if hasattr(after, "total_seconds") else float(after)
        log.info("Telegram asked to wait %.1f s (429); every send waits", seconds)
        self._unblocked.clear()
        try:
            await self._sleep(seconds + SAFETY)
        finally:
            self._unblocked.set()
