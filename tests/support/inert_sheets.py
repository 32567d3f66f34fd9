"""Checks that a results file (bot/commands/sheets.py) can run nothing in a spreadsheet program,
however the program cuts it into cells: with the file's `,`, with the `;` of most European
locales, with a tab (a text import's default), and as a reader that knows no quotes at all."""

from __future__ import annotations

import csv
import io
import re

import openpyxl

# the characters that start a formula (OWASP's list), written here again: the tests' own
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEPARATORS = (",", ";", "\t")


def csv_cells(data: bytes, separator: str) -> list[list[str]]:
    """The cells as Python's csv module reads them with that separator."""
    text = data.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))


def quoteless_cells(data: bytes, separator: str) -> list[str]:
    """The cells as a reader that knows no quotes cuts them: at every separator and line break,
    the quotes around a cell dropped."""
    lines = re.split(r"[\r\n]", data.decode("utf-8-sig"))
    return [cell.lstrip('"') for line in lines for cell in line.split(separator)]


def assert_inert_csv(data: bytes) -> list[dict[str, str]]:
    """Every cell, however cut, starts as text; every text field quoted. The rows, by heading."""
    for separator in SEPARATORS:
        cells = [cell for row in csv_cells(data, separator) for cell in row] + quoteless_cells(data, separator)
        formulas = [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
        assert not formulas, f"cells a spreadsheet would run, cut at {separator!r}: {formulas}"
    text = data.decode("utf-8-sig")
    # read so, an unquoted field must be a number: a text left unquoted raises ValueError
    list(csv.reader(io.StringIO(text, newline=""), quoting=csv.QUOTE_NONNUMERIC))
    headings, *rows = csv_cells(data, ",")
    assert all(len(row) == len(headings) for row in rows), "a separator inside a text never cuts its cell"
    return [dict(zip(headings, row, strict=True)) for row in rows]


def assert_inert_xlsx(data: bytes) -> list[dict[str, object]]:
    """No formula (nor error) cell, and no text cell that starts like a formula, on any sheet (the
    summary names players and quotes prompts too). The answers sheet's rows, by heading (a date
    column's heading without the zone it names)."""
    book = openpyxl.load_workbook(io.BytesIO(data))
    for sheet in book.worksheets:
        cells = [cell for row in sheet.iter_rows() for cell in row]
        assert {cell.data_type for cell in cells} <= {"s", "n", "d"}, "texts, numbers and dates only"
        formulas = [c.value for c in cells if isinstance(c.value, str) and c.value.startswith(FORMULA_STARTS)]
        assert not formulas, f"text cells that start like a formula: {formulas}"
    headings, *rows = list(book["Answers"].iter_rows())
    names = [str(cell.value).split(" (")[0] for cell in headings]
    return [dict(zip(names, (cell.value for cell in row), strict=True)) for row in rows]
