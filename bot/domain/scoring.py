"""The scoring rule of PRODUCT.md, in one place, and how each kind of answer is judged."""

from __future__ import annotations

import math
import re
import unicodedata
from enum import StrEnum

from rapidfuzz import fuzz

STREAK_STEP = 100
STREAK_CAP = 500


class Scoring(StrEnum):
    """How a chat's runs score a right answer (/settings scoring)."""

    SPEED = "speed"  # speed points: 1000 at once down to 500 at the deadline
    ACCURACY = "accuracy"  # no speed points: every right answer earns ACCURACY_POINTS


# what a right answer earns with accuracy scoring: the speed points of an answer given at once,
# so a game scored either way tops out at the same figure
ACCURACY_POINTS = 1000


def speed_points(elapsed: float, limit: float) -> int:
    """round(1000 * (1 - (t/T)/2)): 1000 at once, 500 at the deadline, never outside that."""
    t = min(max(elapsed, 0.0), limit)
    return round(1000 * (1 - (t / limit) / 2))


def streak_bonus(streak: int) -> int:
    """100 per consecutive right answer after the first, at most 500."""
    return min(STREAK_STEP * max(streak - 1, 0), STREAK_CAP)


def points_for(correct: bool, elapsed: float, limit: float, streak: int) -> int:
    """Points for one answer; `streak` counts this answer when it is right."""
    if not correct:
        return 0
    return speed_points(elapsed, limit) + streak_bonus(streak)


def partial_points(credit: float, elapsed: float, limit: float, streak: int) -> int:
    """A select-all-that-apply answer with partial credit: that share of the speed points; the
    streak bonus only on full credit (`streak` counts this answer when it is fully right)."""
    if credit <= 0:
        return 0
    if credit >= 1:
        return points_for(True, elapsed, limit, streak)
    return round(credit * speed_points(elapsed, limit))


def scored_elapsed(elapsed: float, scoring: Scoring) -> float:
    """The time an answer is scored as having taken: its own, or none at all with accuracy
    scoring, where every right answer earns the points of one given at once (ACCURACY_POINTS)
    and a partly right one that share of them."""
    return elapsed if scoring is Scoring.SPEED else 0.0


def ruled_points(points: int, correct: bool, streak: int, hinted: bool, streaks: bool) -> int:
    """An answer's judged `points` under the run's rules: after the question's hint it earns
    half its speed points (the streak bonus of a fully right answer stays whole); without
    streak bonuses (/settings streaks off) it earns no bonus at all. A partly right answer's
    points are all speed."""
    bonus = streak_bonus(streak) if correct and points else 0
    speed = round((points - bonus) / 2) if hinted else points - bonus
    return speed + (bonus if streaks else 0)


def multi_credit(right: frozenset[int], picked: frozenset[int]) -> float:
    """(right picked - wrong picked) / right count, never below 0: a guess of every option
    scores nothing."""
    if not right:
        return 0.0
    return max(0.0, (len(picked & right) - len(picked - right)) / len(right))


# typed answers -------------------------------------------------------------------------

TYPO_MIN_LENGTH = 4  # shorter answers must match exactly: "cat" is not "car"
TYPO_SCORE = 85  # rapidfuzz fuzz.ratio (0 to 100) from which a typed answer counts as right
MAX_TYPED = 200  # characters of a typed answer kept


def normalise(text: str) -> str:
    """What a typed answer is compared as: NFKC, case folded, accents stripped, inner
    whitespace collapsed, punctuation at either end dropped ("  Ünited  States. " ->
    "united states")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if not unicodedata.combining(ch))
    words = unicodedata.normalize("NFC", bare).split()
    return " ".join(words).strip(_EDGE_PUNCTUATION)


_EDGE_PUNCTUATION = " .,;:!?¡¿'\"“”‘’«»()[]{}-–—…。、！？"


def typed_right(text: str, accepted: tuple[str, ...]) -> bool:
    """Equal to an accepted answer once both are normalised, or (both at least TYPO_MIN_LENGTH
    characters) close enough that a small typo is forgiven."""
    given = normalise(text)
    if not given:
        return False
    for answer in accepted:
        wanted = normalise(answer)
        if given == wanted:
            return True
        if min(len(given), len(wanted)) >= TYPO_MIN_LENGTH and fuzz.ratio(given, wanted) >= TYPO_SCORE:
            return True
    return False


# numeric answers -------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?")
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009_']")  # thousands separators: "1 000", "1'000"


def parse_number(text: str) -> float | None:
    """The number a player typed: "3.14", "3,14" (a decimal comma), "-2", "1e3", "1 000";
    None for anything else (then the answer is refused and the player may try again)."""
    compact = _SPACES.sub("", unicodedata.normalize("NFKC", text)).lower().replace("−", "-")
    if compact.count(",") == 1 and "." not in compact:
        compact = compact.replace(",", ".")  # a decimal comma
    elif "," in compact and "." in compact and compact.index(",") < compact.index("."):
        compact = compact.replace(",", "")  # "1,000.5": commas between thousands
    if not _NUMBER.fullmatch(compact):
        return None
    number = float(compact)
    return number if math.isfinite(number) else None
