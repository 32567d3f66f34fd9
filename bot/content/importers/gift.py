r"""Moodle's GIFT format, every kind Moodle's own reader (question/format/gift/format.php) knows.

Questions are blocks separated by blank lines, `//` lines are comments, `\\` `\:` `\#` `\=` `\{`
`\}` `\~` `\n` are escapes, the answers sit between the first `{` and the first `}`, `####`
starts the general feedback, and a `[html]`, `[markdown]`, `[plain]` or `[moodle]` prefix gives
a text's format (Moodle's default, "moodle", is HTML with its line breaks kept).

Multiple choice, several right answers, true/false, short answer and numerical questions map to
quizhost's kinds (`gift_answers`); essay, matching and embedded-answer (Cloze) questions are
refused with the reason, as are questions with several blanks (`{=a} and {=b}`, which Moodle
reads as one blank and a text showing the other's answer); descriptions are left out. Pictures
and sounds in a text become the question's media when they are http(s) URLs; a description's
sound (a listening exercise's recording) goes with the questions after it, up to the next
description.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from bot.content.importers import gift_answers
from bot.content.importers.common import Collector, Medium, Parsed, decode_text
from bot.content.importers.gift_text import RESTORE, Text, protect, with_format
from bot.content.importers.media import kept_medium
from bot.texts.i18n import later

# Moodle's embedded answers (Cloze): `{1:MC:~a~=b}`, `{:SHORTANSWER:=x}`, one per blank in the text
_CLOZE = re.compile(r"\{\s*\d*\s*:\s*[A-Z_]+\s*:")


@dataclass(frozen=True)
class _Block:
    line: int  # 1-based line of the block's first non-comment line
    text: str


def parse(data: bytes) -> Parsed:
    found = Collector()
    carried: Medium | None = None  # a description's recording, for the questions after it
    for block in _blocks(decode_text(data)):
        carried = _read_block(block, found, carried)
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


def _read_block(block: _Block, found: Collector, carried: Medium | None) -> Medium | None:
    """Reads one block; returns the recording later questions carry."""
    where = f"line {block.line}"
    text = protect(block.text)
    if text.startswith("$CATEGORY:"):
        category, _, text = text[len("$CATEGORY:") :].partition("\n")
        for part in category.translate(RESTORE).split("/"):
            if part.strip() and not (part.strip().startswith("$") or part.strip() in ("top", "Default")):
                found.tag(part.strip())
        text, carried = text.strip(), None
        if not text:
            return None
    if text.startswith("::"):
        name_end = text.find("::", 2)
        text = text[name_end + 2 :].strip() if name_end >= 0 else text[2:]
    if _CLOZE.search(text):
        found.skip(
            where,
            later("an embedded-answers (Cloze) question: each blank has answers of its own, which quizhost cannot ask"),
        )
        return carried
    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        return _description(with_format(text, "moodle"), where, found)
    if start < 0 or finish < start:
        found.skip(
            where,
            later(
                "'{open}' and '{close}' do not pair up: escape a literal brace as \\{open} or \\{close}",
                open="{",
                close="}",
            ),
        )
        return carried
    if "{" in text[finish + 1 :]:  # Moodle reads the first braces only: the next blank's answer would show
        found.skip(
            where,
            later("several blanks with answers in braces: quizhost asks one blank a question, so make each its own"),
        )
        return carried
    _question(text, start, finish, where, found, carried)
    return carried


def _description(text: Text, where: str, found: Collector) -> Medium | None:
    sound = next((f for f in text.found if f.kind != "image"), None)
    recording = kept_medium([sound], where, later("the description"), found) if sound else None
    found.pass_over(
        where,
        later("a description (no answers in braces), not a question: its recording goes with the questions after it")
        if recording
        else later("no answers in braces: a description, not a question"),
    )
    return recording


def _question(text: str, start: int, finish: int, where: str, found: Collector, carried: Medium | None) -> None:
    answers = text[start + 1 : finish].strip()
    prompt_text = (
        text[:start] + text[finish + 1 :] if text.endswith("}") else text[:start] + "_____" + text[finish + 1 :]
    )
    feedback = ""
    if "####" in answers:
        answers, feedback = answers[: answers.rfind("####")].strip(), answers[answers.rfind("####") + 4 :]
    prompt = with_format(prompt_text, "moodle")
    read = gift_answers.read(answers, prompt.style, where, found)
    if read is None:
        return
    general = with_format(feedback, prompt.style)
    explained = general if general.text or general.found else read.feedback
    media = kept_medium(prompt.found, where, later("the question"), found)
    if media is None and prompt.found and not prompt.text.replace("_____", "").strip():
        found.skip(where, later("the question is only a picture that cannot be kept"))
        return
    draft = replace(
        read.draft,
        where=where,
        prompt=prompt.text,
        explanation=explained.text,
        media=media or carried,
        explanation_media=kept_medium(explained.found, where, later("the explanation"), found),
    )
    found.keep(draft)
