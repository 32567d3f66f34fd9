"""Results files (bot/commands/sheets.py) run nothing a user wrote: every text column of both
formats, fed every character that starts a formula (and separators, quotes and line breaks
that make a new cell start inside a text), comes out as text in a spreadsheet program, however
it cuts the CSV; numbers stay numbers."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

import openpyxl
import pytest

from bot.commands import sheets
from bot.commands.results import Line
from bot.domain.worth import RIGHT
from tests.support.inert_sheets import FORMULA_STARTS, assert_inert_csv, assert_inert_xlsx

HOSTILE = (
    "=1+1",
    "+1",
    "-1",
    "@SUM(1)",
    "\t=1+1",
    "\r=1+1",
    "Bob;=1+1",
    "Bob,=1+1",
    "Bob;-1+1",
    'Bob;"=1+1',
    '"=1+1',
    '=HYPERLINK("http://x","y")',
    'Bob "the" Builder',
    '=1+2";=1+2',  # OWASP's examples
    "=1+2'\" ;,=1+2",
    "Ann\n=1+1",
    "Ann\r\n@SUM(1)",
    "Ann\t+1",
    "\x00=1+1",  # a control character hiding the =
    "#N/A",  # an error cell, were it not told it is text
    "Ann",
)
# the text columns: every value in them someone wrote, and the Line's field it comes from
TEXT_COLUMNS = {
    "quiz_id": "quiz_id",
    "quiz": "quiz_title",
    "question_id": "question_id",
    "question": "question",
    "player": "player",
    "player_id": "player_key",
    "chosen": "letter",
    "chosen_text": "chosen",
}
NUMBERS = {"run": 7, "question_number": 3, "seconds": 4.25, "points": 812}
WHEN = datetime(2026, 12, 4, 21, 30, tzinfo=UTC)
PLAIN = Line(7, WHEN, "q", "Q", 3, "a", "A", "Ann", "test:1", (), "x", "x", RIGHT, True, 4.25, 812, WHEN)


def xml_line_ends(text: str) -> str:
    """A text as an XML reader gives it back: every line break a line feed."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def lines() -> list[Line]:
    """A line per hostile text, in every text column at once, and one per text column alone."""
    everywhere = [replace(PLAIN, **dict.fromkeys(TEXT_COLUMNS.values(), text)) for text in HOSTILE]
    alone = [replace(PLAIN, **{field: text}) for field in TEXT_COLUMNS.values() for text in HOSTILE]
    return everywhere + alone


def check_rows(rows: list[dict], written: list[Line], lines_end: Callable[[str], str] = str) -> None:
    """Each text cell is its guarded text (an apostrophe before a formula's start); numbers kept."""
    assert len(rows) == len(written)
    for row, line in zip(rows, written, strict=True):
        for heading, field in TEXT_COLUMNS.items():
            text = getattr(line, field)
            assert row[heading] == lines_end(sheets.guarded(text)), heading
            if text.lstrip("\x00").startswith(FORMULA_STARTS):
                assert str(row[heading]).startswith("'"), (heading, text)


def test_every_text_column_of_the_csv_is_quoted_and_no_cell_starts_a_formula_at_any_separator():
    written = lines()
    rows = assert_inert_csv(sheets.csv_part(written, True))
    check_rows(rows, written)
    assert {row["points"] for row in rows} == {"812"} and {row["run"] for row in rows} == {"7"}


def test_every_text_cell_of_the_xlsx_is_a_string_cell_and_numbers_stay_numbers():
    written = lines()
    sheet, out = sheets.XlsxSheet(), io.BytesIO()
    sheet.add(written)
    sheet.save(out)
    rows = assert_inert_xlsx(out.getvalue())
    check_rows(rows, written, xml_line_ends)
    assert all({heading: row[heading] for heading in NUMBERS} == NUMBERS for row in rows)
    assert "#N/A" in {row["player"] for row in rows}, "kept as it was typed, as a string"


@pytest.mark.parametrize(
    ("text", "inert"),
    [
        ("Bob;=1+1", "Bob;'=1+1"),
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ('Bob;"=1', "Bob;\"'=1"),
        ("3, -2", "3, -2"),  # a space after the separator: a cell that starts with it is text
        ("Ann", "Ann"),
    ],
)
def test_a_formula_start_gets_an_apostrophe_wherever_a_reader_may_start_a_cell(text, inert):
    assert sheets.guarded(text) == inert


def test_a_long_historys_summary_sheet_keeps_the_latest_runs_and_says_so():
    """A summary per run of a long history would be as long as its answers: the latest
    SUMMARY_RUNS runs are summed up, latest first, and the sheet says how many were left out."""
    runs = sheets.SUMMARY_RUNS + 2
    sheet, out = sheets.XlsxSheet(), io.BytesIO()
    sheet.add([replace(PLAIN, run_id=run) for run in range(1, runs + 1)])
    sheet.save(out)
    summary = openpyxl.load_workbook(io.BytesIO(out.getvalue()))["Summary"]
    cells = [[c.value for c in row] for row in summary.iter_rows()]
    assert cells[0][0] == f"the latest {sheets.SUMMARY_RUNS} of {runs} runs: each run's own download has its summary"
    summed = [row[1] for row in cells if row[0] == "run"]
    assert summed == list(range(runs, 2, -1)), "the latest first"
