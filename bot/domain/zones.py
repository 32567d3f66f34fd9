"""Chat time zones by IANA name ("Asia/Kolkata"), looked up with the standard zoneinfo.

zoneinfo reads the system's time zone files and falls back to the `tzdata` package, which
is a dependency for machines without them (slim containers, Windows).
"""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DEFAULT_ZONE = "UTC"
MAX_NAME = 64


@lru_cache(maxsize=1)
def _names_by_lower() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def canonical(name: str) -> str | None:
    """The IANA name as zoneinfo spells it ('asia/kolkata' -> 'Asia/Kolkata'), None if unknown."""
    wanted = (name or "").strip()
    if not wanted or len(wanted) > MAX_NAME:
        return None
    exact = _names_by_lower().get(wanted.lower())
    return exact or (wanted if _loads(wanted) else None)


def _loads(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def zone(name: str | None) -> ZoneInfo:
    """The zone of a stored name; UTC for none (names are checked when they are set)."""
    return ZoneInfo(canonical(name or DEFAULT_ZONE) or DEFAULT_ZONE)
