"""Kahoot and Quizizz spreadsheets: header found wherever it is, numbers as typed, time limits
kept per question, other kinds skipped with the sheet row; a zip bomb is refused unopened."""

from __future__ import annotations

import pytest

from bot.content.importers import Malformed, import_quiz
from bot.content.importers.sheets import MAX_UNPACKED_BYTES
from tests.support.sheet_files import KAHOOT_ROWS, kahoot_header_row, kahoot_xlsx, quizizz_xlsx, zip_bomb_xlsx


def kahoot(**layout):
    return import_quiz(kahoot_xlsx(**layout), "kahoot.xlsx")


def test_kahoot_rows_become_questions_with_their_time_limits():
    result = kahoot()
    assert result.format == "kahoot"
    assert [(q["prompt"], q["options"], q["answer"], q["seconds"]) for q in result.data["questions"]] == [
        ("Which planet is known as the red planet?", ["Venus", "Mars", "Jupiter", "Saturn"], 1, 20),
        ("How many legs has a spider?", ["6", "8", "10"], 1, 30),  # numbers stored as 8.0 read as 8
        ("Water boils at 100 °C at sea level.", ["True", "False"], 0, 10),
        ("What is <b>bold</b> & what is not?", ["<script>alert(1)</script>", "plain"], 0, 5),
    ]
    assert [q.seconds for q in result.quiz.questions] == [20, 30, 10, 5]


@pytest.mark.parametrize("blank_rows", [0, 3, 9])
def test_kahoot_header_is_found_not_assumed_at_row_8(blank_rows: int):
    result = kahoot(blank_rows=blank_rows)
    first_row = kahoot_header_row(blank_rows=blank_rows) + 1
    assert result.count == 4
    assert result.skipped[0].where == f"row {first_row + 3}"


@pytest.mark.parametrize(
    "offset, reason",
    [
        (4, "several correct answers (1, 3): a quiz question has exactly one"),
        (5, "correct answer 4 names an empty or missing column"),
        (6, "no question text"),
    ],
)
def test_kahoot_skips_name_the_sheet_row(offset: int, reason: str):
    where = f"row {kahoot_header_row() + offset}"
    assert (where, reason) in [(s.where, s.reason) for s in kahoot().skipped]


def test_kahoot_template_rows_holding_only_their_number_are_not_questions():
    """Real sheets keep the template's numbered rows below their last question (1 to 100)."""
    numbered = [(n,) for n in range(len(KAHOOT_ROWS) + 1, 101)]
    result = kahoot(rows=[*KAHOOT_ROWS, *numbered])
    assert result.count == 4
    assert [s.reason for s in result.skipped] == [s.reason for s in kahoot().skipped]  # the same three, no more


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
    ] == [
        ("What is the chemical symbol for gold?", ["Ag", "Au", "Gd", "Go"], 1, 45, "Au comes from the Latin aurum."),
        ("How many continents are there?", ["5", "6", "7", "8", "9"], 2, 20, None),
    ]


@pytest.mark.parametrize(
    "row, reason",
    [
        (4, "a question of type Checkbox (several right options): only Multiple Choice is imported"),
        (5, "a question of type Fill-in-the-Blank: only Multiple Choice is imported"),
        (6, "a question of type Open-Ended: only Multiple Choice is imported"),
        (7, "a question of type Poll: only Multiple Choice is imported"),
        (9, "Correct Answer 5 names an empty or missing column"),
        (10, "several correct answers (1, 2): a quiz question has exactly one"),
    ],
)
def test_quizizz_skips_name_the_sheet_row(row: int, reason: str):
    assert (f"row {row}", reason) in [(s.where, s.reason) for s in import_quiz(quizizz_xlsx(), "q.xlsx").skipped]


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
