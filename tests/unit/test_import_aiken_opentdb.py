"""Aiken and Open Trivia DB imports: every row of the issue's table, every skip at its place."""

from __future__ import annotations

import pytest

from bot.content.importers import Malformed, import_quiz
from tests.support.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "imports"


def imported(name: str):
    return import_quiz((FIXTURES / name).read_bytes(), name)


def questions(name: str) -> list[tuple[str, list[str] | None, int | bool]]:
    return [(q["prompt"], q.get("options"), q["answer"]) for q in imported(name).data["questions"]]


def test_aiken_options_with_dot_or_parenthesis_and_the_answer_letter():
    assert questions("capitals.txt")[:2] == [
        ("What is the capital of France?", ["Berlin", "Paris", "Madrid"], 1),
        ("Which river flows through Cairo?", ["Nile", "Danube"], 0),
    ]
    assert imported("capitals.txt").format == "aiken"
    assert all("explanation" not in q for q in imported("capitals.txt").data["questions"])


@pytest.mark.parametrize(
    "where, reason",
    [
        ("line 12", "no ANSWER line after the options (line 16 starts another question)"),
        ("line 16", "ANSWER 'E' is not one of the options (A, B, C, D)"),
        ("line 23", "1 option: Aiken questions need 2 to 10"),
        ("line 27", "a stray option line (E) with no question above it"),
        ("line 31", "option C where option B was expected: the line is left out"),
        ("line 42", "no ANSWER line before the end of the file"),
    ],
)
def test_aiken_problems_are_reported_at_their_line(where: str, reason: str):
    assert (where, reason) in [(s.where, s.reason) for s in imported("capitals.txt").skipped]


def test_aiken_out_of_order_option_is_left_out_of_its_question():
    assert ("What is the capital of Japan?", ["Kyoto", "Tokyo"], 1) in questions("capitals.txt")


def test_aiken_options_with_no_space_after_the_letter_as_moodle_reads_them():
    text = "Which is right?\nA)Incorrect (no space)\nB)Correct (no space)\nANSWER: B\n"
    result = import_quiz(text.encode(), "nospace.txt")
    assert [(q["prompt"], q["options"], q["answer"]) for q in result.data["questions"]] == [
        ("Which is right?", ["Incorrect (no space)", "Correct (no space)"], 1)
    ]
    assert not result.skipped


def test_aiken_a_question_that_starts_like_an_option_is_still_a_question():
    text = "A.I. in schools: which is a chatbot?\nA. ELIZA\nB. Excel\nANSWER: A\n"
    result = import_quiz(text.encode(), "ai.txt")
    assert [(q["prompt"], q["answer"]) for q in result.data["questions"]] == [
        ("A.I. in schools: which is a chatbot?", 0)
    ]


def test_aiken_more_than_ten_options_is_skipped():
    text = "Count?\n" + "".join(f"{c}. option {c}\n" for c in "ABCDEFGHIJ") + "K. eleven\nANSWER: A\n"
    result = import_quiz(text.encode(), "many.txt")
    assert [str(s) for s in result.skipped] == [
        "line 12: option K where option (none: at most 10) was expected: the line is left out"
    ]
    assert len(result.data["questions"][0]["options"]) == 10


def test_opentdb_envelope_decodes_entities_and_maps_categories_to_tags():
    assert questions("trivia.json") == [
        (
            'What does "CPU" stand for?',
            ["Central Processing Unit", "Central Process Unit", "Computer Personal Unit", "Central Processor Unit"],
            0,
        ),
        ("The logo for Snapchat is a Bell.", None, False),  # boolean: a true/false question
        ("Which is the 'City of Light' & love?", ["Paris", "Rome", "Vienna", "Lisbon"], 0),
    ]
    assert imported("trivia.json").data["tags"] == ["Science: Computers", "Geography"]


@pytest.mark.parametrize(
    "where, reason",
    [
        ("results[3]", "type 'fill-in': only multiple and boolean questions are imported"),
        ("results[4]", "missing 'correct_answer', 'incorrect_answers'"),
    ],
)
def test_opentdb_skips_are_named_by_result(where: str, reason: str):
    assert (where, reason) in [(s.where, s.reason) for s in imported("trivia.json").skipped]


@pytest.mark.parametrize("name", ["trivia-url3986.json", "trivia-urllegacy.json", "trivia-base64.json"])
def test_opentdb_encodings_read_as_the_default_one(name: str):
    assert questions(name) == questions("trivia.json")
    assert imported(name).data["tags"] == ["Science: Computers", "Geography"]
    assert imported(name).skipped == ()


def test_opentdb_bare_list():
    assert questions("trivia-list.json") == [("The Great Fire of London happened in 1666.", None, True)]
    assert imported("trivia-list.json").data["questions"][0]["kind"] == "truefalse"


def test_opentdb_non_zero_response_code_is_explained():
    with pytest.raises(Malformed) as error:
        imported("trivia-empty.json")
    assert str(error.value) == (
        "response_code: 1: No Results: the API has fewer questions than asked for in "
        "that category or difficulty; nothing to import"
    )


def test_opentdb_broken_json_names_line_and_column():
    with pytest.raises(Malformed, match=r"line 2: not JSON: Expecting value \(column 12\)"):
        import_quiz(b'{"results": [\n  {"type": oops}]}', "t.json")


def test_opentdb_other_json_is_refused_with_what_was_expected():
    with pytest.raises(Malformed, match="top level: expected Open Trivia DB results"):
        import_quiz(b'{"questions": []}', "t.json")
