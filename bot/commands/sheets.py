"""Results as files: CSV (UTF-8 with a byte order mark, so spreadsheet programs read every
script right) and .xlsx (openpyxl), one row per answer, the same columns in both.

Player names and quiz texts are other people's words: a cell of them that begins with = + - @
(or a tab or carriage return) would be run as a formula by a spreadsheet program, so it gets a
leading apostrophe (OWASP's advice for CSV injection), in both formats.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import IO

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

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
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SHEET_TITLE = "Results"

Cell = str | int | float


def guarded(text: str) -> str:
    """Text a spreadsheet program shows as text, never runs as a formula. Control characters
    (not allowed in a workbook's XML, and a way to hide an = behind) are dropped first."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def rows(lines: Iterable[Line]) -> Iterable[tuple[Cell, ...]]:
    """The cells of each line in HEADINGS' order; the texts guarded."""
    for x in lines:
        yield (
            x.run_id,
            x.started.isoformat(timespec="seconds"),
            guarded(x.quiz_id),
            guarded(x.quiz_title),
            x.number,
            guarded(x.question_id),
            guarded(x.question),
            guarded(x.player),
            guarded(x.player_key),
            x.letter,
            guarded(x.chosen),
            "yes" if x.right else "no",
            x.seconds,
            x.points,
            x.answered.isoformat(timespec="seconds"),
        )


def csv_part(lines: Iterable[Line], first: bool) -> bytes:
    """Lines as CSV: the first part starts with the byte order mark and the headings, so the
    parts written one after another are the whole file."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180's line ends
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
            self.sheet.append(row)

    def save(self, out: str | IO[bytes]) -> None:
        self.book.save(out)
