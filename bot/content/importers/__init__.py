"""Quizzes from other tools: Moodle GIFT and Aiken, Open Trivia DB, Kahoot and Quizizz sheets.

`import_quiz` turns a file's bytes into quizhost quiz data (what the YAML file holds, already
checked as `quizhost validate` checks it) plus every question skipped and why. A file that
cannot be read as its format raises `Malformed` naming the place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import yaml

from bot.content.importers import aiken, gift, kahoot, opentdb, quizizz, sheets
from bot.content.importers.build import checked_questions, file_order, quiz_data, to_quiz
from bot.content.importers.common import MAX_FILE_BYTES, Malformed, Note, Parsed, Passed, Skipped, slug_id
from bot.domain.model import Quiz
from bot.texts.i18n import later

__all__ = ["FORMATS", "Imported", "Malformed", "Note", "Passed", "Skipped", "detect_format", "import_quiz", "to_yaml"]

PARSERS: dict[str, Callable[[bytes], Parsed]] = {
    "gift": gift.parse,
    "aiken": aiken.parse,
    "opentdb": opentdb.parse,
    "kahoot": kahoot.parse,
    "quizizz": quizizz.parse,
}
FORMATS = tuple(PARSERS)
NAMES = {
    "gift": "GIFT",
    "aiken": "Aiken",
    "opentdb": "Open Trivia DB",
    "kahoot": "Kahoot spreadsheet",
    "quizizz": "Quizizz spreadsheet",
}


@dataclass(frozen=True)
class Imported:
    format: str
    data: dict[str, Any] | None  # the quiz file's content; None when no question could be kept
    quiz: Quiz | None
    skipped: tuple[Skipped, ...]  # `Passed` ones are not questions (descriptions): left out all the same
    notes: tuple[Note, ...] = ()  # what imported questions lost (a picture the file does not hold)

    @property
    def count(self) -> int:
        return len(self.quiz.questions) if self.quiz else 0

    @property
    def in_source(self) -> int:
        """The questions the source holds: imported or skipped, descriptions not counted."""
        return self.count + sum(1 for s in self.skipped if not isinstance(s, Passed))


def detect_format(name: str, data: bytes) -> str:
    """The format from the file's extension, and from its content where the extension is shared."""
    suffix = PurePath(name).suffix.casefold()
    if suffix == ".gift":
        return "gift"
    if suffix == ".json":
        return "opentdb"
    if suffix in (".xlsx", ".xlsm") or data[:4] == b"PK\x03\x04":
        return _sheet_format(data)
    if suffix in (".txt", ".aiken", "") or b"{" in data or b"ANSWER:" in data.upper():
        return _text_format(data)
    raise Malformed(
        "file",
        later(
            "cannot tell the format of a '{suffix}' file: give --format ({formats})",
            suffix=suffix,
            formats=", ".join(FORMATS),
        ),
    )


def _sheet_format(data: bytes) -> str:
    for row in sheets.rows(data):
        if quizizz.is_header(row):
            return "quizizz"
        if kahoot.is_header(row):
            return "kahoot"
        if row.number >= sheets.HEADER_SEARCH_ROWS:
            break
    raise Malformed(
        "file",
        later(
            "neither a Kahoot nor a Quizizz spreadsheet: no header row with Question "
            "and Answer 1 (Kahoot) or Question Text and Option 1 (Quizizz)"
        ),
    )


def _text_format(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    if text.lstrip("\ufeff \n\r\t").startswith(("{", "[")):
        try:
            json.loads(text.lstrip("\ufeff"))
            return "opentdb"
        except json.JSONDecodeError:
            pass
    lines = [line.strip() for line in text.splitlines()]
    if any(line.upper().startswith("ANSWER:") for line in lines):
        return "aiken"
    return "gift"


def import_quiz(
    data: bytes, name: str, fmt: str = "auto", *, quiz_id: str | None = None, title: str | None = None, lang: str = "en"
) -> Imported:
    """The quiz in `data` (a file called `name`), in quizhost's form, and what was skipped."""
    if len(data) > MAX_FILE_BYTES:
        # the command line's check: a chat refuses such a file before it gets here (bot.content.chatquizzes)
        raise Malformed("file", f"{len(data):,} bytes: at most {MAX_FILE_BYTES:,} (1 MB) are imported")
    fmt = detect_format(name, data) if fmt == "auto" else fmt
    parsed = PARSERS[fmt](data)
    questions, skipped, repeats = checked_questions(parsed)
    notes = tuple(sorted((*parsed.notes, *repeats), key=file_order))
    if not questions:
        return Imported(fmt, None, None, tuple(skipped), notes)
    stem = PurePath(name).stem
    content = quiz_data(
        parsed,
        questions,
        quiz_id=quiz_id or slug_id(stem),
        title=title or parsed.title or stem,
        lang=lang,
        described=f"Imported from {PurePath(name).name} ({NAMES[fmt]}).",
    )
    return Imported(fmt, content, to_quiz(content, name), tuple(skipped), notes)


class _QuizDumper(yaml.SafeDumper):
    """Safe YAML with multi-line texts as `|` blocks, the way authors write them by hand."""


def _text_node(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    block = "\n" in text and not text.endswith((" ", "\n")) and "\n " not in text
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if block else None)


_QuizDumper.add_representer(str, _text_node)


def to_yaml(imported: Imported) -> str:
    """The quiz file's text: plain YAML, every string quoted where YAML would misread it."""
    header = (
        f"# Imported by `quizhost import` from {NAMES[imported.format]}: {imported.count} question(s), "
        f"{len(imported.skipped)} skipped.\n"
    )
    return header + dump_yaml(imported.data)


def dump_yaml(data: object) -> str:
    """Quiz file data as YAML text, in the order the data gives its keys (`quizhost export` too)."""
    return yaml.dump(data, Dumper=_QuizDumper, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False)
