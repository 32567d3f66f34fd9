"""Spreadsheets (.xlsx) read safely with openpyxl: the zip is checked before openpyxl opens it.

An .xlsx is a zip of XML parts. A hostile one declares parts that unpack to gigabytes (a zip
bomb); Python's zipfile never unpacks more than a part declares, so the declared sizes are
checked first and a file over the limit is refused unopened.
"""

from __future__ import annotations

import datetime
import io
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from openpyxl import load_workbook

from bot.content.importers.common import MAX_QUESTIONS, Malformed, Medium
from bot.texts.i18n import Later, later

MAX_UNPACKED_BYTES = 20_000_000  # the parts of a 500-question sheet stay under 1 MB
MAX_PARTS = 200
MAX_ROWS = MAX_QUESTIONS * 4  # blank and skipped rows included
HEADER_SEARCH_ROWS = 30


@dataclass(frozen=True)
class Row:
    number: int  # as the spreadsheet program shows it (1-based)
    cells: tuple[str, ...]  # every cell as text: 20.0 -> "20", empty -> ""

    def get(self, column: int | None) -> str:
        return self.cells[column] if column is not None and column < len(self.cells) else ""

    @property
    def where(self) -> str:
        return f"row {self.number}"


def cell_text(value: Any) -> str:
    """A cell as the author typed it: numbers stored as 20.0 read as 20."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value).strip()


def check_zip(data: bytes) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise Malformed("file", later("not an .xlsx spreadsheet (an .xlsx file is a zip archive)")) from None
    with archive:
        parts = archive.infolist()
        unpacked = sum(part.file_size for part in parts)
        if len(parts) > MAX_PARTS or unpacked > MAX_UNPACKED_BYTES:
            raise Malformed(
                "file",
                later(
                    "the spreadsheet would unpack to {size} bytes in {parts} parts (at most "
                    "{most} in {most_parts}): refused unopened",
                    size=f"{unpacked:,}",
                    parts=len(parts),
                    most=f"{MAX_UNPACKED_BYTES:,}",
                    most_parts=MAX_PARTS,
                ),
            )


def rows(data: bytes) -> Iterator[Row]:
    """The first sheet's rows as text, numbered as the spreadsheet shows them."""
    check_zip(data)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a broken part; all mean the same here
        raise Malformed(
            "file",
            later(
                "cannot read the spreadsheet: {detail}",  # openpyxl's own words
                detail=f"{type(error).__name__}: {error}",
            ),
        ) from None
    try:
        sheet = book.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > MAX_ROWS:
                raise Malformed(f"row {number}", later("more than {n} rows: split the file", n=MAX_ROWS))
            yield Row(number, tuple(cell_text(v) for v in values))
    finally:
        book.close()


def find_header(sheet: Iterator[Row], is_header: Callable[[Row], bool], what: str) -> Row:
    """The header row, wherever the template's title rows put it."""
    for row in sheet:
        if is_header(row):
            return row
        if row.number >= HEADER_SEARCH_ROWS:
            break
    raise Malformed(
        "file", later("no header row ({columns}) in the first {n} rows", columns=what, n=HEADER_SEARCH_ROWS)
    )


def column(header: Row, *starts: str) -> int | None:
    """The first column whose heading starts with one of `starts` (case and spacing ignored)."""
    for i, cell in enumerate(header.cells):
        folded = " ".join(cell.casefold().split())
        if any(folded.startswith(start) for start in starts):
            return i
    return None


def whole_number(text: str) -> int | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


def numbers(text: str) -> list[int] | None:
    """'1', '2.0', '1,3' or '1, 3' as numbers; None when something else is written."""
    parts = [whole_number(p.strip()) for p in text.replace(";", ",").split(",") if p.strip()]
    return None if not parts or any(p is None for p in parts) else [p for p in parts if p is not None]


def one_right(choices: list[tuple[int, str]], written: str, label: str, most: int) -> int | Later:
    """The index in `choices` (numbered, non-empty cells) of the one right answer that `written`
    names, or the reason the row is skipped."""
    right = all_right(choices, written, label, most)
    if isinstance(right, list) and len(right) > 1:
        return later(
            "several correct answers ({numbers}): a quiz question has exactly one",
            numbers=", ".join(str(choices[i][0]) for i in right),
        )
    return right[0] if isinstance(right, list) else right


def all_right(choices: list[tuple[int, str]], written: str, label: str, most: int) -> list[int] | Later:
    """The indices in `choices` of the right answers `written` names ("2", "1,3"), or the reason
    the row is skipped."""
    correct = numbers(written)
    if correct is None:
        return later("{column} '{written}' is not a number from 1 to {high}", column=label, written=written, high=most)
    numbered = [n for n, _ in choices]
    for number in correct:
        if number not in numbered:
            return later("{column} {number} names an empty or missing column", column=label, number=number)
    return sorted({numbered.index(number) for number in correct})


def image(row: Row, at: int | None) -> Medium | None:
    """An image column's http(s) link as the question's picture (anything else is not a link)."""
    src = row.get(at)
    return Medium(src) if src.casefold().startswith(("http://", "https://")) else None
