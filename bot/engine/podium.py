"""A run's final standings, as its podium in the chat and on the big screen rank them: each
player's record over the scored questions asked since they joined, ranked as the run's scoring
says (bot/domain/ranking.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.domain import hosting, ranking
from bot.domain.model import RunEnd, Standing
from bot.domain.records import questions_asked
from bot.domain.session import Run
from bot.domain.worth import Record
from bot.kinds import standing_records
from bot.ports.store import Boards, RunRecords


class PodiumStore(Boards, RunRecords, Protocol):
    """The run's standings and its partly right answers (the only ones whose worth needs their kind)."""


@dataclass(frozen=True)
class Final:
    standings: tuple[Standing, ...]  # as the podium ranks them
    points_order: tuple[Standing, ...]  # as the store ranks them, by points: what teams sum
    records: dict[str, Record]
    scored: int  # the scored questions asked


async def final(store: PodiumStore, run: Run, reason: RunEnd) -> Final:
    standings = await store.run_standings(run.id)
    questions = {q.id: q for q in run.quiz.questions}
    # a question still waiting to be posted was never shown: not asked, as its report says
    shown = questions_asked(reason, run.row.phase, run.row.index, len(run.row.question_ids))
    counted = hosting.scored_questions(run.row, shown)  # a skipped question counts for nobody
    asked = [questions.get(run.row.question_ids[i]) for i in counted]
    scored = [i for i, q in zip(counted, asked) if q is None or run.kind_of(q.kind).is_scored]
    records = standing_records(standings, await store.run_partly_right(run.id), asked)
    records = ranking.joined_records(records, run.joined, scored)
    ranked = ranking.podium_order(standings, records, run.row.scoring)
    return Final(ranked, tuple(standings), records, len(scored))
