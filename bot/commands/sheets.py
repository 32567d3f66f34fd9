"""Results as files: CSV (UTF-8 with a byte order mark, so spreadsheet programs read every
script right) and .xlsx (openpyxl), one row per answer, the same columns in both.

Player names and quiz texts are other people's words: a cell of them that begins with = + - @
(or a tab or carriage return) would be run as a formula by a spreadsheet program, so it gets a
leading apostrophe (OWASP's advice for CSV injection), in both formats.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

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


def as_csv(lines: Sequence[Line]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180's line ends
    writer.writerow(HEADINGS)
    writer.writerows(rows(lines))
    return out.getvalue().encode("utf-8-sig")


def as_xlsx(lines: Sequence[Line]) -> bytes:
    book = Workbook(write_only=True)
    sheet = book.create_sheet(SHEET_TITLE)
    sheet.append(HEADINGS)
    for row in rows(lines):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def as_file(lines: Sequence[Line], kind: str) -> bytes:
    """The lines as a file of that kind, one of FORMATS."""
    return as_csv(lines) if kind == "csv" else as_xlsx(lines)
