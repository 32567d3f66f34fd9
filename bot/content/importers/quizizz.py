"""Quizizz's question spreadsheet (.xlsx): `Multiple Choice` rows, options 1 to 5.

Under the header the template has a row of instructions ("Text of the question (required)"),
which is not a question. `Correct Answer` is the option number; `Checkbox` rows (several right
options) and the other kinds are skipped with the reason.
"""

from __future__ import annotations

from bot.content.importers.common import Collector, Draft, Parsed
from bot.content.importers.sheets import Row, column, find_header, numbers, one_right, rows, whole_number
from bot.domain.model import clamp_seconds
from bot.texts.i18n import later

OPTIONS = 5
MULTIPLE_CHOICE = "multiple choice"
KNOWN_KINDS = (
    MULTIPLE_CHOICE,
    "checkbox",
    "fill-in-the-blank",
    "open-ended",
    "poll",
    "draw",
    "reorder",
    "match",
    "drag and drop",
    "dropdown",
)
COLUMNS = ("question text", "question type", "correct answer", "time in seconds", "answer explanation")


def is_header(row: Row) -> bool:
    return all(column(row, name) is not None for name in ("question text", "option 1", "correct answer"))


def _is_instructions(row: Row, kind: str, correct: str) -> bool:
    """The template's row that explains each column: its Correct Answer is prose, not a number."""
    return bool(correct) and numbers(correct) is None and kind.casefold() not in KNOWN_KINDS


def parse(data: bytes) -> Parsed:
    sheet = rows(data)
    header = find_header(sheet, is_header, "Question Text, Option 1 ... Option 5, Correct Answer")
    at = {name: column(header, name) for name in COLUMNS}
    option_at = [column(header, f"option {n}") for n in range(1, OPTIONS + 1)]
    found = Collector()
    for row in sheet:
        kind, correct = row.get(at["question type"]), row.get(at["correct answer"])
        if not any(row.cells) or (row.number == header.number + 1 and _is_instructions(row, kind, correct)):
            continue
        kind = kind or "Multiple Choice"  # the template's default
        options = [(n, row.get(i)) for n, i in enumerate(option_at, start=1) if row.get(i)]
        right = one_right(options, correct, "Correct Answer", OPTIONS)
        if kind.casefold() != MULTIPLE_CHOICE:
            found.skip(
                row.where,
                later("a question of type {kind} (several right options): only Multiple Choice is imported", kind=kind)
                if kind.casefold() == "checkbox"
                else later("a question of type {kind}: only Multiple Choice is imported", kind=kind),
            )
        elif not row.get(at["question text"]):
            found.skip(row.where, later("no question text"))
        elif not isinstance(right, int):
            found.skip(row.where, right)
        else:
            seconds = clamp_seconds(whole_number(row.get(at["time in seconds"])))
            found.keep(
                Draft(
                    row.where,
                    row.get(at["question text"]),
                    tuple(text for _, text in options),
                    right,
                    row.get(at["answer explanation"]),
                    seconds,
                )
            )
    return found.parsed()
