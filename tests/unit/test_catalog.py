"""Quiz files: loading, every kind of malformed file, translations, topics and the schema."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from bot.content.catalog import Catalog, QuizProblem, default_quiz_folders, load_quiz_file, strict_problems
from bot.content.quizfile import QuizFile, schema_json
from bot.content.validate import validate_paths
from bot.domain.model import LocalText, Question, Quiz
from tests.support.paths import FIXTURES_DIR, ROOT_DIR

FIXTURES = FIXTURES_DIR / "quizzes"
SHIPPED = default_quiz_folders()[0]

# Line numbers in the cases below refer to this layout.
GOOD = """\
id: sample
title: Sample quiz
description: A quiz for tests.
questions:
  - id: first
    prompt: Which is right?
    options: [right, wrong]
    answer: 0
    explanation: Because.
"""


def edit(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


def options(n: int) -> str:
    return "options: [" + ", ".join(f"o{i}" for i in range(n)) + "]"


SECOND_QUESTION = """\
  - id: first
    prompt: Again?
    options: [yes please, no thanks]
    answer: 1
    explanation: Twice.
"""

# (case, files written to a folder, file with the problem, place, words of the message, line)
MALFORMED = [
    (
        "yaml syntax",
        {"q.yaml": edit("[right, wrong]", "[right, wrong")},
        "q.yaml",
        "YAML syntax",
        "did not find expected ',' or ']'",
        8,
    ),
    (
        "missing field",
        {"q.yaml": edit("    answer: 0\n", "")},
        "q.yaml",
        "question 'first' answer",
        "'answer' is missing",
        5,
    ),
    (
        "time limit out of range",
        {"q.yaml": edit("answer: 0", "answer: 0\n    seconds: 3")},
        "q.yaml",
        "question 'first' seconds",
        "a time limit is 5 to 300 seconds",
        9,
    ),
    (
        "missing question id",
        {"q.yaml": edit("  - id: first\n    prompt", "  - prompt")},
        "q.yaml",
        "questions[0] id",
        "'id' is missing",
        5,
    ),
    (
        "missing english",
        {"q.yaml": edit("title: Sample quiz", "title: {hi: नमूना}")},
        "q.yaml",
        "title.en",
        "English text ('en') is missing",
        2,
    ),
    (
        "duplicate question ids",
        {"q.yaml": GOOD + SECOND_QUESTION},
        "q.yaml",
        "questions[1] id",
        "duplicate question id 'first': questions[0] already uses it",
        10,
    ),
    (
        "answer out of range",
        {"q.yaml": edit("answer: 0", "answer: 2")},
        "q.yaml",
        "question 'first' answer",
        "answer 2 is out of range: 2 options, so 0 to 1",
        8,
    ),
    (
        "negative answer",
        {"q.yaml": edit("answer: 0", "answer: -1")},
        "q.yaml",
        "question 'first' answer",
        "-1 is out of range",
        8,
    ),
    (
        "quoted answer",
        {"q.yaml": edit("answer: 0", 'answer: "0"')},
        "q.yaml",
        "question 'first' answer",
        "remove the quotes",
        8,
    ),
    (
        "one option",
        {"q.yaml": edit("options: [right, wrong]", "options: [right]")},
        "q.yaml",
        "question 'first' options",
        "1 given: at least 2 needed",
        7,
    ),
    (
        "eleven options",
        {"q.yaml": edit("options: [right, wrong]", options(11))},
        "q.yaml",
        "question 'first' options",
        "11 given: at most 10 allowed",
        7,
    ),
    (
        "no questions",
        {"q.yaml": GOOD[: GOOD.index("questions:")] + "questions: []\n"},
        "q.yaml",
        "questions",
        "0 given: at least 1 needed",
        4,
    ),
    (
        "option too long",
        {"q.yaml": edit("wrong]", "{hi: " + "x" * 301 + ", en: wrong}]")},
        "q.yaml",
        "question 'first' options[1].hi",
        "too long: 301 characters, at most 300",
        7,
    ),
    (
        "prompt too long",
        {"q.yaml": edit("prompt: Which is right?", "prompt: " + "p" * 1501)},
        "q.yaml",
        "question 'first' prompt",
        "too long: 1501 characters, at most 1500",
        6,
    ),
    (
        "question message too long",
        {
            "q.yaml": edit("prompt: Which is right?", "prompt: " + "p" * 1400).replace(
                "[right, wrong]", "[" + ", ".join(f"{i}" + "o" * 290 for i in range(10)) + "]"
            )
        },
        "q.yaml",
        "question 'first'",
        "question message would be about 4550 characters (in en, hi, sn, ur), over Telegram's 4096",
        5,
    ),
    (
        "reveal message too long",
        {"q.yaml": edit("explanation: Because.", "explanation: " + "e" * 3900)},
        "q.yaml",
        "question 'first'",
        "answer message would be about 4105 characters (in en, hi, sn, ur)",
        5,
    ),
    (
        "yes read as boolean",
        {"q.yaml": edit("explanation: Because.", "explanation: yes")},
        "q.yaml",
        "question 'first' explanation",
        "YAML reads the unquoted `yes` as the boolean true: put it in quotes",
        9,
    ),
    (
        "off read as boolean in a list",
        {"q.yaml": edit("[right, wrong]", "[right, off]")},
        "q.yaml",
        "question 'first' options[1]",
        "unquoted `off` as the boolean false",
        7,
    ),
    (
        "number where text belongs",
        {"q.yaml": edit("prompt: Which is right?", "prompt: {en: 42}")},
        "q.yaml",
        "question 'first' prompt.en",
        "unquoted `42` as a number: put it in quotes",
        6,
    ),
    (
        "unknown key",
        {"q.yaml": GOOD + "    explaination: Typo.\n"},
        "q.yaml",
        "question 'first' explaination",
        "unknown key 'explaination': did you mean 'explanation'?",
        10,
    ),
    (
        "unknown top-level key",
        {"q.yaml": edit("description:", "colour: red\ndescription:")},
        "q.yaml",
        "colour",
        "unknown key 'colour'",
        3,
    ),
    (
        "unknown language",
        {"q.yaml": edit("title: Sample quiz", "title: {en: Sample, fr: Exemple}")},
        "q.yaml",
        "title.fr",
        "unknown language 'fr' (allowed: en, hi, sn, ur)",
        2,
    ),
    (
        "empty text",
        {"q.yaml": edit("prompt: Which is right?", 'prompt: "  "')},
        "q.yaml",
        "question 'first' prompt",
        "empty text",
        6,
    ),
    (
        "empty value",
        {"q.yaml": edit("description: A quiz for tests.", "description:")},
        "q.yaml",
        "description",
        "empty value",
        3,
    ),
    (
        "text of the wrong type",
        {"q.yaml": edit("title: Sample quiz", "title: [Sample]")},
        "q.yaml",
        "title",
        "expected a text (a string, or a mapping of language to string), found a list",
        2,
    ),
    (
        "questions not a list",
        {"q.yaml": GOOD[: GOOD.index("questions:")] + "questions: many\n"},
        "q.yaml",
        "questions",
        "expected a list, found a string",
        4,
    ),
    (
        "bad quiz id",
        {"q.yaml": edit("id: sample", "id: Sample_Quiz")},
        "q.yaml",
        "id",
        "'Sample_Quiz' is not a valid id",
        1,
    ),
    (
        "bad difficulty",
        {"q.yaml": edit("id: sample", "id: sample\ndifficulty: tough")},
        "q.yaml",
        "difficulty",
        "must be 'easy', 'medium' or 'hard', not 'tough'",
        2,
    ),
    (
        "repeated key",
        {"q.yaml": edit("answer: 0", "answer: 0\n    answer: 1")},
        "q.yaml",
        "question 'first' answer",
        "key 'answer' appears twice (also on line 8)",
        9,
    ),
    (
        "repeated option",
        {"q.yaml": edit("[right, wrong]", "[right, wrong, Right]")},
        "q.yaml",
        "question 'first'",
        "options[0] and options[2] have the same English text",
        5,
    ),
    ("empty file", {"q.yaml": ""}, "q.yaml", "file", "the file is empty", 1),
    ("only comments", {"q.yaml": "# to do\n"}, "q.yaml", "file", "the file is empty", 1),
    (
        "not a mapping",
        {"q.yaml": "- id: sample\n- title: x\n"},
        "q.yaml",
        "top level",
        "expected a mapping (id: ..., title: ..., questions: ...), found list",
        1,
    ),
    ("two documents", {"q.yaml": GOOD + "---\n" + GOOD}, "q.yaml", "YAML syntax", "but found another document", 10),
    (
        "duplicate quiz id across files",
        {"a.yaml": GOOD, "b.yml": GOOD},
        "b.yml",
        "id",
        "quiz id 'sample' is already used by {dir}/a.yaml: this file is skipped",
        1,
    ),
]


@pytest.mark.parametrize("files, name, place, message, line", [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_file_names_file_place_and_line(
    tmp_path: Path, files: dict[str, str], name: str, place: str, message: str, line: int
) -> None:
    for file_name, text in files.items():
        (tmp_path / file_name).write_text(text, encoding="utf-8")

    problems = validate_paths([tmp_path])

    assert len(problems) == 1, "\n".join(map(str, problems))
    problem = problems[0]
    assert (problem.path, problem.place, problem.line) == (str(tmp_path / name), place, line)
    assert message.format(dir=tmp_path) in problem.message
    assert str(problem).startswith(f"{tmp_path / name}:{line}: {place}: ")


def test_several_problems_in_one_file_are_all_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        GOOD.replace("id: sample", "id: sample\ncolour: red")
        .replace("answer: 0", "answer: 7")
        .replace("explanation: Because.", "explanation: no")
        + SECOND_QUESTION.replace("options: [yes please, no thanks]", "options: [alone]")
    )

    quiz, problems = load_quiz_file(path)

    assert quiz is None
    assert [(p.line, p.place) for p in problems] == [  # in file order
        (2, "colour"),
        (9, "question 'first' answer"),
        (10, "question 'first' explanation"),
        (11, "questions[1] id"),
        (13, "questions[1] options"),
    ]


def test_broken_file_beside_a_good_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "a-broken.yaml").write_text(edit("answer: 0", "answer: 9"))
    (tmp_path / "b-good.yaml").write_text(GOOD)
    (tmp_path / "notes.txt").write_text("not a quiz")

    with caplog.at_level(logging.WARNING, logger="quizhost.catalog"):
        catalog = Catalog.load([tmp_path])

    assert [q.id for q in catalog.all()] == ["sample"]
    assert [p.path for p in catalog.problems] == [str(tmp_path / "a-broken.yaml")]
    assert caplog.messages == [str(catalog.problems[0])]


def test_shipped_quizzes_load_without_problems() -> None:
    files = sorted([*SHIPPED.glob("*.yaml"), *SHIPPED.glob("*.yml")])
    if not files:
        pytest.skip("no quiz files in quizzes/ yet")
    for path in files:
        quiz, problems = load_quiz_file(path)
        assert problems == [], "\n".join(map(str, problems))
        assert quiz is not None and quiz.questions
    catalog = Catalog.load(default_quiz_folders())
    assert catalog.problems == [] and len(catalog) == len(files)


def test_fixture_quiz_becomes_frozen_model() -> None:
    quiz, problems = load_quiz_file(FIXTURES / "parallelism.yaml")

    assert problems == [] and quiz is not None
    assert (quiz.id, quiz.difficulty, quiz.source) == ("parallelism", "hard", str(FIXTURES / "parallelism.yaml"))
    assert quiz.aliases == ("model-parallelism", "पाइपलाइन") and quiz.tags == ("gpu", "training")
    assert quiz.title.get("hi") == "मॉडल और पाइपलाइन समानता"
    first, second = quiz.questions
    assert isinstance(first, Question) and isinstance(first.options, tuple)
    assert first.options[1] == LocalText(by_lang={"en": "Slow data loading from disk"})
    assert (second.id, second.answer, len(second.options)) == ("bubble", 1, 2)
    assert second.prompt.by_lang == {"en": "What is the 'bubble' in naive pipeline parallelism?"}


def test_strict_names_quiz_question_field_and_language() -> None:
    quiz, _ = load_quiz_file(FIXTURES / "parallelism.yaml")
    assert quiz is not None

    lines = [str(p) for p in strict_problems(quiz)]

    source = FIXTURES / "parallelism.yaml"
    assert f"{source}: parallelism: question 'memory-wall' explanation: missing 'sn' translation" in lines
    assert f"{source}: parallelism: question 'memory-wall' options[1]: missing 'hi' translation" in lines
    assert not any("title" in line for line in lines)  # given in all four languages
    assert not any("'memory-wall' prompt: missing 'hi'" in line for line in lines)
    assert len(validate_paths([FIXTURES], strict=True)) > len(lines)  # both fixture files
    assert validate_paths([FIXTURES]) == []


def make_quiz(
    quiz_id: str, title: str, aliases: tuple[str, ...] = (), tags: tuple[str, ...] = (), **titles: str
) -> Quiz:
    one = LocalText({"en": "x"})
    question = Question("q", one, (one, LocalText({"en": "y"})), 0, one)
    return Quiz(quiz_id, LocalText({"en": title, **titles}), one, (question,), aliases, tags)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_quizzes(
        [
            make_quiz(
                "pipeline",
                "Model and Pipeline Parallelism",
                ("model-parallelism", "पाइपलाइन"),
                ("gpu", "parallelism"),
                hi="मॉडल और पाइपलाइन समानता",
                ur="ماڈل اور پائپ لائن متوازی",
            ),
            make_quiz("training-stacks", "DeepSpeed & Megatron-LM training stacks", ("deepspeed",), ("zero", "gpu")),
            make_quiz("zero", "ZeRO in depth"),
            make_quiz("cafe", "Café quiz"),
        ]
    )


@pytest.mark.parametrize(
    "topic, expected",
    [
        ("pipeline", ["pipeline"]),  # id
        ("model-parallelism", ["pipeline"]),  # alias
        ("पाइपलाइन", ["pipeline"]),  # alias in Devanagari
        ("समानता", ["pipeline"]),  # Hindi title word
        ("متوازی", ["pipeline"]),  # Urdu title word
        ("parallelism", ["pipeline"]),  # English title word and tag
        ("megatron", ["training-stacks"]),  # part of the title word "Megatron-LM"
        ("megatron-lm", ["training-stacks"]),
        ("gpu", ["pipeline", "training-stacks"]),  # tag, several matches
        ("PIPELINE", ["pipeline"]),  # case-insensitive
        ("  DeepSpeed!  ", ["training-stacks"]),  # edge punctuation and spaces
        ("pipe", ["pipeline"]),  # prefix of the id
        ("parall", ["pipeline"]),  # prefix of a title word
        ("deep", ["training-stacks"]),  # prefix of an alias and a title word
        ("zero", ["zero"]),  # an exact id wins over the tag of another quiz
        ("training stacks", ["training-stacks"]),  # every word must match
        ("deepspeed pipeline", []),
        ("pi", []),  # prefixes shorter than 3 characters do not count
        ("cooking", []),
        ("", []),
        (" !? ", []),
        (unicodedata.normalize("NFD", "CAFÉ"), ["cafe"]),  # Unicode normalised
    ],
)
def test_topic_matching(catalog: Catalog, topic: str, expected: list[str]) -> None:
    assert [q.id for q in catalog.match(topic)] == expected


def test_catalog_access_and_duplicates(catalog: Catalog) -> None:
    assert len(catalog) == 4 and catalog.get("zero") is catalog.quizzes["zero"]
    assert catalog.get("nope") is None
    assert [q.id for q in catalog.all()] == ["pipeline", "training-stacks", "zero", "cafe"]
    twice = Catalog.from_quizzes([make_quiz("a", "A"), make_quiz("a", "Again")])
    assert [q.title.get("en") for q in twice.all()] == ["A"] and len(twice.problems) == 1


def test_paths_missing_or_named_twice(tmp_path: Path) -> None:
    assert [p.message for p in validate_paths([tmp_path / "nope"])] == ["no such file or folder"]
    (tmp_path / "a.yaml").write_text(GOOD)
    assert validate_paths([tmp_path, tmp_path / "a.yaml"]) == []


def test_shipped_schema_equals_generated() -> None:
    shipped = json.loads((SHIPPED / "quiz.schema.json").read_text(encoding="utf-8"))
    regenerate = "run: python -m bot.content.quizfile --schema > quizzes/quiz.schema.json"
    assert shipped == QuizFile.model_json_schema(), regenerate
    printed = subprocess.run(
        [sys.executable, "-m", "bot.content.quizfile", "--schema"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT_DIR,
    ).stdout
    assert printed == schema_json()


def test_a_thousand_quizzes_index_and_match_quickly() -> None:
    quizzes = [
        make_quiz(f"quiz-{i}", f"Quiz number {i} about things", (f"alias-{i}",), ("tag",), hi=f"प्रश्नोत्तरी {i}")
        for i in range(1000)
    ]
    start = time.perf_counter()
    catalog = Catalog.from_quizzes(quizzes)
    hits = [catalog.match(f"quiz-{i}") for i in range(0, 1000, 10)]
    assert time.perf_counter() - start < 0.5
    assert all(len(h) == 1 for h in hits) and len(catalog.match("things")) == 1000


def test_problem_text_without_path_or_line() -> None:
    assert str(QuizProblem("", "title", "missing 'hi' translation")) == "title: missing 'hi' translation"
