"""The quiz format's kinds of question: what each says, what it refuses, and that an export reads back."""

from __future__ import annotations

from typing import Any

import pytest

from bot.content.export import export_quiz
from bot.content.quiz_check import check_quiz_data
from bot.domain.model import MediaKind, NumericAnswer, Question, QuestionKind
from bot.kinds import kind_of

QUESTIONS: list[dict[str, Any]] = [
    {"id": "one", "prompt": "Capital of France?", "options": ["Paris", "Lyon"], "answer": 0},
    {"id": "tf", "kind": "truefalse", "prompt": "Water boils at 100 °C at sea level.", "answer": True},
    {"id": "many", "kind": "multi", "prompt": "Primes?", "options": ["2", "4", "5"], "answer": [2, 0]},
    {
        "id": "part",
        "kind": "multi",
        "prompt": "Even?",
        "options": ["2", "4", "5"],
        "answer": [0, 1],
        "scoring": "partial",
    },
    {"id": "typed", "kind": "typed", "prompt": "Largest planet?", "accept": ["Jupiter", "Jupiter planet"]},
    {"id": "pi", "kind": "numeric", "prompt": "Pi to two places?", "answer": 3.14, "tolerance": 0.005},
    {"id": "range", "kind": "numeric", "prompt": "A year of the 1990s?", "answer": {"min": 1990, "max": 1999}},
    {"id": "poll", "kind": "poll", "prompt": "Tabs or spaces?", "options": ["Tabs", "Spaces"]},
    {
        "id": "pic",
        "prompt": "Which animal?",
        "options": ["Lion", "Tiger"],
        "answer": 0,
        "media": {"src": "pictures/lion.jpg", "alt": "a big cat with a mane"},
        "explanation_media": "https://example.org/mane.png",
    },
]


def quiz_of(*questions: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"id": "kinds", "title": "Kinds", "description": "Every kind", **top, "questions": list(questions)}


def parsed(*questions: dict[str, Any], **top: Any) -> tuple[Question, ...]:
    model, issues = check_quiz_data(quiz_of(*questions, **top))
    assert model is not None, issues
    return model.to_quiz().questions


def test_each_kind_says_what_its_answer_is() -> None:
    one, tf, many, part, typed, pi, year, poll, pic = parsed(*QUESTIONS)
    assert (one.kind, one.right_options()) == (QuestionKind.CHOICE, {0})
    assert tf.kind is QuestionKind.TRUE_FALSE and tf.right_options() == {0} and not tf.shuffle
    assert [o.get("en") for o in tf.options] == ["True", "False"]
    assert tf.options[0].get("ur") == "درست"  # the bot's own words, in the chat's language
    assert many.right_options() == {0, 2} and many.answers == (0, 2) and not many.partial
    assert part.partial
    assert typed.accepted == ("Jupiter", "Jupiter planet") and typed.right_options() == frozenset()
    assert pi.numeric is not None and pi.numeric.accepts(3.144) and not pi.numeric.accepts(3.146)
    assert year.numeric == NumericAnswer(1990.0, 1999.0)
    assert poll.kind is QuestionKind.POLL and not kind_of(poll).is_scored and poll.right_options() == frozenset()
    assert pic.media is not None and pic.media.kind is MediaKind.IMAGE and not pic.media.is_url
    assert pic.explanation_media is not None and pic.explanation_media.is_url


def test_an_export_reads_back_as_the_same_questions() -> None:
    model, _ = check_quiz_data(quiz_of(*QUESTIONS, language="es"))
    assert model is not None
    quiz = model.to_quiz()
    exported = export_quiz(quiz, "en")
    assert exported["language"] == "es"
    again, issues = check_quiz_data({**exported, "description": "Every kind"})
    assert again is not None, issues
    assert again.to_quiz().questions == quiz.questions


@pytest.mark.parametrize(
    ("question", "place", "message"),
    [
        ({"prompt": "p", "options": ["a", "b"]}, "answer", "'answer' is missing: a choice question needs"),
        ({"prompt": "p", "options": ["a", "b"], "answer": 2}, "answer", "answer 2 is out of range"),
        ({"kind": "truefalse", "prompt": "p", "answer": "yes"}, "answer", "answer is true or false"),
        ({"kind": "truefalse", "prompt": "p", "options": ["a", "b"], "answer": True}, "options", "has no options"),
        ({"kind": "multi", "prompt": "p", "options": ["a", "b"], "answer": [1, 1]}, "answer", "names an option twice"),
        ({"kind": "typed", "prompt": "p"}, None, "needs 'accept'"),
        ({"kind": "typed", "prompt": "p", "accept": ["x"], "answer": 0}, "answer", "has no 'answer' key"),
        ({"kind": "numeric", "prompt": "p", "answer": {"min": 3, "max": 1}}, "answer", "min 3 is above its max 1"),
        ({"kind": "poll", "prompt": "p", "options": ["a", "b"], "answer": 0}, "answer", "has no 'answer' key"),
        ({"prompt": "p", "options": ["a", "b"], "answer": 0, "tolerance": 1}, None, "'tolerance' is for numeric"),
        ({"prompt": "p", "options": ["a", "b"], "answer": 0, "media": "../secret.png"}, "media", "relative path"),
        ({"prompt": "p", "options": ["a", "b"], "answer": 0, "media": "file:///etc/passwd"}, "media", "http(s) URL"),
    ],
)
def test_a_question_that_does_not_fit_its_kind_is_refused_with_the_place(
    question: dict[str, Any], place: str | None, message: str
) -> None:
    model, issues = check_quiz_data(quiz_of({"id": "q", **question}))
    assert model is None
    assert len(issues) == 1
    assert issues[0].loc == ("questions", 0, *([place] if place else []))
    assert message in issues[0].message


def test_the_content_language_is_any_language_tag() -> None:
    model, _ = check_quiz_data(quiz_of(QUESTIONS[0], language="vi"))
    assert model is not None and model.to_quiz().language == "vi"
    assert model.to_quiz().languages() == ("vi",)
    _, issues = check_quiz_data(quiz_of(QUESTIONS[0], language="Vietnamese!"))
    assert issues and "is not a language tag" in issues[0].message
