"""A closed question's reveal, for every kind: the right answer, the split, who answered what."""

from __future__ import annotations

from collections.abc import Mapping

from bot.domain.answering import media_view
from bot.domain.kind_rules import KindRules
from bot.domain.model import Question, QuestionCard, Quiz, Reveal, Scorer
from bot.domain.records import AnswerRow


def build(
    quiz: Quiz,
    q: Question,
    kind: KindRules,
    shown: QuestionCard,
    order: tuple[int, ...],
    answers: Mapping[str, AnswerRow],
    names: Mapping[str, str],
    timed: bool = True,
) -> Reveal:
    """The reveal of question `q` (of that kind), as `shown` (options in `order`), from its
    answers by player key (`timed`: their times earned points)."""
    lang = shown.language
    position = {src: pos for pos, src in enumerate(order)}
    counts = [0] * len(order)
    for a in answers.values():
        for src in kind.chosen_options(a.option, a.response):
            if src in position:
                counts[position[src]] += 1
    ordered = sorted(answers.values(), key=lambda a: a.elapsed)
    scorers = tuple(
        Scorer(
            names.get(a.player_key, a.player_key),
            kind.answered_label(q, order, a.option, a.response),
            a.correct,
            a.points,
            a.elapsed,
            a.streak,
            kind.credit(q, a.option, a.response) if a.points and not a.correct else None,  # partly right
        )
        for a in ordered
    )
    right_letter, right_text = kind.right_answer(q, shown, order)
    responses = kind.common_responses(q, (a.response for a in answers.values()))
    return Reveal(
        shown,
        right_letter,
        right_text,
        q.explanation.get(lang) if q.explanation else "",
        tuple(counts),
        scorers,
        kind=q.kind,
        responses=responses,
        explanation_media=media_view(q.explanation_media, quiz, lang),
        timed=timed,
    )
