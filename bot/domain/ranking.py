"""How a run's podium ranks its players and what it says of each: a late joiner on the questions
asked since they joined, and with accuracy scoring (/settings scoring accuracy) by their share
right, not their points.

A player joins a run at the first question they answered (`Run.joined`). Their record counts the
scored questions asked from that one on, so the questions before it are neither wrong nor
unanswered for them: "3 of the 4 asked since joining". With speed scoring the podium ranks by
points as ever (a late joiner simply had fewer questions to earn them on); with accuracy scoring
it ranks by share right over the questions each was asked, ties by points, then as the store
ranked them (who answered first).

A share over few questions is weighed as the evidence it is: the lower bound of its 95% Wilson
interval. Ranked by the bare share, a player could sit out nine questions and win on one right
answer (1 of 1, 100%) over one who got nine of ten; weighed, 1 of 1 counts 0.21 and 9 of 10
0.60, while 5 of 5 (0.57) still stands beside 9 of 10: a late joiner is not a loser for it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

from bot.domain.model import Standing
from bot.domain.scoring import Scoring
from bot.domain.worth import Record

Z = 1.96  # the Wilson interval's 95%


def weighed_share(credit: float, asked: int) -> float:
    """The share right `credit / asked`, as the lower bound of its Wilson score interval."""
    if asked <= 0:
        return 0.0
    share = min(1.0, credit / asked)
    spread = Z * math.sqrt(share * (1 - share) / asked + Z * Z / (4 * asked * asked))
    return (share + Z * Z / (2 * asked) - spread) / (1 + Z * Z / asked)


def since_joining(record: Record, joined: int, scored: Sequence[int]) -> Record:
    """`record` (over every scored question asked: their 0-based indices `scored`, in order)
    counted from question `joined` on, for a player who joined after a scored question."""
    if not scored or joined <= scored[0]:
        return record
    asked = sum(1 for index in scored if index >= joined)
    return dataclasses.replace(record, asked=max(asked, record.answered), late=True)


def joined_records(
    records: Mapping[str, Record], joined: Mapping[str, int], scored: Sequence[int]
) -> dict[str, Record]:
    """Each player's record counted since they joined (a player never seen joining: all of it)."""
    return {key: since_joining(record, joined.get(key, 0), scored) for key, record in records.items()}


def podium_order(
    standings: Sequence[Standing], records: Mapping[str, Record], scoring: Scoring
) -> tuple[Standing, ...]:
    """The standings as the podium ranks them: as given (points) with speed scoring; by share
    right since joining, weighed, with accuracy scoring, the given order breaking ties."""
    if scoring is Scoring.SPEED:
        return tuple(standings)

    def share(s: Standing) -> float:
        record = records.get(s.player_key)
        if record is None:
            return weighed_share(s.correct, s.answered)
        return weighed_share(record.credit, record.asked)

    ordered = sorted(standings, key=share, reverse=True)  # stable: ties keep the points order
    return tuple(dataclasses.replace(s, rank=rank) for rank, s in enumerate(ordered, 1))
