"""What answers were worth, each judged by its question's kind: the verdicts and the players'
records every report, podium and download says (bot/domain/worth.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.domain.model import Question, Standing
from bot.domain.records import AnswerRow
from bot.domain.worth import Record, Worth, record_of, worth_of
from bot.kinds.registry import kind_of


def worth_of_answer(question: Question | None, answer: AnswerRow | None) -> Worth:
    """What an answer was worth, judged by its question's kind (None: the question is gone, so a
    partly right answer's share is unknown; or the answer is None: not answered)."""
    return worth_of(answer, None) if question is None else kind_of(question).worth(question, answer)


def scored_count(asked: Iterable[Question | None]) -> int:
    """How many of the questions asked score (a poll does not; a question gone is counted)."""
    return sum(1 for q in asked if q is None or kind_of(q).is_scored)


def standing_records(
    standings: Iterable[Standing], partly: Iterable[AnswerRow], asked: Sequence[Question | None]
) -> dict[str, Record]:
    """`records` from what a finish reads: the standings (right and scored answers, summed by the
    store) and the run's partly right answers, the only ones whose worth needs their kind. A big
    run's podium then judges no answer but those on the event loop."""
    by_id = {q.id: q for q in asked if q is not None}
    shares: dict[str, list[float]] = {}
    for answer in partly:
        shares.setdefault(answer.player_key, []).append(worth_of_answer(by_id.get(answer.question_id), answer).credit)
    scored = scored_count(asked)
    return {
        s.player_key: Record(
            max(scored, s.answered),
            s.correct,
            len(shares.get(s.player_key, ())),
            s.answered,
            s.correct + sum(shares.get(s.player_key, ())),
        )
        for s in standings
    }


def records(answers: Iterable[AnswerRow], asked: Sequence[Question | None]) -> dict[str, Record]:
    """Each player's record over the questions a run asked (in order; None: a question gone),
    from the run's answers."""
    by_id = {q.id: q for q in asked if q is not None}
    worths: dict[str, list[Worth]] = {}
    for answer in answers:
        worths.setdefault(answer.player_key, []).append(worth_of_answer(by_id.get(answer.question_id), answer))
    scored = scored_count(asked)
    return {player: record_of(said, scored) for player, said in worths.items()}
