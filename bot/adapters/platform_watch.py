"""What an adapter saw of its platform's connections, for /healthz and /metrics
(bot/ports/health.py): every HTTP call's error by kind, and since when a connection has
been failing.

The transports report here (Telegram's request classes, discord.py's aiohttp session through
its `http_trace`), so every call counts, the ones the libraries retry on their own too.
"""

from __future__ import annotations

import errno
import time
from collections import Counter
from collections.abc import Callable

import aiohttp

from bot.ports.health import UP, PlatformError, PlatformHealth, error_of_status

# seconds a connection may fail before /healthz says so: longer than a blip the libraries retry
# through (a dropped connection, one 502), short enough that a balancer soon sends elsewhere
GRACE_SECONDS = 10.0


class Outage:
    """Since when a connection has been failing, and the latest reason; nothing while it works."""

    def __init__(self, grace: float | None = None, now: Callable[[], float] = time.monotonic) -> None:
        self.grace = GRACE_SECONDS if grace is None else grace
        self._now = now
        self.since: float | None = None
        self.why = ""

    def failing(self, why: str) -> None:
        if self.since is None:
            self.since = self._now()
        self.why = why

    def working(self) -> None:
        self.since = None

    def health(self) -> PlatformHealth:
        if self.since is None:
            return UP
        lasted = self._now() - self.since
        return UP if lasted < self.grace else PlatformHealth(False, f"down: {self.why} {lasted:.0f} s")


class CallWatch:
    """A platform's HTTP API as its calls found it: errors by kind, and an outage while calls
    get no answer (or a 5xx) until one is answered."""

    def __init__(self, grace: float | None = None, now: Callable[[], float] = time.monotonic) -> None:
        self.errors: Counter[PlatformError] = Counter()
        self.outage = Outage(grace, now)

    def answered(self, status: int) -> None:
        kind = error_of_status(status)
        if kind is None:
            self.outage.working()
            return
        self.errors[kind] += 1
        if kind is PlatformError.SERVER:
            self.outage.failing(f"HTTP {status}")
        else:  # a refusal is an answer: the platform is there
            self.outage.working()

    def unreachable(self, error: BaseException) -> None:
        self.errors[PlatformError.NETWORK] += 1
        self.outage.failing(network_reason(error))

    def trace(self) -> aiohttp.TraceConfig:
        """For an aiohttp session (discord.py's `http_trace`): every request reports here."""
        config = aiohttp.TraceConfig()

        async def ended(session: object, context: object, params: aiohttp.TraceRequestEndParams) -> None:
            self.answered(params.response.status)

        async def failed(session: object, context: object, params: aiohttp.TraceRequestExceptionParams) -> None:
            self.unreachable(params.exception)

        config.on_request_end.append(ended)
        config.on_request_exception.append(failed)
        return config


def network_reason(error: BaseException) -> str:
    """A few words on why a call got no answer, from the exception's type alone: messages of
    the libraries may quote the request's URL, which holds Telegram's token."""
    seen: BaseException | None = error
    deepest = error
    while seen is not None:
        deepest = seen
        if isinstance(seen, ConnectionRefusedError) or getattr(seen, "errno", None) == errno.ECONNREFUSED:
            return "connection refused"
        if isinstance(seen, TimeoutError):
            return "timed out"
        if isinstance(seen, (ConnectionResetError, aiohttp.ServerDisconnectedError)):
            return "connection lost"
        seen = seen.__cause__ or seen.__context__
    return f"network error ({type(deepest).__name__})"
