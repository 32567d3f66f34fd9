"""Results as files: CSV (UTF-8 with a byte order mark, so spreadsheet programs read every
script right) and .xlsx (openpyxl), one row per answer, the same columns in both.

Every text cell is other people's words (player names and what they typed, quiz titles, prompts,
options, ids), and a spreadsheet program runs a cell that begins with = + - @ (or a tab or a
carriage return) as a formula. So every text goes through `guarded`, in both formats (OWASP's
advice for CSV injection): such a start gets a leading apostrophe. A CSV reader set to another
list separator than the file's (`;` in most European locales), or one that ignores quotes, starts
a new cell after any separator, quote or line break inside a text, so a formula character there
gets the apostrophe too ("Bob;=1+1" -> "Bob;'=1+1"). Every text field of the CSV is quoted, its
own quotes doubled; every text cell of the .xlsx is a string cell, never a formula or an error.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import IO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, TYPE_STRING
from openpyxl.cell.cell import Cell as XlsxCell

from bot.commands.results import Line

FORMATS = ("csv", "xlsx")
MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
HEADINGS = (
    "run",
    "started",
    "quiz_id",
    "quiz",
    "question_number",
    "question_id",
    "question",
    "player",
    "player_id",
    "chosen",
    "chosen_text",
    "right",
    "seconds",
    "points",
    "answered_at",
)
FORMULA_STARTS = "=+-@\t\r"
CELL_BREAKS = ",;\t\r\n"  # where some reader of the file may start a new cell or row
# a formula character at the text's start or after a cell break, quotes between them skipped
# (a reader that splits there takes `""=` as a quoted field that ends before the `=`)
_FORMULA_AT_CELL_START = re.compile(rf'((?:^|[{re.escape(CELL_BREAKS)}])"*)(?=[{re.escape(FORMULA_STARTS)}])')
SHEET_TITLE = "Results"
NOT_TAKEN_AS_STRING = ("=", "#")  # what openpyxl makes a formula or an error cell of, unless told

Cell = str | int | float


def guarded(text: str) -> str:
    """Text a spreadsheet program shows as text, never runs as a formula, however it splits the
    file into cells. Control characters (not allowed in a workbook's XML, and a way to hide an =
    behind) are dropped first."""
    if ILLEGAL_CHARACTERS_RE.search(text):
        text = ILLEGAL_CHARACTERS_RE.sub("", text)
    if _FORMULA_AT_CELL_START.search(text) is None:  # most texts: a search costs a tenth of a sub
        return text
    return _FORMULA_AT_CELL_START.sub(r"\1'", text)


def rows(lines: Iterable[Line]) -> Iterable[tuple[Cell, ...]]:
    """The cells of each line in HEADINGS' order, every text guarded (numbers stay numbers)."""
    for x in lines:
        yield tuple([guarded(cell) if isinstance(cell, str) else cell for cell in _cells(x)])


def _cells(x: Line) -> tuple[Cell, ...]:
    return (
        x.run_id,
        x.started.isoformat(timespec="seconds"),
        x.quiz_id,
        x.quiz_title,
        x.number,
        x.question_id,
        x.question,
        x.player,
        x.player_key,
        x.letter,  # a typed or numeric answer as the player typed it
        x.chosen,
        "yes" if x.right else "no",
        x.seconds,
        x.points,
        x.answered.isoformat(timespec="seconds"),
    )


def csv_part(lines: Iterable[Line], first: bool) -> bytes:
    """Lines as CSV: the first part starts with the byte order mark and the headings, so the
    parts written one after another are the whole file."""
    out = io.StringIO()
    # RFC 4180's line ends; every text in quotes, so a separator in it never splits its cell
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    if first:
        writer.writerow(HEADINGS)
    writer.writerows(rows(lines))
    return out.getvalue().encode("utf-8-sig" if first else "utf-8")


class XlsxSheet:
    """An .xlsx file written a part at a time: openpyxl's write-only workbook keeps the rows
    appended so far in its own temporary file, not in memory, until `save`."""

    def __init__(self) -> None:
        self.book = Workbook(write_only=True)
        self.sheet = self.book.create_sheet(SHEET_TITLE)
        self.sheet.append(HEADINGS)

    def add(self, lines: Iterable[Line]) -> None:
        for row in rows(lines):
            self.sheet.append([self._string(cell) if isinstance(cell, str) else cell for cell in row])

    def _string(self, text: str) -> XlsxCell | str:
        """The text as a string cell. openpyxl types a text by how it starts: a formula from "=",
        an error from one of its codes (#N/A, #REF!...), else a string. Those two starts become
        cells told they are strings (a cell object for every text took about 40% more time)."""
        if not text.startswith(NOT_TAKEN_AS_STRING):
            return text
        cell = WriteOnlyCell(self.sheet, text)
        cell.data_type = TYPE_STRING
        return cell

    def save(self, out: str | IO[bytes]) -> None:
        self.book.save(out)
