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
from collections import deque
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, TYPE_STRING
from openpyxl.cell.cell import Cell as XlsxCell
from openpyxl.utils import get_column_letter

from bot.commands.results import Line
from bot.commands.summary import NEEDS_HELP, PlayerSummary, RunTally, Summary, TeamSummary
from bot.domain.fairplay import READING_WORDS_PER_MINUTE, SEVERAL_TOO_FAST

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
    # right, partial, wrong, not_answered or vote: the same words in every language, so that a
    # filter or a COUNTIF written once works on every chat's file
    "verdict",
    "share",  # the credit, 0 to 1 (a partly right answer's share); empty for a vote
    "seconds",  # empty: not answered
    "points",
    "answered_at",  # empty: not answered
    "team",  # a run with teams: the player's; empty without
    "team_score",  # that team's score at the run's end (mean, sum or top 3, as the run's teams scored)
    # "yes": right sooner than the prompt and options can be read (bot/domain/fairplay.py); still scored
    "faster_than_reading",
)
DATE_HEADINGS = ("started", "answered_at")  # the .xlsx names the chat's zone beside them
FORMULA_STARTS = "=+-@\t\r"
CELL_BREAKS = ",;\t\r\n"  # where some reader of the file may start a new cell or row
# a formula character at the text's start or after a cell break, quotes between them skipped
# (a reader that splits there takes `""=` as a quoted field that ends before the `=`)
_FORMULA_AT_CELL_START = re.compile(rf'((?:^|[{re.escape(CELL_BREAKS)}])"*)(?=[{re.escape(FORMULA_STARTS)}])')
NOT_TAKEN_AS_STRING = ("=", "#")  # what openpyxl makes a formula or an error cell of, unless told

Cell = str | int | float | datetime | None  # a datetime in the chat's zone; None: an empty cell
# a sheet of a write-only workbook, as `Workbook.create_sheet` gives it: its type stubs lack the
# column widths, filter and frozen panes it has
Sheet = Any


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
    """The cells of each line in HEADINGS' order, every text guarded (numbers and dates stay so)."""
    for x in lines:
        yield tuple([guarded(cell) if isinstance(cell, str) else cell for cell in _cells(x)])


def share(line: Line) -> float | None:
    """The line's credit as a cell gives it: none for a vote (a poll scores nothing)."""
    if not line.scored or line.worth.share is None:
        return None
    return round(line.worth.share, 4)


def _cells(x: Line) -> tuple[Cell, ...]:
    return (
        x.run_id,
        x.started,
        x.quiz_id,
        x.quiz_title,
        x.number,
        x.question_id,
        x.question,
        x.player,
        x.player_key,
        x.letter,  # as the player saw the options; a typed or numeric answer as typed
        x.chosen,
        x.worth.verdict.value,
        share(x),
        x.seconds,
        x.points,
        x.answered,
        x.team,
        None if x.team_score is None else round(x.team_score, 2),
        "yes" if x.too_fast else "",
    )


def csv_part(lines: Iterable[Line], first: bool) -> bytes:
    """Lines as CSV: the first part starts with the byte order mark and the headings, so the
    parts written one after another are the whole file. Dates are ISO 8601 with the chat's offset."""
    out = io.StringIO()
    # RFC 4180's line ends; every text in quotes, so a separator in it never splits its cell
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    if first:
        writer.writerow(HEADINGS)
    writer.writerows(csv_rows(lines))
    return out.getvalue().encode("utf-8-sig" if first else "utf-8")


def csv_rows(lines: Iterable[Line]) -> Iterable[list[str | int | float]]:
    """`rows` as the CSV writes them: dates in ISO 8601 with the chat's offset, no value as ""."""
    return ([_csv_cell(cell) for cell in row] for row in rows(lines))


def _csv_cell(cell: Cell) -> str | int | float:
    if isinstance(cell, datetime):
        return cell.isoformat(timespec="seconds")
    return "" if cell is None else cell


ANSWERS_TITLE = "Answers"
SUMMARY_TITLE = "Summary"
DATE_FORMAT = "yyyy-mm-dd hh:mm:ss"
PERCENT = "0%"
SHARE = "0.00"
WIDEST = 60  # a column's width at most, in characters: a long prompt wraps no row, it is cut
NARROWEST = 6
# the runs a download's summary sheet sums up, the latest: a long history's would be as long as its
# answers (a row per player of every run), and each run's own download has its own
SUMMARY_RUNS = 100
SUMMARY_WIDTHS = (14, 18, 50, 12, 12, 12, 12, 30)  # the summary sheet's columns, fixed before its first row


class XlsxSheet:
    """An .xlsx file written a part at a time: openpyxl's write-only workbook keeps the rows
    appended so far in its own temporary files, not in memory, until `save`.

    The first sheet is the teacher's summary of each run (bot/commands/summary.py), of the latest
    SUMMARY_RUNS runs at most: a run's lines come together, so each run is summed as they go by
    and memory holds one run's sums and the kept summaries, never the history. The second holds
    the answers: its header row frozen, a filter over all of it, dates as dates in the chat's
    zone (named in the header), each column as wide as the first page's content needs (at most
    WIDEST): a write-only sheet's widths precede its rows."""

    def __init__(self) -> None:
        self.book = Workbook(write_only=True)
        self.summary = _SummarySheet(self.book.create_sheet(SUMMARY_TITLE))
        self.sheet = self.book.create_sheet(ANSWERS_TITLE)
        self.sheet.freeze_panes = "A2"
        self.rows = 0
        self.tally: RunTally | None = None
        self.summaries: deque[Summary] = deque(maxlen=SUMMARY_RUNS)  # the latest runs'
        self.runs_summed = 0

    def add(self, lines: Sequence[Line]) -> None:
        made = list(rows(lines))
        if self.rows == 0:
            self._start(lines[0] if lines else None, made)
        for row in made:
            self.sheet.append([cell if _plain(cell) else self._cell(cell) for cell in row])
        self.rows += len(made)
        for line in lines:
            if self.tally is None or self.tally.run_id != line.run_id:
                self._summed()
                self.tally = RunTally(line.run_id, line.quiz_title, line.started)
            self.tally.add(line)

    def _start(self, first: Line | None, made: list[tuple[Cell, ...]]) -> None:
        """The header row, named with the chat's zone, and the columns' widths (the first page's)."""
        where = f" ({first.started.tzinfo})" if first is not None else ""
        headings = [f"{h}{where}" if h in DATE_HEADINGS else h for h in HEADINGS]
        for column, width in enumerate(_widths([headings, *made]), start=1):
            self.sheet.column_dimensions[get_column_letter(column)].width = width
        self.sheet.append(headings)
        self.rows = 1

    def _summed(self) -> None:
        if self.tally is not None:
            self.summaries.append(self.tally.summary())
            self.runs_summed += 1
            self.tally = None

    def _cell(self, cell: Cell) -> XlsxCell | Cell:
        """A cell `_plain` does not pass on as it is."""
        if isinstance(cell, str):
            return _string(self.sheet, cell)
        if isinstance(cell, datetime):  # as the chat's clock showed it (Excel keeps no zone); openpyxl formats it
            return cell.replace(tzinfo=None)
        return cell

    def save(self, out: str | IO[bytes]) -> None:
        self._summed()
        if self.rows == 0:
            self._start(None, [])
        self.summary.write_all(list(reversed(self.summaries)), self.runs_summed)
        self.sheet.auto_filter.ref = f"A1:{get_column_letter(len(HEADINGS))}{self.rows}"
        self.book.save(out)


QUESTION_HEADINGS = ("question_number", "question_id", "question (hardest first)", "players", "answered", "share_right")
PLAYER_HEADINGS = (
    "player",
    "player_id",
    None,
    "accuracy",
    "points",
    "not_answered",
    "last_answered",
    "faster_than_reading",
)
TEAM_HEADINGS = ("team", "members", "score", "accuracy")


class _SummarySheet:
    """Each run's summary, one block after another: the run, its questions hardest first (with
    their flags), its players, who needs help and who did not finish."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        for column, width in enumerate(SUMMARY_WIDTHS, start=1):
            sheet.column_dimensions[get_column_letter(column)].width = width
        self.runs = 0

    def write(self, summary: Summary) -> None:
        add, sheet = self.sheet.append, self.sheet
        if self.runs:
            add([])
            add([])
        self.runs += 1
        add(["run", summary.run_id, _text(sheet, summary.quiz_title)])
        add(["started", _dated(sheet, summary.started), f"({summary.started.tzinfo})"])
        add(["questions asked", summary.asked, "players", len(summary.players)])
        add([])
        add([*QUESTION_HEADINGS, "flags"])
        for q in summary.questions:
            flags = ", ".join(f.value for f in q.flags)
            prompt = [_text(sheet, q.question_id), _text(sheet, q.prompt)]
            add([q.number, *prompt, q.players, q.answered, _numbered(sheet, q.share_right, PERCENT), flags or None])
        self._teams(summary.teams)
        self._players("", summary.players, headed=True)
        self._players(f"needs help (accuracy under {round(100 * NEEDS_HELP)}%)", summary.needs_help)
        self._players("did not finish (left before the last question)", summary.did_not_finish)
        self._players(
            f"right faster than reading ({READING_WORDS_PER_MINUTE} words a minute) "
            f"{SEVERAL_TOO_FAST} times or more: still scored",
            summary.too_fast,
        )

    def _teams(self, teams: Sequence[TeamSummary]) -> None:
        """A run with teams: each team's members, score and accuracy, the best first."""
        if not teams:
            return
        sheet = self.sheet
        sheet.append([])
        sheet.append(TEAM_HEADINGS)
        for team in teams:
            members = _text(sheet, ", ".join(team.members))
            score = round(team.score, 2)
            sheet.append([_text(sheet, team.team), members, score, _numbered(sheet, team.accuracy, PERCENT)])

    def _players(self, title: str, players: Sequence[PlayerSummary], headed: bool = False) -> None:
        sheet = self.sheet
        sheet.append([])
        sheet.append(PLAYER_HEADINGS if headed else [title, len(players)])
        for p in players:
            named = [_text(sheet, p.name), _text(sheet, p.player_key), None]
            figures = [p.points, p.not_answered, p.last_answered, p.too_fast]
            sheet.append([*named, _numbered(sheet, p.accuracy, PERCENT), *figures])

    def write_all(self, latest_first: list[Summary], runs: int) -> None:
        """The summaries kept, the latest run's first; what was left out of `runs`, said."""
        if not runs:
            self.sheet.append(["no answers"])
        elif runs > len(latest_first):
            self.sheet.append(
                [f"the latest {len(latest_first)} of {runs} runs: each run's own download has its summary"]
            )
            self.sheet.append([])
        for summary in latest_first:
            self.write(summary)


def _plain(cell: Cell) -> bool:
    """A number, or a text openpyxl takes as a string: the cell as it is."""
    kind = type(cell)
    return kind is int or kind is float or (kind is str and cell != "" and not cell.startswith(NOT_TAKEN_AS_STRING))  # type: ignore[union-attr]


def _string(sheet: Sheet, text: str) -> XlsxCell | str | None:
    """The text as a string cell (none for no text). openpyxl types a text by how it starts: a
    formula from "=", an error from one of its codes (#N/A, #REF!...), else a string. Those two
    starts become cells told they are strings (a cell object for every text took about 40% more
    time)."""
    if not text:
        return None
    if not text.startswith(NOT_TAKEN_AS_STRING):
        return text
    cell = WriteOnlyCell(sheet, text)
    cell.data_type = TYPE_STRING
    return cell


def _text(sheet: Sheet, text: str) -> XlsxCell | str | None:
    return _string(sheet, guarded(text))


def _dated(sheet: Sheet, when: datetime) -> XlsxCell:
    """A date cell: the time as the chat's clock showed it (Excel keeps no zone)."""
    cell = WriteOnlyCell(sheet, when.replace(tzinfo=None))
    cell.number_format = DATE_FORMAT
    return cell


def _numbered(sheet: Sheet, value: float | None, number_format: str) -> XlsxCell | None:
    if value is None:
        return None
    cell = WriteOnlyCell(sheet, value)
    cell.number_format = number_format
    return cell


def _widths(table: Iterable[Sequence[Cell]]) -> list[float]:
    """Each column as wide as its longest cell (a date's as its format), within NARROWEST..WIDEST."""
    widest = [0] * len(HEADINGS)
    for row in table:
        for column, cell in enumerate(row):
            size = len(DATE_FORMAT) if isinstance(cell, datetime) else len(str(cell or ""))
            widest[column] = max(widest[column], size)
    return [min(WIDEST, max(NARROWEST, size + 2)) for size in widest]
