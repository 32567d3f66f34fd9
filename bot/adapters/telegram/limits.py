"""Telegram's send limits held at every instant: 30 messages in any second for the bot, 20 in
any minute for one group, as sliding windows.

PTB's AIORateLimiter is a leaky bucket (aiolimiter): it lets a full bucket go at once and then
refills it, so a busy second could carry a burst and the refill (59 sends were seen in one
second, 27 in one group's minute). Here each limit remembers when its last sends left and
lets one more go only when fewer than the limit left within the window. The windows are a
little longer than Telegram's (SAFETY), so a request that reaches Telegram a few milliseconds
later than it left still lands inside them.

Only what Telegram counts is counted: messages (sends, and edits, see `counts`), not admin
checks or answers to presses, and not a try Telegram answered with an error (a refused try
gives its place back; one whose answer was lost keeps it, as it may have arrived). A 429 is
waited out (retry_after) and tried again, holding back every other call meanwhile.

Replies to users' commands and messages (`CHATTER`) go in a lane of their own first: at most
CHATTER_SHARE of the bot's messages a second, so however many users chatter at once, a quiz's
own messages (questions, reveals, podiums) find room in the rest of every second and never
wait behind them. A group's minute is shared by both, in order, as Telegram counts it; a reply
that would wait for it longer than CHATTER_PATIENCE is not sent (TooLate).

A group whose next message must wait longer than HOLD_NOTICE_AFTER is told why, once per hold
(`on_hold`): the last place of the group's minute is kept for that notice, so it goes at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import aiohttp
import httpx
from telegram.constants import FloodLimit
from telegram.error import RetryAfter, TelegramError, TimedOut
from telegram.ext import BaseRateLimiter

log = logging.getLogger("quizhost.telegram")

BOT_PER_SECOND = FloodLimit.MESSAGES_PER_SECOND  # 30
GROUP_PER_MINUTE = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP  # 20
SAFETY = 0.1  # seconds added to each window for the way to Telegram
GROUPS_KEPT = 10_000  # idle groups' windows are dropped beyond this many
# replies to users may take 20 of the bot's 30 a second: a burst of /help from many users still
# leaves 10 a second for every quiz's questions and reveals (more than their groups' minutes let go)
CHATTER_SHARE = 2 / 3
# a reply to a user in a group that cannot leave within this is dropped: its asker has moved on,
# the group's minute is better spent on its quiz, and its handler held one of PTB's update slots
CHATTER_PATIENCE = 10.0
HOLD_NOTICE_AFTER = 10.0  # a group waiting longer than this for its next message is told why
# What Telegram counts as a message. Edits count too: PLATFORMS.md, "edits count towards
# Telegram's limits in practice, so budget them" (a question's close edit is one of the three
# messages a question costs a group). sendChatAction shows "typing…" and posts nothing.
MESSAGE_METHODS = ("send", "editMessage", "copyMessage", "forwardMessage", "stopPoll")
NOT_MESSAGES = frozenset({"sendChatAction"})


def counts(endpoint: str) -> bool:
    """Whether a call of this Bot API method posts or changes a message in the chat."""
    return endpoint.startswith(MESSAGE_METHODS) and endpoint not in NOT_MESSAGES


def certainly_failed(exc: TelegramError) -> bool:
    """Telegram certainly did not act: an error status (PTB raises those with no cause), or no
    connection was made. A timeout or a connection lost after the request went out leaves it open."""
    cause = exc.__cause__
    if cause is None:
        return not isinstance(exc, TimedOut)
    return isinstance(
        cause,
        (
            aiohttp.ClientConnectorError,
            aiohttp.ConnectionTimeoutError,
            httpx.ConnectError,
            httpx.ConnectTimeout,
            httpx.PoolTimeout,
            ConnectionRefusedError,
        ),
    )


def bot_share(workers: int) -> int:
    """One worker's part of the bot's messages a second when `workers` send for the same bot.

    Telegram counts the bot's sends, not a process's: each of N webhook workers keeps to 30 // N
    (whole messages, rounded down), so together they stay within 30 in any second without
    asking each other; a worker that died only leaves its share unused."""
    return max(1, BOT_PER_SECOND // workers)


Now = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
# told (chat id, seconds until the held message goes, the notice's own `rate_limit_args`)
OnHold = Callable[[int | str, float, "Prepaid"], Awaitable[object]]


class SlidingWindow:
    """At most `limit` acquisitions in any `period` seconds; waiters go first come, first served."""

    def __init__(self, limit: int, period: float, now: Now = time.monotonic, sleep: Sleep = asyncio.sleep) -> None:
        self.limit, self.period = limit, period
        self._now, self._sleep = now, sleep
        self._times: deque[float] = deque()
        self._freed = asyncio.Event()  # a place was given back: waiters look again
        self.turn = asyncio.Lock()
        self.quiet_until = 0.0  # no hold notice before then (the hold last told of has not ended)

    async def acquire(self) -> float:
        async with self.turn:
            await self.wait_for_room()
            return self.record()

    def wait(self, keep: int = 0) -> float:
        """Seconds until one more fits, with `keep` places left free."""
        now = self._now()
        while self._times and self._times[0] <= now - self.period:
            self._times.popleft()
        over = len(self._times) - (self.limit - keep - 1)
        return 0.0 if over <= 0 else self._times[over - 1] + self.period - now

    async def wait_for_room(self, keep: int = 0) -> None:
        """Until one more fits (the caller holds `turn`, so nobody takes the room meanwhile)."""
        while (delay := self.wait(keep)) > 0:
            self._freed.clear()
            sleeper = asyncio.ensure_future(self._sleep(delay))
            freed = asyncio.ensure_future(self._freed.wait())
            try:
                await asyncio.wait((sleeper, freed), return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                freed.cancel()

    def record(self) -> float:
        stamp = self._now()
        self._times.append(stamp)
        return stamp

    def give_back(self, stamp: float) -> None:
        """A send Telegram refused did not count: its place is free again."""
        with contextlib.suppress(ValueError):  # already out of the window
            self._times.remove(stamp)
            self._freed.set()

    def idle(self) -> bool:
        return not self._times or self._times[-1] <= self._now() - self.period


@dataclass
class Place:
    """One send's place in a window, given back at most once."""

    window: SlidingWindow
    stamp: float
    used: bool = False  # a hold notice's place, once its send has left
    returned: bool = False

    def give_back(self) -> None:
        if not self.returned:
            self.returned = True
            self.window.give_back(self.stamp)


class Prepaid(Place):
    """`rate_limit_args` of a hold notice: its place in the group's window was taken for it."""


class Chatter:
    """`rate_limit_args` of a reply to a user's command or message: sent in the chatter lane."""


CHATTER = Chatter()


class TooLate(Exception):
    """A reply to a user not sent: its group's minute would have held it past CHATTER_PATIENCE."""


Taken = list[Place]


class SlidingWindowLimiter(BaseRateLimiter["int | Prepaid | Chatter"]):
    """PTB's rate limiter hook with sliding windows; `rate_limit_args` is the number of 429
    retries, the `Prepaid` place of a hold notice, or CHATTER."""

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
        chatter = max(1, int(bot_per_second * CHATTER_SHARE))
        self._chatter = SlidingWindow(chatter, 1.0 + SAFETY, now, sleep) if bot_per_second else None
        self._group_limit = int(group_per_minute)  # 0: no group limit (tests that replay a whole quiz)
        self._groups: dict[int | str, SlidingWindow] = {}
        self._max_retries = max_retries
        self.released = 0  # calls to a chat let through so far (tests wait for them to arrive)
        self._unblocked = asyncio.Event()
        self._unblocked.set()
        self.on_hold: OnHold | None = None  # the adapter's: tells a group why it waits
        self._notices: set[asyncio.Task[None]] = set()

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        for task in list(self._notices):
            task.cancel()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | Prepaid | Chatter | None,
    ) -> Any:
        prepaid = rate_limit_args if isinstance(rate_limit_args, Prepaid) else None
        retries = self._max_retries
        if isinstance(rate_limit_args, int) and rate_limit_args:
            retries = rate_limit_args
        elif prepaid is not None:
            retries = 0  # a notice is not worth waiting out a 429 for
        chat_id = data.get("chat_id")
        counted = chat_id is not None and counts(endpoint)
        group = self._group_window(chat_id) if counted and prepaid is None else None
        bot = self._bot if counted else None
        lane = self._chatter if counted and isinstance(rate_limit_args, Chatter) else None
        for attempt in range(retries + 1):
            try:
                await self._unblocked.wait()
                taken = await self._places(chat_id, group, bot, lane)
                if prepaid is not None:
                    prepaid.used = True
                    taken.append(prepaid)
                self.released += chat_id is not None
                return await self._counted(callback(*args, **kwargs), taken)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                await self._wait_out(exc)
        raise AssertionError("unreachable")

    @staticmethod
    async def _counted(call: Awaitable[Any], taken: Taken) -> Any:
        """The call's answer; a try Telegram refused, or that never reached it, gives its places back."""
        try:
            return await call
        except TelegramError as exc:
            if certainly_failed(exc):
                for place in taken:
                    place.give_back()
            raise

    async def _places(
        self, chat_id: Any, group: SlidingWindow | None, bot: SlidingWindow | None, lane: SlidingWindow | None
    ) -> Taken:
        """A place in every window the send counts in. A reply to a user in a group that cannot
        leave within CHATTER_PATIENCE is not sent (TooLate), and the group is told nothing: the
        hold notice is for its quiz."""
        if lane is None:
            return await self._take(chat_id, group, bot)
        taking = asyncio.ensure_future(self._chatter_places(chat_id, group, bot, lane))
        if group is None:
            return await taking
        timer = asyncio.ensure_future(self._sleep(CHATTER_PATIENCE))  # on the limiter's clock
        try:
            await asyncio.wait((taking, timer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            taking.cancel()  # nothing when it has its places
        try:
            return await taking
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():  # the send itself is being cancelled
                raise
            raise TooLate(f"a reply to chat {chat_id} would have waited over {CHATTER_PATIENCE} s: not sent") from None

    async def _chatter_places(
        self, chat_id: Any, group: SlidingWindow | None, bot: SlidingWindow | None, lane: SlidingWindow
    ) -> Taken:
        place = Place(lane, await lane.acquire())
        try:
            return [place, *await self._take(chat_id, group, bot, tell=False)]
        except BaseException:  # TooLate's cancel, or the send's own: the reply never left
            place.give_back()
            raise

    async def _take(
        self, chat_id: Any, group: SlidingWindow | None, bot: SlidingWindow | None, tell: bool = True
    ) -> Taken:
        """A place in both windows, stamped when the request leaves: the group's turn is held
        while the bot's window is waited for, so neither stamp is earlier than the send."""
        taken: Taken = []
        async with group.turn if group is not None else contextlib.nullcontext():
            if group is not None:
                if tell:
                    self._tell_if_held(chat_id, group)
                await group.wait_for_room(keep=self._kept)
            if bot is not None:
                taken.append(Place(bot, await bot.acquire()))
            if group is not None:
                taken.append(Place(group, group.record()))
        return taken

    @property
    def _kept(self) -> int:
        """Places of a group's minute kept for the hold notice."""
        return 1 if self.on_hold is not None and self._group_limit > 1 else 0

    def _tell_if_held(self, chat_id: int | str, group: SlidingWindow) -> None:
        """When the group's next message waits long, its kept place goes to a notice saying why;
        once per hold: not again until the message it announced has gone."""
        if self.on_hold is None or not self._kept or self._now() < group.quiet_until:
            return
        if group.wait(keep=1) <= HOLD_NOTICE_AFTER or group.wait() > 0:
            return
        prepaid = Prepaid(group, group.record())
        seconds = group.wait(keep=1)
        group.quiet_until = self._now() + seconds
        task = asyncio.create_task(self._notice(chat_id, seconds, prepaid), name=f"hold notice {chat_id}")
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def _notice(self, chat_id: int | str, seconds: float, prepaid: Prepaid) -> None:
        assert self.on_hold is not None
        try:
            await self.on_hold(chat_id, seconds, prepaid)
        except Exception as exc:  # a notice is a courtesy: its failure must not stop the quiz
            if not prepaid.used:  # it never left (once it has, the answer decides, as for any send)
                prepaid.give_back()
            log.warning("could not tell chat %s why it waits: %s", chat_id, exc)

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
