"""Select all that apply: several right options; a press toggles a pick, private chats have
"Done"; scored all or nothing, or by partial credit (`scoring: partial`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.domain.answering import letters, picks_of, toggled
from bot.domain.kind_rules import Judged
from bot.domain.model import NO_ANSWER, Question, QuestionKind
from bot.domain.scoring import multi_credit, partial_points
from bot.kinds.base import FileProblem, Kind, check_index, later


class Multi(Kind):
    code = QuestionKind.MULTI
    summary = "select all that apply"
    collects_picks = True
    instruction = later("Select all that apply")
    reveal_title = later("Right answers: {letter}")
    said_title = later("Right answers: {letter}, {text}.")
    answer_shape = "a list of the right options' 0-based indices"
    own_keys = frozenset({"scoring"})

    def check_given_answer(self, answer: Any, option_count: int) -> None:
        if not isinstance(answer, list) or not answer:
            raise FileProblem(
                "a multi question's answer is {shape}, not {value}", shape=self.answer_shape, value=repr(answer)
            )
        for index in answer:
            check_index(index, option_count)
        if len(set(answer)) != len(answer):
            raise FileProblem("the answer {value} names an option twice", value=repr(answer))

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {"answer": NO_ANSWER, "answers": tuple(sorted(answer))}

    def file_answer(self, question: Question) -> dict[str, Any]:
        return {"answer": list(question.answers), **({"scoring": "partial"} if question.partial else {})}

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        credit = self.credit(question, option, response)
        full = credit >= 1
        streak = streak_before + 1 if full else 0
        return Judged(full, partial_points(credit, elapsed, limit, streak), streak)

    def credit(self, question: Question, option: int, response: str) -> float:
        credit = multi_credit(question.right_options(), picks_of(response))
        return credit if question.partial else float(credit >= 1)

    def toggled(self, response: str, option: int) -> str:
        return toggled(response, option)

    def chosen_options(self, option: int, response: str) -> Collection[int]:
        return picks_of(response)

    def answered_label(self, question: Question, order: tuple[int, ...], option: int, response: str) -> str:
        return letters(picks_of(response), order)


KIND = Multi()
