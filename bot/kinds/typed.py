"""Typed: a typed answer matched against the accepted ones (case, accents and small typos
forgiven); the first accepted one is shown at the reveal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.domain.answering import shortened
from bot.domain.kind_rules import Judged
from bot.domain.model import Question, QuestionKind
from bot.domain.scoring import normalise, typed_right
from bot.kinds.base import AnswerWay, FileProblem, TextKind, judged, later


class Typed(TextKind):
    code = QuestionKind.TYPED
    summary = "a typed answer (accept)"
    own_keys = frozenset({"accept"})
    instructions: ClassVar[Mapping[AnswerWay, str]] = {
        AnswerWay.REPLY: later("Reply with your answer"),
        AnswerWay.DEEP_LINK: later("Press Answer and send your answer to the bot"),
        AnswerWay.MESSAGE: later("Send your answer as a message"),
        AnswerWay.MODAL: later("Press Answer to type yours"),
        AnswerWay.PROMPT: later("Type your answer"),
    }

    def check_keys(self, given: Mapping[str, Any]) -> None:
        if not given.get("accept"):
            raise FileProblem("a typed question needs 'accept': the answers it takes")

    def identity(
        self, options: tuple[str, ...], accept: tuple[str, ...], answer: Any, tolerance: float | None
    ) -> tuple[str, ...]:
        return (self.code.value, *accept)

    def file_answer(self, question: Question) -> dict[str, Any]:
        return {"accept": list(question.accepted)}

    def estimated_right_text(self, answer: Any, accept: list[str], options: list[str]) -> str:
        return accept[0]

    def judge(
        self, question: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int
    ) -> Judged:
        return judged(typed_right(response, question.accepted), elapsed, limit, streak_before)

    def is_right_response(self, question: Question, text: str) -> bool:
        return typed_right(text, question.accepted)

    def response_key(self, response: str) -> str:
        return shortened(normalise(response))

    def key_text(self, question: Question, lang: str) -> str:
        return " / ".join(question.accepted)

    def right_text(self, question: Question) -> str:
        return question.accepted[0] if question.accepted else ""


KIND = Typed()
