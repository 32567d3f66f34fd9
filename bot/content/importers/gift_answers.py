"""What a GIFT question's braces say, as quizhost's kinds, decided in the order Moodle decides.

- `{~a =b ~c}`: one right option (`choice`). Options Moodle gives part of the credit (`~%50%a`)
  count as wrong here, and the report says so.
- `{~%50%a ~%50%b ~%-100%c}` (no `=`): Moodle's "multiple answers", where a player ticks boxes
  and scores the sum of the ticked options' weights. The options with a positive weight are the
  right ones (`multi`); since Moodle always credits each right tick, the question is scored
  `partial` (quizhost: right ticks less wrong ones, over the right count). A single option with
  the full weight and no other credit is a plain one-right-answer question.
- `{=a =b}`: short answer (`typed`), the full-credit answers accepted; `=%75%Nazereth` is not.
- `{#3.14:0.01}`, `{#1..2}`, `{#=1822:0 =%50%1822:2}`: numerical (`numeric`), the full-credit
  answer with its tolerance or range.
- `{T}`, `{FALSE#wrong#right}`: `truefalse`, the feedback for a right answer kept.
- `{}` essay and `{=a -> b}` matching are refused with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.content.importers.common import Collector, Draft
from bot.content.importers.gift_text import Text, with_format
from bot.texts.i18n import later

_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d*)?)%")
_TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}


@dataclass(frozen=True)
class Read:
    draft: Draft  # kind, options and answer; the prompt is filled in by the caller
    feedback: Text  # the right answer's feedback, the explanation when there is no general one


@dataclass(frozen=True)
class _Answer:
    text: Text
    feedback: Text
    weight: float  # 1.0 full credit, 0.5 half, negative a penalty


def read(answers: str, style: str, where: str, found: Collector) -> Read | None:
    """The question's answers, or None (and a skip) for what quizhost cannot ask."""
    if not answers:
        found.skip(where, later("an essay question (no answers between the braces): a teacher grades those"))
        return None
    if answers.startswith("#"):
        return _numerical(answers[1:], style, where, found)
    if "~" in answers:
        return _multichoice(answers, style, where, found)
    if "=" in answers and "->" in answers:
        found.skip(where, later("a matching question (=... -> ...): quizhost asks one thing at a time"))
        return None
    key = answers.split("#", 1)[0].strip()
    if key in _TRUE_FALSE:
        return _true_false(answers, style, key)
    return _short_answer(answers, style, where, found)


def _weighted(raw: str, style: str, default: float) -> _Answer:
    weight = default
    if match := _WEIGHT.match(raw):
        weight, raw = float(match.group(1)) / 100, raw[match.end() :]
    text, _, comment = raw.partition("#")
    return _Answer(with_format(text, style), with_format(comment, style), weight)


def _split(answers: str, mark: str) -> list[str]:
    return [a.strip() for a in answers.split(mark) if a.strip()]


def _multichoice(answers: str, style: str, where: str, found: Collector) -> Read | None:
    single = "=" in answers  # Moodle: one answer to pick when any option is marked `=`
    parsed: list[_Answer] = []
    for raw in _split(answers.replace("=", "~="), "~"):
        parsed.append(_weighted(raw[1:], style, 1.0) if raw.startswith("=") else _weighted(raw, style, 0.0))
    options = tuple(a.text.text for a in parsed)
    if len(options) < 2:
        found.skip(where, later("fewer than two options"))
        return None
    full = [i for i, a in enumerate(parsed) if a.weight >= 1.0]
    credited = [i for i, a in enumerate(parsed) if a.weight > 0]
    if len(full) == 1 and (single or credited == full):
        _note_partial(parsed, full, where, found, typed=False)
        return Read(Draft(where, "", options, full[0]), parsed[full[0]].feedback)
    if single:
        found.skip(
            where,
            later(
                "several right answers ({detail}): Moodle takes any one of them, which no quizhost kind asks",
                detail=later("{count} options have full credit", count=len(full)),
            ),
        )
        return None
    if not credited:
        found.skip(where, later("no option gives any credit"))
        return None
    return Read(Draft(where, "", options, credited, kind="multi", partial=len(credited) > 1), Text("", style))


def _note_partial(parsed: list[_Answer], right: list[int], where: str, found: Collector, typed: bool) -> None:
    for i, answer in enumerate(parsed):
        if i not in right and 0 < answer.weight < 1.0:
            values = {"answer": answer.text.text[:60], "percent": f"{answer.weight * 100:g}"}
            found.note(
                where,
                later("'{answer}' gives {percent}% of the credit in the source: here it is not accepted", **values)
                if typed
                else later(
                    "'{answer}' gives {percent}% of the credit in the source: here it counts as wrong", **values
                ),
            )


def _true_false(answers: str, style: str, key: str) -> Read:
    # {TRUE#feedback for a wrong answer#feedback for a right one}, as Moodle reads it. The reveal
    # shows everyone one explanation: the right answer's feedback, else the wrong answer's, which
    # says why it is wrong ("No one is buried in Grant's tomb.")
    _, wrong, right = (with_format(part, style) for part in [*answers.split("#", 2), "", ""][:3])
    return Read(Draft("", "", (), _TRUE_FALSE[key], kind="truefalse"), right if right.text or right.found else wrong)


def _short_answer(answers: str, style: str, where: str, found: Collector) -> Read | None:
    parsed = [_weighted(raw, style, 1.0) for raw in _split(answers, "=")]
    full = [i for i, a in enumerate(parsed) if a.weight >= 1.0]
    if not full:
        found.skip(where, later("a short-answer question with no full-credit answer"))
        return None
    _note_partial(parsed, full, where, found, typed=True)
    accept = tuple(dict.fromkeys(parsed[i].text.text for i in full if parsed[i].text.text))
    return Read(Draft(where, "", (), None, kind="typed", accept=accept), parsed[full[0]].feedback)


def _numerical(answers: str, style: str, where: str, found: Collector) -> Read | None:
    answers = answers.split("~", 1)[0]  # `~#feedback` after the answers: for any other number
    parsed = [_weighted(raw, style, 1.0) for raw in _split(answers, "=")]
    values = [(a, _number_answer(a.text.text)) for a in parsed]
    if not values or any(value is None for _, value in values):
        found.skip(
            where,
            later("a numerical question whose answer is not a number, a number:tolerance or a min..max range"),
        )
        return None
    full = [(a, value) for a, value in values if a.weight >= 1.0 and value is not None]
    if not full:
        found.skip(where, later("a numerical question with no full-credit answer"))
        return None
    for answer, _ in values:
        if answer is not full[0][0]:
            found.note(
                where,
                later(
                    "the answer {answer} ({percent}% of the credit in the source) is not kept: one answer is",
                    answer=answer.text.text,
                    percent=f"{answer.weight * 100:g}",
                ),
            )
    value, tolerance = full[0][1]
    return Read(Draft(where, "", (), value, kind="numeric", tolerance=tolerance or None), full[0][0].feedback)


def _number_answer(text: str) -> tuple[float | dict[str, float], float] | None:
    """'3.14:0.01' -> (3.14, 0.01); '1..2' -> ({min: 1, max: 2}, 0); '1822' -> (1822, 0)."""
    try:
        if ".." in text:
            low, high = (_number(part) for part in text.split("..", 1))
            return ({"min": low, "max": high}, 0.0) if low <= high else None
        value, _, spread = text.partition(":")
        return _number(value), abs(_number(spread)) if spread.strip() else 0.0
    except ValueError:
        return None


def _number(text: str) -> float:
    value = float(text.strip())
    return int(value) if value.is_integer() and abs(value) < 1e15 else value
