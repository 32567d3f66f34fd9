"""Rounds and hints in quiz files: read, checked with each problem at its place, exported back
the same, counted in the quiz's languages; where a run's rounds begin and end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from bot.content.catalog import load_quiz_file, strict_problems
from bot.content.export import export_quiz, quiz_yaml
from bot.content.quiz_check import check_quiz_data
from bot.content.validate import validate_paths
from bot.domain import rounds
from bot.domain.model import Quiz

# Line numbers in the cases below refer to this layout.
NIGHT = """\
id: night
title: Pub night
description: Two rounds.
rounds:
  - name: Warm-up
    questions:
      - id: sun
        prompt: Which star is nearest?
        options: [The Sun, Sirius]
        answer: 0
        explanation: Light from it takes eight minutes.
        hint: You see it every day.
  - name:
      en: Double
      hi: दोगुना
    multiplier: 2
    questions:
      - id: legs
        prompt: How many legs has a spider?
        options: [Six, Eight]
        answer: 1
        explanation: Insects have six.
"""


def night(old: str = "", new: str = "") -> str:
    assert old in NIGHT
    return NIGHT.replace(old, new, 1)


def parsed(text: str = NIGHT) -> Quiz:
    model, issues = check_quiz_data(yaml.safe_load(text))
    assert model is not None, issues
    return model.to_quiz()


def test_rounds_and_hints_are_read_in_order():
    quiz = parsed()
    assert [q.id for q in quiz.questions] == ["sun", "legs"]
    assert [(r.name.get("hi"), r.question_ids, r.multiplier) for r in quiz.rounds] == [
        ("Warm-up", ("sun",), 1.0),
        ("दोगुना", ("legs",), 2.0),
    ]
    assert quiz.questions[0].hint is not None and quiz.questions[0].hint.get("en") == "You see it every day."
    assert quiz.questions[1].hint is None


MALFORMED = [
    (
        "a typo'd round key",
        night("    multiplier: 2", "    multipler: 2"),
        "round 2 multipler",
        "did you mean 'multiplier'",
        16,
    ),
    ("a multiplier too big", night("multiplier: 2", "multiplier: 20"), "round 2 multiplier", "0.5 to 10", 16),
    ("a multiplier too small", night("multiplier: 2", "multiplier: 0.1"), "round 2 multiplier", "0.5 to 10", 16),
    ("a multiplier in quotes", night("multiplier: 2", 'multiplier: "2"'), "round 2 multiplier", "a number", 16),
    ("a multiplier yes", night("multiplier: 2", "multiplier: yes"), "round 2 multiplier", "a boolean", 16),
    (
        "a hint in an unknown language",
        night("hint: You see it every day.", "hint: {en: Daily, fr: Chaque jour}"),
        "round 1 question 'sun' hint.fr",
        "unknown language 'fr'",
        12,
    ),
    (
        "an empty hint",
        night("hint: You see it every day.", 'hint: ""'),
        "round 1 question 'sun' hint",
        "empty text",
        12,
    ),
    (
        "a hint too long",
        night("hint: You see it every day.", "hint: " + "x" * 301),
        "round 1 question 'sun' hint",
        "at most 300",
        12,
    ),
    (
        "a round without a name",
        night("  - name: Warm-up\n    questions:", "  - questions:"),
        "round 1 name",
        "missing",
        5,
    ),
    (
        "a round without questions",
        night("  - name: Warm-up\n", "  - name: Empty\n    questions: []\n  - name: Warm-up\n"),
        "round 1 questions",
        "0 given: at least 1 needed",
        6,
    ),
    (
        "an id taken in another round",
        night("id: legs", "id: sun"),
        "round 2 questions[0] id",
        "duplicate question id 'sun': rounds[0].questions[0] already uses it",
        18,
    ),
    (
        "questions and rounds both",
        night("rounds:", "questions:\n  - id: x\n    prompt: X?\n    options: [a, b]\n    answer: 0\nrounds:"),
        "rounds",
        "either 'questions' or 'rounds'",
        9,
    ),
    ("no rounds in rounds", NIGHT[: NIGHT.index("rounds:")] + "rounds: []\n", "rounds", "at least 1 needed", 4),
    (
        "neither questions nor rounds",
        NIGHT[: NIGHT.index("rounds:")],
        "questions",
        "'questions' is missing (or 'rounds' of them)",
        1,
    ),
]


@pytest.mark.parametrize("text, place, message, line", [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_a_problem_in_rounds_names_the_round_the_question_and_the_line(tmp_path, text, place, message, line):
    (tmp_path / "night.yaml").write_text(text, encoding="utf-8")
    problems = validate_paths([tmp_path])
    assert len(problems) == 1, "\n".join(map(str, problems))
    problem = problems[0]
    assert (problem.place, problem.line) == (place, line), str(problem)
    assert message in problem.message


def test_yaml_export_of_rounds_and_hints_is_the_file_read():
    data = {
        "id": "night",
        "difficulty": "medium",
        "language": "en",
        "title": "Pub night",
        "description": "Two rounds.",
        "rounds": [
            {
                "name": "Warm-up",
                "questions": [
                    {
                        "id": "sun",
                        "prompt": "Which star is nearest?",
                        "options": ["The Sun", "Sirius"],
                        "answer": 0,
                        "explanation": "Light from it takes eight minutes.",
                        "hint": "You see it every day.",
                    }
                ],
            },
            {
                "name": "Halves",
                "multiplier": 1.5,
                "questions": [
                    {
                        "id": "legs",
                        "prompt": "Legs of a spider?",
                        "options": ["6", "8"],
                        "answer": 1,
                        "explanation": None,
                    }
                ],
            },
        ],
    }
    model, issues = check_quiz_data(data)
    assert model is not None, issues
    assert yaml.safe_load(quiz_yaml(model.to_quiz(), "en")) == data


def test_json_export_in_each_language_reads_back_as_the_same_rounds():
    quiz = parsed()
    for lang in ("en", "hi"):
        again, issues = check_quiz_data(json.loads(json.dumps(export_quiz(quiz, lang), ensure_ascii=False)))
        assert again is not None, issues
        back = again.to_quiz()
        assert [q.id for q in back.questions] == ["sun", "legs"]
        assert [(r.name.get("en"), r.question_ids, r.multiplier) for r in back.rounds] == [
            ("Warm-up", ("sun",), 1.0),
            ("दोगुना" if lang == "hi" else "Double", ("legs",), 2.0),
        ]
        assert back.questions[0].hint is not None and back.questions[0].hint.get("en") == "You see it every day."
    assert export_quiz(quiz, "en")["rounds"][1]["multiplier"] == 2  # written as an author writes it


def test_hints_and_round_names_count_in_the_quizs_languages(tmp_path: Path):
    full = {"en": "x", "hi": "x", "sn": "x", "ur": "x"}
    data = yaml.safe_load(NIGHT)
    for text in ("title", "description"):
        data[text] = full
    for r in data["rounds"]:
        r["name"] = full
        for q in r["questions"]:
            q.update(prompt=full, explanation=full, options=[{**full, "en": o} for o in q["options"]])
            if "hint" in q:
                q["hint"] = full
    model, _ = check_quiz_data(data)
    assert model is not None
    assert model.to_quiz().languages() == ("en", "hi", "sn", "ur")
    data["rounds"][0]["questions"][0]["hint"] = {"en": "Daily", "hi": "रोज़"}
    data["rounds"][1]["name"] = {"en": "Double", "hi": "दोगुना", "sn": "Kaviri"}
    model, _ = check_quiz_data(data)
    assert model is not None
    assert model.to_quiz().languages() == ("en", "hi")
    path = tmp_path / "night.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    loaded, problems = load_quiz_file(path)
    assert loaded is not None, problems
    places = {p.place for p in strict_problems(loaded)}
    assert {"night: question 'sun' hint", "night: round 2 name"} <= places


def test_a_rounds_multiplier_and_where_rounds_begin_and_end_in_a_run():
    data = yaml.safe_load(NIGHT)
    data["rounds"][0]["questions"].append(
        {"id": "moon", "prompt": "Moons of Mars?", "options": ["1", "2"], "answer": 1}
    )
    data["rounds"].append(
        {
            "name": "Last",
            "multiplier": 0.5,
            "questions": [{"id": "end", "prompt": "E?", "options": ["a", "b"], "answer": 0}],
        }
    )
    quiz = parsed(yaml.safe_dump(data))
    assert [rounds.multiplier(quiz, q) for q in ("sun", "moon", "legs", "end", "gone")] == [1, 1, 2, 0.5, 1]
    assert rounds.scaled(1101, quiz, "end") == 550 and rounds.scaled(1101, quiz, "legs") == 2202
    every = ("sun", "moon", "legs", "end")
    starts = [rounds.starting(quiz, every, i) for i in range(4)]
    assert [(s.round.name.get("en"), s.number, s.count) if s else None for s in starts] == [
        ("Warm-up", 1, 3),
        None,
        ("Double", 2, 3),
        ("Last", 3, 3),
    ]
    assert [rounds.ends_between(quiz, every, i) for i in range(4)] == [False, True, True, False]
    some = ("moon", "end")  # a run of some questions counts the rounds it plays
    assert [(s.number, s.count) for i in range(2) if (s := rounds.starting(quiz, some, i))] == [(1, 2), (2, 2)]
    assert [rounds.ends_between(quiz, some, i) for i in range(2)] == [True, False]
    plain = parsed(
        NIGHT.replace("rounds:", "questions:", 1).split("  - name")[0]
        + "  - id: a\n    prompt: A?\n    options: [a, b]\n    answer: 0\n"
    )
    assert rounds.starting(plain, ("a",), 0) is None and not rounds.ends_between(plain, ("a",), 0)
