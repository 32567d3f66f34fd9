"""How the Telegram adapter talks to the Bot API: the Application, retries, admin checks, webhook.

Kept apart from the adapter so the request class (aiohttp by default, PTB's httpx one by
setting) and the retry policy change in one place.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from telegram import Bot, ChatMemberRestricted
from telegram.constants import ChatMemberStatus, FloodLimit
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, ApplicationBuilder
from telegram.request import HTTPXRequest, RequestData

from bot.adapters.platform_watch import CallWatch
from bot.adapters.telegram.limits import SlidingWindowLimiter, bot_share, certainly_failed
from bot.adapters.telegram.request import AiohttpRequest, TimeoutArg, UpdatesRequest
from bot.ports.chat import DeliveryUncertain, MembershipUnknown

log = logging.getLogger("quizhost.telegram")
T = TypeVar("T")

# Telegram: about 20 messages a minute in one group, 30 a second overall. SlidingWindowLimiter
# (telegram_limits.py) queues sends to stay inside both at every instant and retries a 429
# after its retry_after.
GROUP_MESSAGES_PER_MINUTE: float = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP
RATE_LIMIT_RETRIES = 3
# Network errors and 5xx: the request may not have reached Telegram, so send it again.
RETRY_ATTEMPTS = 3
RETRY_BASE_SECONDS = 1.0
# Telegram takes the answer to a button press for about 15 s: retry within that, with room to spare
ANSWER_WINDOW = 14.0
ANSWER_RETRY_SECONDS = 0.25
ADMIN_TTL_SECONDS = 60.0
ADMIN_CACHE_SIZE = 10_000
# Telegram keeps at most this many webhook calls open at once (its default is 40): a press is
# held open until its answer is stored, so allow the most
WEBHOOK_CONNECTIONS = 100
CONCURRENT_UPDATES = 256  # updates handled at once (PTB's `concurrent_updates(True)`), presses too
HTTP_CLIENTS = ("aiohttp", "httpx")


class WatchedHTTPXRequest(HTTPXRequest):
    """PTB's httpx transport, telling `watch` every call's status or network failure."""

    __slots__ = ("watch",)

    def __init__(self, connection_pool_size: int, proxy: str, watch: CallWatch | None) -> None:
        super().__init__(connection_pool_size=connection_pool_size, proxy=proxy or None)
        self.watch = watch

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: TimeoutArg = HTTPXRequest.DEFAULT_NONE,
        write_timeout: TimeoutArg = HTTPXRequest.DEFAULT_NONE,
        connect_timeout: TimeoutArg = HTTPXRequest.DEFAULT_NONE,
        pool_timeout: TimeoutArg = HTTPXRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        try:
            status, payload = await super().do_request(
                url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
            )
        except NetworkError as exc:
            if self.watch is not None:
                self.watch.unreachable(exc)
            raise
        if self.watch is not None:
            self.watch.answered(status)
        return status, payload


def transport(http: str, pool_size: int, proxy: str, watch: CallWatch | None) -> AiohttpRequest | HTTPXRequest:
    """The request class `http` names ("aiohttp" or "httpx")."""
    if http not in HTTP_CLIENTS:
        raise ValueError(f"unknown HTTP client {http!r}: {' or '.join(HTTP_CLIENTS)}")
    if http == "aiohttp":
        return AiohttpRequest(connection_pool_size=pool_size, proxy=proxy, watch=watch)
    return WatchedHTTPXRequest(pool_size, proxy, watch)


def updates_request(http: str = "aiohttp", proxy: str = "", watch: CallWatch | None = None) -> UpdatesRequest:
    """getUpdates: one long poll at a time, on the same HTTP client as every other call; the
    adapter takes the button presses out of its answers (see UpdatesRequest)."""
    return UpdatesRequest(transport(http, 1, proxy, watch))


def file_url(api_url: str) -> str:
    """`…/bot` -> `…/file/bot`: where the Bot API serves the files getFile names (uploads)."""
    base = api_url.rstrip("/")
    return (base[: -len("/bot")] if base.endswith("/bot") else base) + "/file/bot"


def build_application(
    token: str,
    api_url: str,
    http: str = "aiohttp",
    proxy: str = "",
    updates: UpdatesRequest | None = None,
    watch: CallWatch | None = None,
    workers: int = 1,
) -> Application:
    """The PTB Application with its rate limiter and HTTP client (the one place to swap either).

    `http`: "aiohttp" (our request class, about ten times the presses per second of PTB's own
    on the same machine) or "httpx" (PTB's default, kept for comparison and as a fallback).
    `watch` is told how every call went (/healthz and /metrics). `workers`: how many webhook
    workers send for this bot (TELEGRAM_WORKERS); this one sends its share of the bot's limit.
    """
    updates = updates or updates_request(http, proxy, watch)
    limiter = SlidingWindowLimiter(
        bot_share(workers), group_per_minute=GROUP_MESSAGES_PER_MINUTE, max_retries=RATE_LIMIT_RETRIES
    )
    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(api_url)  # the token is appended: ".../bot" (self-hosted Bot API servers too)
        .base_file_url(file_url(api_url))  # uploads: ".../file/bot", beside it
        .rate_limiter(limiter)
        # a press waits for its answer's group commit: many presses must be in flight at once,
        # and one slow send must not hold up every other chat's presses
        .concurrent_updates(CONCURRENT_UPDATES)
        .get_updates_request(updates)
        .request(transport(http, CONCURRENT_UPDATES, proxy, watch))  # one connection per update in flight
    )
    return builder.build()


async def with_retries(call: Callable[[], Awaitable[T]], what: str, once: bool = False) -> T:
    """`call()`, again after a network error or a 5xx, with exponential back-off.

    PTB raises BadRequest (a NetworkError subclass) for a 400: that is an answer, not an outage.
    `once`: the call posts something, so it is sent again only when the try certainly failed;
    otherwise DeliveryUncertain is raised (the outbox decides whether to send it once more).
    """
    for attempt in range(1, RETRY_ATTEMPTS + 1):
        try:
            return await call()
        except NetworkError as exc:
            if once and not isinstance(exc, BadRequest) and not certainly_failed(exc):
                raise DeliveryUncertain(f"{what}: {exc}") from exc
            if isinstance(exc, BadRequest) or attempt == RETRY_ATTEMPTS:
                raise
            delay = RETRY_BASE_SECONDS * 2 ** (attempt - 1)
            log.warning("%s failed (%s); trying again in %.2f s (%d/%d)", what, exc, delay, attempt, RETRY_ATTEMPTS)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


async def within_window(call: Callable[[], Awaitable[T]], window: float, what: str) -> T:
    """`call()`, again after a network error, a 5xx or a 429, until `window` seconds have passed.

    For answers to presses: Telegram takes one for about 15 s after the press, and a button
    spins until then, so a failed answer is worth trying again for all of that time, not 3 s.
    """
    loop = asyncio.get_running_loop()
    deadline, delay = loop.time() + window, ANSWER_RETRY_SECONDS
    while True:
        try:
            return await call()
        except (NetworkError, RetryAfter) as exc:
            wait = _retry_after(exc) or delay
            if isinstance(exc, BadRequest) or loop.time() + wait >= deadline:
                raise
            log.warning("%s failed (%s); trying again in %.2f s", what, exc, wait)
            await asyncio.sleep(wait)
            delay = min(delay * 2, 4.0)


def _retry_after(exc: TelegramError) -> float | None:
    if not isinstance(exc, RetryAfter):
        return None
    after = exc.retry_after
    return after.total_seconds() if hasattr(after, "total_seconds") else float(after)


class AdminCache:
    """Who administers a group, asked with getChatMember and remembered briefly.

    Admins change rarely, and asking on every /stop of a busy group would spend the bot's
    request budget; a minute-old answer is good enough for who may stop a quiz.
    """

    def __init__(self, ttl: float = ADMIN_TTL_SECONDS, now: Callable[[], float] = time.monotonic) -> None:
        self.ttl, self._now = ttl, now
        self._seen: dict[tuple[int, int], tuple[bool, float]] = {}

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        key, now = (chat_id, user_id), self._now()
        hit = self._seen.get(key)
        if hit is not None and hit[1] > now:
            return hit[0]
        try:
            member = await with_retries(lambda: bot.get_chat_member(chat_id, user_id), "getChatMember")
        except TelegramError as exc:  # refusing is safe; guessing "admin" is not
            log.warning("could not check admin rights in chat %s: %s", chat_id, exc)
            return False
        admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        if len(self._seen) >= ADMIN_CACHE_SIZE:
            self._seen = {k: v for k, v in self._seen.items() if v[1] > now}
        self._seen[key] = (admin, now + self.ttl)
        return admin


async def is_member(bot: Bot, chat_id: int | str, user_id: int) -> bool:
    """Whether the user is in the group now (getChatMember, asked each time: a member who left
    yesterday is not one today). Telegram says "user not found" (400) for someone never in it;
    a restricted user is in it while `is_member` says so. MembershipUnknown when it could not
    be asked (after the retries of a network failure, a 5xx, the bot removed from the group)."""
    try:
        member = await with_retries(lambda: bot.get_chat_member(chat_id, user_id), "getChatMember")
    except BadRequest:  # "user not found", "chat not found": not in it, as far as Telegram knows
        return False
    except TelegramError as exc:
        raise MembershipUnknown(f"getChatMember in {chat_id}: {exc}") from exc
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


@dataclass(frozen=True)
class Webhook:
    """Webhook mode: Telegram POSTs updates to `url`; the local server listens on host:port/path."""

    url: str
    host: str
    port: int
    path: str
    secret: str
    answers: str = "request"  # "reply": answer presses inside the webhook's HTTP reply
