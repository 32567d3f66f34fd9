"""Numeric: a number within a range, given as `value ± tolerance` or {min: …, max: …}."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.domain.answering import number_text, numeric_text
from bot.domain.kind_rules import Judged
from bot.domain.model import NumericAnswer, Question, QuestionKind
from bot.domain.scoring import parse_number
from bot.kinds.base import AnswerWay, FileProblem, TextKind, is_number, judged, later


class Numeric(TextKind):
    code = QuestionKind.NUMERIC
    summary = "a number (answer, tolerance)"
    answer_shape = "a number (with an optional tolerance) or a range {min: …, max: …}"
    own_keys = frozenset({"tolerance"})
    instructions: ClassVar[Mapping[AnswerWay, str]] = {
        AnswerWay.REPLY: later("Answer with a number"),
        AnswerWay.DEEP_LINK: later("Press Answer and send a number to the bot"),
        AnswerWay.MESSAGE: later("Send a number as a message"),
        AnswerWay.MODAL: later("Press Answer to type a number"),
        AnswerWay.PROMPT: later("Type a number"),
    }

    def check_given_answer(self, answer: Any, option_count: int) -> None:
        if not (is_number(answer) or numeric_range(answer)):
            raise FileProblem(
                "a numeric question's answer is {shape}, not {value}", shape=self.answer_shape, value=repr(answer)
            )

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {**super().question_fields(answer, tolerance), "numeric": numeric_answer(answer, tolerance)}

    def identity(
        self, options: tuple[str, ...], accept: tuple[str, ...], answer: Any, tolerance: float | None
    ) -> tuple[str, ...]:
        return (self.code.value, repr(answer), repr(tolerance))

    def file_answer(self, question: Question) -> dict[str, Any]:
        n = question.numeric
        if n is None:
            return {}
        if n.value is None:
            return {"answer": {"min": n.low, "max": n.high}}
        tolerance = round(n.high - n.value, 12)
        return {"answer": n.value, **({"tolerance": tolerance} if tolerance else {})}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        return str(answer)

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        return judged(self.is_right_response(question, response), elapsed, limit, streak_before)

    def accepts_text(self, response: str) -> bool:
        return parse_number(response) is not None

    def is_right_response(self, question: Question, text: str) -> bool:
        number = parse_number(text)
        return number is not None and question.numeric is not None and question.numeric.accepts(number)

    def response_key(self, response: str) -> str:
        number = parse_number(response)
        return number_text(number) if number is not None else ""

    def right_text(self, question: Question) -> str:
        return numeric_text(question.numeric) if question.numeric else ""


def numeric_range(answer: Any) -> tuple[float, float] | None:
    """A numerical answer given as a range {min: …, max: …}; None when it is not one."""
    if not isinstance(answer, dict) or set(answer) != {"min", "max"}:
        return None
    low, high = answer["min"], answer["max"]
    if not (is_number(low) and is_number(high)):
        raise FileProblem("a range's min and max are numbers, not {value}", value=repr(answer))
    if low > high:
        raise FileProblem("the range's min {low} is above its max {high}", low=low, high=high)
    return float(low), float(high)


def numeric_answer(answer: Any, tolerance: float | None) -> NumericAnswer:
    given = numeric_range(answer)
    if given:
        return NumericAnswer(*given)
    spread = tolerance or 0.0
    return NumericAnswer(answer - spread, answer + spread, float(answer))


KIND = Numeric()
