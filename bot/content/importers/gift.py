r"""Moodle's GIFT format: multiple choice with one full-credit answer, and true/false.

Follows Moodle's own reader (question/format/gift/format.php): questions are blocks separated
by blank lines, `//` lines are comments, `\\` `\:` `\#` `\=` `\{` `\}` `\~` `\n` are escapes,
the answers sit between the first `{` and the first `}`, `####` starts the general feedback,
and a `[html]`, `[markdown]`, `[plain]` or `[moodle]` prefix gives a text's format.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from bot.content.importers.common import Collector, Draft, Parsed, decode_text
from bot.content.importers.markup import html_to_text, markdown_to_text, tidy
from bot.texts.i18n import later

# Escaped characters become private-use placeholders while the structure is parsed.
_ESCAPES = {":": "\ue001", "#": "\ue002", "=": "\ue003", "{": "\ue004", "}": "\ue005", "~": "\ue006", "n": "\ue007"}
_BACKSLASH = "\ue000"
_RESTORE = str.maketrans({_BACKSLASH: "\\", **{v: ("\n" if k == "n" else k) for k, v in _ESCAPES.items()}})
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d*)?)%")
_FORMAT = re.compile(r"^\[(html|markdown|plain|moodle)\]")
_TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}
# Moodle's embedded answers (Cloze): `{1:MC:~a~=b}`, `{:SHORTANSWER:=x}`, one per blank in the text
_CLOZE = re.compile(r"\{\s*\d*\s*:\s*[A-Z_]+\s*:")
# Moodle's default ("moodle auto-format") text is HTML with line breaks kept: tags it renders
_HTML_TAG = re.compile(
    r"</?(?:a|b|i|u|s|em|strong|p|div|span|br|hr|img|sub|sup|ul|ol|li|table|tr|td|th|h[1-6]|font|pre|code|"
    r"blockquote|center|small|big|mark)"
    # attributes with their values, as editors write them: in "a<b and c>d" there is no tag
    r"(?:\s+[\w-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))*\s*/?>",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Block:
    line: int  # 1-based line of the block's first non-comment line
    text: str


def parse(data: bytes) -> Parsed:
    found = Collector()
    for block in _blocks(decode_text(data)):
        _read_block(block, found)
    return found.parsed()


def _blocks(text: str) -> Iterator[_Block]:
    """Blank-line separated blocks without their comment lines, each with its first line."""
    lines: list[str] = []
    start = 0
    for number, line in enumerate([*text.split("\n"), ""], start=1):
        if line.strip().startswith("//"):
            continue
        if line.strip():
            start = start or number
            lines.append(line)
        elif lines:
            yield _Block(start, "\n".join(lines).strip())
            lines, start = [], 0


def _protect(text: str) -> str:
    text = text.replace("\\\\", _BACKSLASH)
    for char, placeholder in _ESCAPES.items():
        text = text.replace("\\" + char, placeholder)
    return text


def _read_block(block: _Block, found: Collector) -> None:
    where = f"line {block.line}"
    text = _protect(block.text)
    if text.startswith("$CATEGORY:"):
        category, _, text = text[len("$CATEGORY:") :].partition("\n")
        for part in category.translate(_RESTORE).split("/"):
            if part.strip() and not (part.strip().startswith("$") or part.strip() in ("top", "Default")):
                found.tag(part.strip())
        text = text.strip()
        if not text:
            return
    if text.startswith("::"):
        name_end = text.find("::", 2)
        text = text[name_end + 2 :].strip() if name_end >= 0 else text[2:]
    if _CLOZE.search(text):
        found.skip(
            where,
            later("an embedded-answers (Cloze) question: each blank has answers of its own, which quizhost cannot ask"),
        )
        return
    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        found.skip(where, later("no answers in braces: a description, not a question"))
        return
    if start < 0 or finish < start:
        found.skip(
            where,
            later(
                "'{open}' and '{close}' do not pair up: escape a literal brace as \\{open} or \\{close}",
                open="{",
                close="}",
            ),
        )
        return
    answers = text[start + 1 : finish].strip()
    prompt = text[:start] + text[finish + 1 :] if text.endswith("}") else text[:start] + "_____" + text[finish + 1 :]
    feedback = ""
    if "####" in answers:
        answers, feedback = answers[: answers.rfind("####")].strip(), answers[answers.rfind("####") + 4 :]
    prompt, style = _with_format(prompt, "moodle")
    draft = _question(answers, style, where, found)
    if draft is not None:
        general = _with_format(feedback, style)[0]
        found.keep(Draft(where, prompt, draft.options, draft.answer, general or draft.explanation))


def _with_format(text: str, default: str) -> tuple[str, str]:
    """The plain text and the format named by its `[html]`-style prefix (else `default`)."""
    text = text.strip()
    match = _FORMAT.match(text)
    style = match.group(1) if match else default
    text = text[match.end() :] if match else text
    if style == "html" or (style == "moodle" and _HTML_TAG.search(text)):
        text = html_to_text(text.replace("\n", "<br>") if style == "moodle" else text)
    elif style == "markdown":
        text = markdown_to_text(text)
    return tidy(text.translate(_RESTORE)), style


def _question(answers: str, style: str, where: str, found: Collector) -> Draft | None:
    """Options, answer and the right answer's feedback; None (and a skip) for other kinds."""
    kind = _kind(answers)
    if kind == "multichoice":
        return _multichoice(answers, style, where, found)
    if kind == "truefalse":
        return _true_false(answers, style)
    reasons = {
        "essay": later("an essay question (no answers between the braces)"),
        "numerical": later("a numerical question ({example})", example="{#...}"),
        "match": later("a matching question (=... -> ...)"),
        "shortanswer": later("a short-answer question (only =answers, no ~wrong ones)"),
    }
    found.skip(
        where,
        later("{kind}: only multiple choice with one right answer and true/false are imported", kind=reasons[kind]),
    )
    return None


def _kind(answers: str) -> str:
    """The question type, decided in the order Moodle decides it."""
    if not answers:
        return "essay"
    if answers.startswith("#"):
        return "numerical"
    if "~" in answers:
        return "multichoice"
    if "=" in answers and "->" in answers:
        return "match"
    return "truefalse" if answers.split("#", 1)[0].strip() in _TRUE_FALSE else "shortanswer"


def _multichoice(answers: str, style: str, where: str, found: Collector) -> Draft | None:
    options: list[str] = []
    feedbacks: list[str] = []
    weights: list[float] = []
    for raw in (a.strip() for a in answers.replace("=", "~=").split("~")):
        if not raw:
            continue
        weight = 0.0
        if raw.startswith("="):
            weight, raw = 1.0, raw[1:]
        elif match := _WEIGHT.match(raw):
            weight, raw = float(match.group(1)) / 100, raw[match.end() :]
        text, _, comment = raw.partition("#")
        options.append(_with_format(text, style)[0])
        feedbacks.append(_with_format(comment, style)[0])
        weights.append(weight)
    full = [i for i, w in enumerate(weights) if w >= 1.0]
    if len(options) < 2:
        found.skip(where, later("fewer than two options"))
        return None
    if len(full) != 1:
        partial = sum(1 for w in weights if 0 < w < 1.0)
        detail = (
            later("{count} options have full credit", count=len(full))
            if full
            else later("{count} options share the credit", count=partial)
        )
        found.skip(where, later("several right answers ({detail}): a quiz question has exactly one", detail=detail))
        return None
    return Draft(where, "", tuple(options), full[0], feedbacks[full[0]])


def _true_false(answers: str, style: str) -> Draft:
    # {TRUE#feedback for a wrong answer#feedback for a right one}, as Moodle reads it
    key, _wrong, right = [*answers.split("#", 2), "", ""][:3]
    is_true = _TRUE_FALSE[key.strip()]
    return Draft("", "", ("True", "False"), 0 if is_true else 1, _with_format(right, style)[0])
