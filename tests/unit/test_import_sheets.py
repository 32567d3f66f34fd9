"""Kahoot and Quizizz spreadsheets: header found wherever it is, numbers as typed, time limits
kept per question, other kinds skipped with the sheet row; a zip bomb is refused unopened."""

from __future__ import annotations

import pytest

from bot.content.importers import Malformed, import_quiz
from bot.content.importers.sheets import MAX_UNPACKED_BYTES
from tests.support.sheet_files import (
    KAHOOT_HEADER,
    KAHOOT_ROWS,
    kahoot_header_row,
    kahoot_xlsx,
    quizizz_xlsx,
    workbook_bytes,
    zip_bomb_xlsx,
)


def kahoot(**layout):
    return import_quiz(kahoot_xlsx(**layout), "kahoot.xlsx")


def test_kahoot_rows_become_questions_with_their_time_limits():
    result = kahoot()
    assert result.format == "kahoot"
    assert [
        (q["prompt"], q["options"], q["answer"], q["seconds"]) for q in result.data["questions"] if "kind" not in q
    ] == [
        ("Which planet is known as the red planet?", ["Venus", "Mars", "Jupiter", "Saturn"], 1, 20),
        ("How many legs has a spider?", ["6", "8", "10"], 1, 30),  # numbers stored as 8.0 read as 8
        ("Water boils at 100 °C at sea level.", ["True", "False"], 0, 10),
        ("What is <b>bold</b> & what is not?", ["<script>alert(1)</script>", "plain"], 0, 5),
    ]
    assert [q.seconds for q in result.quiz.questions] == [20, 30, 10, 20, 5]


@pytest.mark.parametrize("blank_rows", [0, 3, 9])
def test_kahoot_header_is_found_not_assumed_at_row_8(blank_rows: int):
    result = kahoot(blank_rows=blank_rows)
    first_row = kahoot_header_row(blank_rows=blank_rows) + 1
    assert result.count == 5
    assert result.skipped[0].where == f"row {first_row + 4}"


@pytest.mark.parametrize(
    "offset, reason",
    [
        (5, "correct answer 4 names an empty or missing column"),
        (6, "no question text"),
    ],
)
def test_kahoot_skips_name_the_sheet_row(offset: int, reason: str):
    where = f"row {kahoot_header_row() + offset}"
    assert (where, reason) in [(s.where, s.reason) for s in kahoot().skipped]


def test_kahoot_several_correct_answers_become_a_multi_question():
    (question,) = [q for q in kahoot().data["questions"] if q["prompt"] == "Which are even numbers?"]
    # in Kahoot any right answer scores: a player who ticks only some of them earns their share
    assert (question["kind"], question["answer"], question["scoring"]) == ("multi", [0, 2], "partial")


def test_kahoot_image_column_is_the_questions_picture():
    header = (*KAHOOT_HEADER, "Image link")
    rows = [(1, "Which planet is this?", "Mars", "Venus", None, None, 20, 1, "https://example.org/mars.jpg")]
    result = import_quiz(workbook_bytes([header, *rows]), "k.xlsx")
    assert result.data["questions"][0]["media"] == "https://example.org/mars.jpg"


def test_kahoot_template_rows_holding_only_their_number_are_not_questions():
    """Real sheets keep the template's numbered rows below their last question (1 to 100)."""
    numbered = [(n,) for n in range(len(KAHOOT_ROWS) + 1, 101)]
    result = kahoot(rows=[*KAHOOT_ROWS, *numbered])
    assert result.count == 5
    assert [s.reason for s in result.skipped] == [s.reason for s in kahoot().skipped]  # the same two, no more
    assert result.in_source == 7


def test_kahoot_correct_answer_that_is_not_a_number():
    result = import_quiz(kahoot_xlsx([KAHOOT_ROWS[0], (2, "Q?", "a", "b", None, None, 20, "first")]), "k.xlsx")
    assert [str(s) for s in result.skipped] == [
        f"row {kahoot_header_row() + 2}: correct answer 'first' is not a number from 1 to 4"
    ]


def test_a_sheet_without_a_header_is_malformed():
    with pytest.raises(Malformed, match="no header row"):
        import_quiz(kahoot_xlsx(title_rows=(), blank_rows=40), "k.xlsx", "kahoot")


def test_quizizz_multiple_choice_with_explanation_and_time_under_an_instructions_row():
    result = import_quiz(quizizz_xlsx(), "quizizz.xlsx")
    assert result.format == "quizizz"
    assert [
        (q["prompt"], q["options"], q["answer"], q.get("seconds"), q.get("explanation"))
        for q in result.data["questions"]
        if "kind" not in q
    ] == [
        ("What is the chemical symbol for gold?", ["Ag", "Au", "Gd", "Go"], 1, 45, "Au comes from the Latin aurum."),
        ("How many continents are there?", ["5", "6", "7", "8", "9"], 2, 20, None),
    ]


@pytest.mark.parametrize(
    "row, reason",
    [
        (6, "a question of type Open-Ended: quizhost cannot ask it"),
        (9, "Correct Answer 5 names an empty or missing column"),
        (10, "several correct answers (1, 2): a Multiple Choice question has exactly one (Checkbox has several)"),
    ],
)
def test_quizizz_skips_name_the_sheet_row(row: int, reason: str):
    assert (f"row {row}", reason) in [(s.where, s.reason) for s in import_quiz(quizizz_xlsx(), "q.xlsx").skipped]


def test_quizizz_checkbox_fill_in_the_blank_and_poll_become_their_kinds():
    result = import_quiz(quizizz_xlsx(), "q.xlsx")
    by_kind = {q.get("kind", "choice"): q for q in result.data["questions"]}
    assert (by_kind["multi"]["options"], by_kind["multi"]["answer"]) == (["2", "3", "4"], [0, 1])
    assert "scoring" not in by_kind["multi"]  # all or nothing, as Quizizz scores a Checkbox question
    assert by_kind["typed"]["accept"] == ["Nairobi"] and "options" not in by_kind["typed"]
    assert (by_kind["poll"]["options"], by_kind["poll"].get("answer")) == (["Red", "Blue"], None)
    assert len(result.skipped) == 3


def test_quizizz_image_link_is_the_questions_picture():
    row = (
        "Which planet?",
        "Multiple Choice",
        "Mars",
        "Venus",
        None,
        None,
        None,
        1,
        20,
        "https://example.org/m.png",
        None,
    )
    (question,) = import_quiz(quizizz_xlsx(rows=[row]), "q.xlsx").data["questions"]
    assert question["media"] == "https://example.org/m.png"


def test_quizizz_without_the_instructions_row_reads_the_same():
    with_row, without = import_quiz(quizizz_xlsx(), "q.xlsx"), import_quiz(quizizz_xlsx(instructions=False), "q.xlsx")
    assert with_row.data["questions"] == without.data["questions"]


def test_zip_bomb_is_refused_before_openpyxl_unpacks_it():
    bomb = zip_bomb_xlsx()
    assert len(bomb) < 100_000
    with pytest.raises(Malformed) as error:
        import_quiz(bomb, "bomb.xlsx")
    assert f"at most {MAX_UNPACKED_BYTES:,}" in str(error.value) and "refused unopened" in str(error.value)


def test_binary_file_with_a_spreadsheet_extension():
    with pytest.raises(Malformed, match=r"not an \.xlsx spreadsheet"):
        import_quiz(bytes(range(256)) * 10, "quiz.xlsx")


def test_a_zip_that_is_not_a_workbook():
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(Malformed, match="cannot read the spreadsheet"):
        import_quiz(out.getvalue(), "quiz.xlsx", "kahoot")
