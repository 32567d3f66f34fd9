"""True or false: two options the bot supplies in the chat's language, True first."""

from __future__ import annotations

from typing import Any

from bot.domain.model import Question, QuestionKind
from bot.kinds.base import FileProblem, Kind, later


class TrueFalse(Kind):
    code = QuestionKind.TRUE_FALSE
    summary = "true or false"
    fixed_options = (later("True"), later("False"))
    instruction = later("True or false?")
    answer_shape = "true or false"

    def check_options(self, option_count: int) -> None:
        if option_count:
            raise FileProblem(
                "a truefalse question has no options: the bot shows True and False in the chat's language"
            )

    def check_given_answer(self, answer: Any, option_count: int) -> None:
        if not isinstance(answer, bool):
            raise FileProblem("a truefalse question's answer is true or false, not {value}", value=repr(answer))

    def identity(
        self, options: tuple[str, ...], accept: tuple[str, ...], answer: Any, tolerance: float | None
    ) -> tuple[str, ...]:
        return ("True", "False")  # as before true or false was a kind of its own

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {"answer": 0 if answer else 1}

    def file_answer(self, question: Question) -> dict[str, Any]:
        return {"answer": question.answer == 0}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        return str(answer)


KIND = TrueFalse()
