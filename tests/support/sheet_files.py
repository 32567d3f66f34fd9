"""Kahoot and Quizizz spreadsheets for the importer tests, written with openpyxl as the
templates lay them out (the fixtures are generated: an .xlsx is a binary zip)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any

from openpyxl import Workbook

KAHOOT_HEADER = (
    "",
    "Question - max 120 characters",
    "Answer 1 - max 75 characters",
    "Answer 2 - max 75 characters",
    "Answer 3 - max 75 characters",
    "Answer 4 - max 75 characters",
    "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs",
    "Correct answer(s) - choose at least one",
)
KAHOOT_TITLE_ROWS = (
    ("Quiz template",),
    ("Add questions, at least two answer alternatives, time limit and choose correct answers (at least one).",),
    (),
    ("Have fun creating your kahoot!",),
)
QUIZIZZ_HEADER = (
    "Question Text",
    "Question Type",
    "Option 1",
    "Option 2",
    "Option 3",
    "Option 4",
    "Option 5",
    "Correct Answer",
    "Time in seconds",
    "Image Link",
    "Answer explanation",
)
QUIZIZZ_INSTRUCTIONS = (
    "Text of the question (required)",
    "Question Type (default is Multiple Choice)",
    "Text for option 1 (required in all cases except open-ended & draw questions)",
    "Text for option 2 (required in all cases except open-ended & draw questions)",
    "Text for option 3 (optional)",
    "Text for option 4 (optional)",
    "Text for option 5 (optional)",
    'The correct option choice (between 1-5). Leave blank for "Open-Ended", "Poll", "Draw" and "Fill-in-the-Blank".',
    "Time in seconds (optional, default value is 30 seconds)",
    "Link of the image (optional)",
    "Answer explanation (optional)",
)

# (sheet row, cells): rows the tests name by number
KAHOOT_ROWS: tuple[tuple[Any, ...], ...] = (
    (1, "Which planet is known as the red planet?", "Venus", "Mars", "Jupiter", "Saturn", 20.0, 2.0),
    (2, "How many legs has a spider?", 6.0, 8.0, 10.0, None, 30.0, "2"),
    (3, "Water boils at 100 °C at sea level.", "True", "False", None, None, 10, 1),
    (4, "Which are even numbers?", "2", "3", "4", "5", 20, "1,3"),
    (5, "Which answer is right?", "first", "second", None, None, 20, 4),
    (6, None, "a", "b", None, None, 20, 1),
    (),  # a blank row between questions
    (7, "What is <b>bold</b> & what is not?", "<script>alert(1)</script>", "plain", None, None, 5, 1),
)
QUIZIZZ_ROWS: tuple[tuple[Any, ...], ...] = (
    (
        "What is the chemical symbol for gold?",
        "Multiple Choice",
        "Ag",
        "Au",
        "Gd",
        "Go",
        None,
        2.0,
        45.0,
        None,
        "Au comes from the Latin aurum.",
    ),
    ("Pick the prime numbers.", "Checkbox", "2", "3", "4", None, None, "1,2", 30, None, None),
    ("The capital of Kenya is ____.", "Fill-in-the-Blank", "Nairobi", None, None, None, None, None, 30, None, None),
    ("What do you think of quizzes?", "Open-Ended", None, None, None, None, None, None, 30, None, None),
    ("Which colour do you like?", "Poll", "Red", "Blue", None, None, None, None, 30, None, None),
    ("How many continents are there?", None, "5", "6", "7", "8", "9", 3, 20, None, None),
    ("Which option is filled?", "Multiple Choice", "one", "two", None, None, None, 5, 20, None, None),
    ("Largest mammal?", "Multiple Choice", "Blue whale", "Elephant", None, None, None, "1, 2", 20, None, None),
)


def workbook_bytes(rows: Sequence[Sequence[Any]]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def kahoot_xlsx(
    rows: Sequence[Sequence[Any]] = KAHOOT_ROWS,
    title_rows: Sequence[Sequence[Any]] = KAHOOT_TITLE_ROWS,
    blank_rows: int = 3,
) -> bytes:
    """The template: title rows, blanks, the header (row 8 by default), one row per question."""
    return workbook_bytes([*title_rows, *([()] * blank_rows), KAHOOT_HEADER, *rows])


def kahoot_header_row(title_rows: Sequence[Sequence[Any]] = KAHOOT_TITLE_ROWS, blank_rows: int = 3) -> int:
    return len(title_rows) + blank_rows + 1


def quizizz_xlsx(rows: Sequence[Sequence[Any]] = QUIZIZZ_ROWS, instructions: bool = True) -> bytes:
    return workbook_bytes([QUIZIZZ_HEADER, *([QUIZIZZ_INSTRUCTIONS] if instructions else []), *rows])


def zip_bomb_xlsx(unpacked: int = 50_000_000) -> bytes:
    """A real Kahoot sheet plus one part of zeros that deflates to a few kilobytes."""
    out = io.BytesIO(kahoot_xlsx())
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/padding.bin", bytes(unpacked))
    return out.getvalue()


def not_a_workbook_xlsx() -> bytes:
    """A small, sound zip that openpyxl cannot open as a workbook: no [Content_Types].xml."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes.txt", "not a workbook")
    return out.getvalue()
