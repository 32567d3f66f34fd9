"""Kahoot's quiz spreadsheet template (.xlsx): one row per question, answers 1 to 4.

The template puts title and instruction rows above the header (row 8 today): the header is
found by its headings, not assumed. Below it the template numbers 100 rows in its first column;
a row with nothing but that number is no question, skipped or not. `Correct answer(s)` holds
answer numbers ("2", or "1,3" for several); `Time limit (sec)` is kept per question, and an image
column (`Image link`, in sheets that have one) becomes the question's picture.

Several correct answers become a `multi` question scored `partial`: in Kahoot a player who picks
any one of them is right, so a player who ticks only some of them still earns their share here.
"""

from __future__ import annotations

from bot.content.importers.common import Collector, Draft, Parsed
from bot.content.importers.sheets import Row, all_right, column, find_header, image, rows, whole_number
from bot.domain.model import clamp_seconds
from bot.kinds import by_right_options
from bot.texts.i18n import later

ANSWERS = 4


def is_header(row: Row) -> bool:
    return all(column(row, name) is not None for name in ("question", "answer 1", "correct answer"))


def parse(data: bytes) -> Parsed:
    sheet = rows(data)
    header = find_header(sheet, is_header, "Question, Answer 1 ... Answer 4, Correct answer(s)")
    prompt_at, correct_at, time_at, image_at = (
        column(header, name) for name in ("question", "correct answer", "time limit", "image")
    )
    answer_at = [column(header, f"answer {n}") for n in range(1, ANSWERS + 1)]
    found = Collector()
    for row in sheet:
        prompt = row.get(prompt_at)
        answers = [(n, row.get(at)) for n, at in enumerate(answer_at, start=1) if row.get(at)]
        if not (prompt or answers or row.get(correct_at)):
            continue  # the template numbers 100 empty rows: only a row that says something is a question
        right = all_right(answers, row.get(correct_at), "correct answer", ANSWERS)
        if not prompt:
            found.skip(row.where, later("no question text"))
        elif not isinstance(right, list):
            found.skip(row.where, right)
        else:
            found.keep(
                Draft(
                    row.where,
                    prompt,
                    tuple(text for _, text in answers),
                    right[0] if len(right) == 1 else right,
                    seconds=clamp_seconds(whole_number(row.get(time_at))),
                    kind=by_right_options(len(right)).code,
                    partial=len(right) > 1,
                    media=image(row, image_at),
                )
            )
    return found.parsed()
