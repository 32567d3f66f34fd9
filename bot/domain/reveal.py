"""A closed question's reveal, for every kind: the right answer, the split, who answered what."""

from __future__ import annotations

from collections.abc import Mapping

from bot.domain.answering import answered_label, common_responses, letters, media_view, numeric_text, picks_of
from bot.domain.model import Question, QuestionCard, QuestionKind, Quiz, Reveal, Scorer
from bot.domain.records import AnswerRow


def build(
    quiz: Quiz,
    q: Question,
    shown: QuestionCard,
    order: tuple[int, ...],
    answers: Mapping[str, AnswerRow],
    names: Mapping[str, str],
) -> Reveal:
    """The reveal of question `q`, as `shown` (options in `order`), from its answers by player key."""
    lang, kind = shown.language, q.kind
    position = {src: pos for pos, src in enumerate(order)}
    counts = [0] * len(order)
    for a in answers.values():
        chosen = picks_of(a.response) if kind is QuestionKind.MULTI else {a.option}
        for src in chosen:
            if src in position:
                counts[position[src]] += 1
    ordered = sorted(answers.values(), key=lambda a: a.elapsed)
    scorers = tuple(
        Scorer(
            names.get(a.player_key, a.player_key),
            answered_label(q, order, a.option, a.response),
            a.correct,
            a.points,
            a.elapsed,
            a.streak,
        )
        for a in ordered
    )
    right_letter, right_text = right_answer(q, shown, order)
    responses = () if kind.has_options else common_responses(q, (a.response for a in answers.values()))
    return Reveal(
        shown,
        right_letter,
        right_text,
        q.explanation.get(lang) if q.explanation else "",
        tuple(counts),
        scorers,
        kind=kind,
        responses=responses,
        explanation_media=media_view(q.explanation_media, quiz, lang),
    )


def right_answer(q: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
    """(right_letter, right_text) of a reveal: "A, C" and their texts, "" and the first accepted
    answer or the numeric range; nothing for a poll."""
    kind, right = q.kind, q.right_options()
    if kind is QuestionKind.TYPED:
        return "", q.accepted[0] if q.accepted else ""
    if kind is QuestionKind.NUMERIC:
        return "", numeric_text(q.numeric) if q.numeric else ""
    if kind is QuestionKind.POLL:
        return "", ""
    texts = ", ".join(shown.options[pos].text for pos, src in enumerate(order) if src in right)
    return letters(right, order), texts
