"""The port a chat adapter fills for /healthz and /metrics: whether its platform answers, and
the platform's errors by kind.

A load balancer stops sending updates to a worker whose /healthz says 503, so an adapter says
"down" only when its platform has been out of reach for longer than a short grace (a blip is
not a sick worker); the metrics count every error, blips too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class PlatformError(StrEnum):
    """What went wrong with one call to a platform: the label values of
    `quizhost_platform_errors_total{kind}`, a fixed set whatever the platform said."""

    RATE_LIMITED = "rate_limited"  # 429: asked to slow down
    FORBIDDEN = "forbidden"  # 401 or 403: removed from the chat, blocked, or a refused token
    NOT_FOUND = "not_found"  # 404: the message or chat is gone
    BAD_REQUEST = "bad_request"  # 400 and any other 4xx: the platform refused the request itself
    SERVER = "server"  # 5xx: the platform failed
    NETWORK = "network"  # no answer at all: refused, reset, timed out


def error_of_status(status: int) -> PlatformError | None:
    """The kind of an HTTP status a platform answered with; None for a success."""
    if status < 400:
        return None
    if status == 429:
        return PlatformError.RATE_LIMITED
    if status in (401, 403):
        return PlatformError.FORBIDDEN
    if status == 404:
        return PlatformError.NOT_FOUND
    return PlatformError.SERVER if status >= 500 else PlatformError.BAD_REQUEST


@dataclass(frozen=True)
class PlatformHealth:
    up: bool
    detail: str  # "ok", or what is wrong and for how long: "down: connection refused 12 s" (no secrets)


UP = PlatformHealth(True, "ok")


class WatchedPlatform(Protocol):
    """A chat adapter as /healthz and /metrics see it."""

    platform: str

    async def health(self) -> PlatformHealth:
        """Up while the platform answers (or has not for less than a short grace); quick to answer."""

    def platform_errors(self) -> Mapping[PlatformError, int]:
        """How many calls to the platform failed so far, by kind."""
