"""Chat time zones by IANA name ("Asia/Kolkata"), looked up with the standard zoneinfo.

zoneinfo reads the system's time zone files and falls back to the `tzdata` package, which
is a dependency for machines without them (slim containers, Windows).
"""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

DEFAULT_ZONE = "UTC"
MAX_NAME = 64


# Files among the zones that name no place: the machine's own zone (a link to /etc/localtime)
# and the rules of POSIX TZ strings. `/settings tz localtime` would follow whatever the server
# is set to, and show it to the chat.
NOT_PLACES = frozenset({"localtime", "posixrules"})


@lru_cache(maxsize=1)
def _names_by_lower() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones() - NOT_PLACES}


def canonical(name: str) -> str | None:
    """The IANA name as zoneinfo spells it ('asia/kolkata' -> 'Asia/Kolkata'), None if unknown.
    Only the names zoneinfo lists: not its files' other paths (posix/…, right/…, whose leap
    seconds zoneinfo does not apply), nor the files in NOT_PLACES."""
    wanted = (name or "").strip()
    if not wanted or len(wanted) > MAX_NAME:
        return None
    return _names_by_lower().get(wanted.lower())


def zone(name: str | None) -> ZoneInfo:
    """The zone of a stored name; UTC for none (names are checked when they are set)."""
    return ZoneInfo(canonical(name or DEFAULT_ZONE) or DEFAULT_ZONE)
