"""Moodle's Aiken format: a question line, options `A.` or `A)` (a space after them or not, as
Moodle reads them), then `ANSWER: X`.

    What is the capital of France?
    A. Berlin
    B) Paris
    ANSWER: B

A question may run over several lines before its first option; blank lines are ignored.
Problems are reported at the line of the question they spoil, or the stray line itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.content.importers.common import Collector, Draft, Parsed, decode_text
from bot.domain.model import LETTERS
from bot.texts.i18n import later

# Moodle reads `A)text` too, with no space; a line above any question needs the space to be taken
# for a stray option rather than a question ("A.I. in the classroom ...")
_OPTION = re.compile(r"^([A-Z])\s*[.)]\s*(\S.*)$")
_SPACED_OPTION = re.compile(r"^([A-Z])\s*[.)]\s+(.*)$")
_ANSWER = re.compile(r"^ANSWER\s*:\s*(.*)$", re.IGNORECASE)
MIN_OPTIONS, MAX_OPTIONS = 2, len(LETTERS)


@dataclass
class _Question:
    line: int
    prompt: list[str]
    options: list[str] = field(default_factory=list)
    letters: list[str] = field(default_factory=list)


def parse(data: bytes) -> Parsed:
    found = Collector()
    current: _Question | None = None
    for number, raw in enumerate(decode_text(data).split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        option, answer = (_OPTION if current is not None else _SPACED_OPTION).match(line), _ANSWER.match(line)
        if answer:
            if current is None:
                found.skip(f"line {number}", later("an ANSWER line with no question above it"))
            else:
                _finish(current, answer.group(1).strip(), found)
            current = None
        elif option and current is not None:
            _add_option(current, option.group(1), option.group(2), number, found)
        elif option:
            found.skip(
                f"line {number}",
                later("a stray option line ({letter}) with no question above it", letter=option.group(1)),
            )
        elif current is not None and current.options:
            found.skip(
                f"line {current.line}",
                later("no ANSWER line after the options (line {number} starts another question)", number=number),
            )
            current = _Question(number, [line])
        elif current is not None:
            current.prompt.append(line)
        else:
            current = _Question(number, [line])
    if current is not None:
        found.skip(f"line {current.line}", later("no ANSWER line before the end of the file"))
    return found.parsed()


def _add_option(question: _Question, letter: str, text: str, number: int, found: Collector) -> None:
    expected = LETTERS[len(question.letters)] if len(question.letters) < len(LETTERS) else None
    if letter != expected:
        found.skip(
            f"line {number}",
            later(
                "option {letter} where option {expected} was expected: the line is left out",
                letter=letter,
                expected=expected,
            )
            if expected
            else later(
                "option {letter} where option (none: at most 10) was expected: the line is left out", letter=letter
            ),
        )
        return
    question.letters.append(letter)
    question.options.append(text.strip())


def _finish(question: _Question, letter: str, found: Collector) -> None:
    where = f"line {question.line}"
    if not MIN_OPTIONS <= len(question.options) <= MAX_OPTIONS:
        count = len(question.options)
        found.skip(
            where,
            later("1 option: Aiken questions need {low} to {high}", low=MIN_OPTIONS, high=MAX_OPTIONS)
            if count == 1
            else later(
                "{count} options: Aiken questions need {low} to {high}", count=count, low=MIN_OPTIONS, high=MAX_OPTIONS
            ),
        )
    elif len(letter) != 1 or letter.upper() not in question.letters:
        found.skip(
            where,
            later(
                "ANSWER '{letter}' is not one of the options ({letters})",
                letter=letter,
                letters=", ".join(question.letters),
            ),
        )
    else:
        found.keep(
            Draft(where, "\n".join(question.prompt), tuple(question.options), question.letters.index(letter.upper()))
        )
