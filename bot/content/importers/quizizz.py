"""Quizizz's question spreadsheet (.xlsx): one row per question, options 1 to 5.

Under the header the template has a row of instructions ("Text of the question (required)"),
which is not a question. The `Question Type` column decides the kind:

- Multiple Choice (the default): `Correct Answer` is the right option's number;
- Checkbox: `Correct Answer` names several ("1,3"), a `multi` question scored all or nothing, as
  Quizizz scores it (every right option and no wrong one);
- Fill-in-the-Blank: the options are the accepted answers (`typed`);
- Poll: the options, no right answer (`poll`);
- Reorder: an `ordering` question. Quizizz's template documents no Correct Answer for it, and its
  editor takes a reorder question's items in their right order, so the options are read as
  written, first to last; a `Correct Answer` naming every option once ("3,1,2,4") gives the
  right order instead (the option numbers, first to last);
- Open-Ended, Draw and the rest are refused with the reason.

`Image Link` becomes the question's picture, `Answer explanation` its explanation.
"""

from __future__ import annotations

from bot.content.importers.common import Collector, Draft, Parsed
from bot.content.importers.sheets import Row, all_right, column, find_header, image, numbers, rows, whole_number
from bot.domain.model import clamp_seconds
from bot.texts.i18n import Later, later

OPTIONS = 5
MULTIPLE_CHOICE, CHECKBOX, FILL_IN, POLL = "multiple choice", "checkbox", "fill-in-the-blank", "poll"
REORDER = "reorder"
KNOWN_KINDS = (
    MULTIPLE_CHOICE,
    CHECKBOX,
    FILL_IN,
    "open-ended",
    POLL,
    "draw",
    REORDER,
    "match",
    "drag and drop",
    "dropdown",
)
COLUMNS = ("question text", "question type", "correct answer", "time in seconds", "answer explanation", "image")


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
        options = [(n, row.get(i)) for n, i in enumerate(option_at, start=1) if row.get(i)]
        draft = _draft(row, (kind or "Multiple Choice").strip(), options, correct)  # the template's default kind
        if not row.get(at["question text"]):
            found.skip(row.where, later("no question text"))
        elif isinstance(draft, Draft):
            found.keep(
                Draft(
                    row.where,
                    row.get(at["question text"]),
                    draft.options,
                    draft.answer,
                    row.get(at["answer explanation"]),
                    clamp_seconds(whole_number(row.get(at["time in seconds"]))),
                    kind=draft.kind,
                    accept=draft.accept,
                    media=image(row, at["image"]),
                )
            )
        else:
            found.skip(row.where, draft)
    return found.parsed()


def _draft(row: Row, kind: str, options: list[tuple[int, str]], correct: str) -> Draft | Later:
    """The kind's options and answer (the rest is filled in by the caller), or why it is skipped."""
    texts = tuple(text for _, text in options)
    folded = kind.casefold()
    if folded == FILL_IN:
        return Draft(row.where, "", (), None, kind="typed", accept=texts)
    if folded == POLL:
        return Draft(row.where, "", texts, None, kind="poll")
    if folded == REORDER:
        return _reorder(row, options, correct)
    if folded not in (MULTIPLE_CHOICE, CHECKBOX):
        return later("a question of type {kind}: quizhost cannot ask it", kind=kind)
    right = all_right(options, correct, "Correct Answer", OPTIONS)
    if not isinstance(right, list):
        return right
    if folded == CHECKBOX:
        return Draft(row.where, "", texts, right, kind="multi")
    if len(right) > 1:
        return later(
            "several correct answers ({numbers}): a Multiple Choice question has exactly one (Checkbox has several)",
            numbers=", ".join(str(options[i][0]) for i in right),
        )
    return Draft(row.where, "", texts, right[0])


def _reorder(row: Row, options: list[tuple[int, str]], correct: str) -> Draft | Later:
    """A Reorder row: its options in the right order, as written or as `Correct Answer` orders them.
    An empty option before a filled one (a formula cell without a stored value reads empty too)
    would drop an item and move the rest up: the order kept would not be the author's."""
    gap = next((n for at, (n, _) in enumerate(options, start=1) if n != at), None)
    if gap is not None:
        return later("Option {n} of a Reorder question is empty, but an option after it is not", n=gap - 1)
    if not correct:
        return Draft(row.where, "", tuple(text for _, text in options), None, kind="ordering")
    order, numbered = numbers(correct), [n for n, _ in options]
    if order is None or sorted(order) != sorted(numbered):
        return later(
            "Correct Answer '{written}' of a Reorder question must name each of its options once, "
            "in the right order (like 2,1,3)",
            written=correct,
        )
    texts = dict(options)
    return Draft(row.where, "", tuple(texts[n] for n in order), None, kind="ordering")
