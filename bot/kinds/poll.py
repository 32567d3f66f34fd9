"""Poll: options without a right one; the split is the point, and it scores nothing."""

from __future__ import annotations

from typing import Any

from bot.domain.kind_rules import Judged
from bot.domain.model import NO_ANSWER, Question, QuestionCard, QuestionKind
from bot.kinds.base import Kind, later


class Poll(Kind):
    code = QuestionKind.POLL
    summary = "no right answer"
    is_scored = False
    instruction = later("Poll: no right answer, pick one")
    reveal_title = later("Poll results")
    said_title = later("Poll results")

    def question_fields(self, answer: Any, tolerance: float | None) -> dict[str, Any]:
        return {"answer": NO_ANSWER}

    def file_answer(self, question: Question) -> dict[str, Any]:
        return {}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        return str(answer)

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        return Judged(False, 0, streak_before)

    def right_answer(self, question: Question, shown: QuestionCard, order: tuple[int, ...]) -> tuple[str, str]:
        return "", ""

    def key_text(self, question: Question, lang: str) -> str:
        return ""


KIND = Poll()
