"""More time for who needs it: a member's questions last ×1.5 or ×2 as long in the runs played
alone (an assignment's, or private play), and their speed points fall over that longer window,
so the same share of the window used earns the same points.

A group game has one time limit for the room: the factor is a run's (`RunRow.time_factor`),
read once when a private run starts. An admin gives it for one assignment (`/assign … extra`) or
as a standing rule of the group (`/settings extra`); an assignment's own rule wins over the
group's. In a private chat the player is its admin: their rule there is for their own play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# the factors an admin may give, by the word that names them; "off" is the usual time
FACTORS: dict[str, float] = {"1.5x": 1.5, "2x": 2.0}
OFF = "off"
NO_EXTRA = 1.0
EVERY_ASSIGNMENT = 0  # a rule's assignment id when it is the group's standing rule


@dataclass(frozen=True)
class ExtraTime:
    """A stored rule: `player_key` gets `factor` in `chat_key`'s private runs (one assignment's, or all)."""

    chat_key: str
    player_key: str
    factor: float
    assignment_id: int = EVERY_ASSIGNMENT
    name: str = ""  # the member's name as the admin's platform gave it (Discord: their mention)


def read_factor(word: str) -> float | None:
    """ "2x", "×2", "x1.5", "1.5" -> the factor; "off" -> 1.0; anything else None."""
    cleaned = word.casefold().strip().replace("×", "x")
    if cleaned == OFF:
        return NO_EXTRA
    number = cleaned.removeprefix("x").removesuffix("x")
    return next((f for w, f in FACTORS.items() if w.removesuffix("x") == number), None)


def factor_word(factor: float) -> str:
    """1.5 -> "×1.5", 2.0 -> "×2": how a factor is shown."""
    return f"×{factor:g}"


def stretched(seconds: int, factor: float) -> int:
    """A time limit given `factor` times as long, to the second above (never less than asked)."""
    return math.ceil(seconds * factor)


def factor_for(rules: list[ExtraTime], assignment_id: int = EVERY_ASSIGNMENT) -> float:
    """The factor a player's rules give a run: the assignment's own, else the standing one."""
    own = next((r.factor for r in rules if assignment_id and r.assignment_id == assignment_id), None)
    standing = next((r.factor for r in rules if r.assignment_id == EVERY_ASSIGNMENT), NO_EXTRA)
    return own if own is not None else standing
