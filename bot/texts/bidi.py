"""Directional isolates so right-to-left messages (Urdu) read correctly in any chat client.

The Unicode Bidirectional Algorithm (UAX #9) orders a line by the direction of its characters.
In an Urdu line, Latin letters, digits and neutral signs can land in the wrong place: "+950"
shows as "950+", "/settings" as "settings/", "A) ..." at the start of a line makes the client
lay the whole line out left-to-right (clients take a paragraph's direction from its first
strong character, UAX #9 rules P2-P3), and "(p-1)/(m+p-1)" comes out as "(m+p-1)/(p-1)".

What we insert, and why (only for right-to-left languages; other texts are left untouched):

| mark | where | why |
| --- | --- | --- |
| RLM (U+200F) | first character of every non-empty line | a strong right-to-left character, so the client picks an RTL base direction even when the visible text starts with "A)", "ZeRO" or an emoji; unlike an RLI it does not hide the line from that first-strong detection |
| LRI … PDI (U+2066, U+2069) | option letters, numbers, counters ("3/8"), points ("+950"), durations, percentages, quiz ids; Latin/number runs inside Urdu text ("GPU", "Megatron-LM", "(p-1)/(m+p-1)") | the run keeps its left-to-right order and does not mix with the neighbouring signs; outside the run it counts as one neutral character, so ")" and "·" around it follow the Urdu line |
| RLI … PDI (U+2067, U+2069) | an Urdu quiz text placed inside a line (quiz title, option text) | keeps it right-to-left even when it starts with a Latin word ("ZeRO کا ...") |
| FSI … PDI (U+2068, U+2069) | text typed by users (player names, topics, language names) | its direction is unknown: the isolate takes the direction of its own first strong character |

Isolates, not the older embeddings (LRE/RLE/PDF): an isolate cannot disturb the text around it.
`strip()` removes all of these, the embeddings and overrides and ALM (U+061C) too: for comparing
rendered text with the source, and from what users type before it is kept (their names, their
answers), so nobody's text can reorder a line the bot writes. tests/unit/test_rtl.py
checks the exact marks and lays the lines out with a UBA implementation (python-bidi).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

from bot.domain.model import RTL_LANGUAGES, spoken

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
LRM, RLM, ALM = "\u200e", "\u200f", "\u061c"
EMBEDDINGS = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e")  # LRE, RLE, PDF, LRO, RLO: never ours
CONTROLS = frozenset((LRI, RLI, FSI, PDI, LRM, RLM, ALM, *EMBEDDINGS))
_WITHOUT_CONTROLS = dict.fromkeys(map(ord, CONTROLS))

# Signs that may sit inside a Latin run ("Megatron-LM", "CPU/NVMe", "(p-1)/(m+p-1)", "fp32", "50%").
_RUN_SIGNS = frozenset("+-−./:,%#'’_&=*×<>≈()[]|")
_LEADING_SIGNS = "/+#-−"  # kept at the start of a run when a letter or digit follows: "/quiz", "+3"
_OPENERS, _CLOSERS = "([", ")]"
# A placeholder group that reads left to right as one unit: "{number}/{total}", "+{points}", "{accuracy}%".
_GROUP = re.compile(r"[+#]?\{(\w+)\}(?:/\{(\w+)\})?%?")


def is_rtl(lang: str) -> bool:
    return spoken(lang) in RTL_LANGUAGES


def strip(text: str) -> str:
    """The text without directional marks, isolates and overrides. What users typed is kept so
    (bot/texts/textcut.py `clean`): an override in a name or an answer would reorder the rest
    of every line it is shown in, and an isolate of theirs would close ours early."""
    return text.translate(_WITHOUT_CONTROLS)


def has_rtl(text: str) -> bool:
    """Whether any letter is right-to-left (Arabic script, Hebrew, ...)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def ltr(text: str) -> str:
    return f"{LRI}{text}{PDI}"


def rtl(text: str) -> str:
    return f"{RLI}{text}{PDI}"


def auto(text: str) -> str:
    return f"{FSI}{text}{PDI}"


def embed(text: str) -> str:
    """A quiz text inside an RTL line: RTL (Latin runs isolated) if it has RTL letters, else LTR."""
    return rtl(isolate_runs(text)) if has_rtl(text) else ltr(text)


def line(text: str) -> str:
    """RLM at the start of every non-empty line: right-to-left paragraphs in any client."""
    return "\n".join(RLM + ln if ln and not ln.startswith(RLM) else ln for ln in text.split("\n"))


def block(text: str) -> str:
    """A quiz text shown as whole lines (prompt, explanation) in an RTL message."""
    lines = [isolate_runs(ln) if has_rtl(ln) else ltr(ln) if ln.strip() else ln for ln in text.split("\n")]
    return line("\n".join(lines))


def isolate_template(template: str, free: Collection[str] = ()) -> str:
    """Isolates in a translated RTL template, before its placeholders are filled.

    Each placeholder group that reads left to right gets LRI…PDI: "سوال {number}/{total}" ->
    "سوال ⁦{number}/{total}⁩", "+{points}" -> "⁦+{points}⁩", "{accuracy}%". Placeholders named
    in `free` are left alone (their values bring their own isolate). Latin runs of the literal
    text ("/quiz", "/settings time 20") are isolated as in `isolate_runs`. The groups are found
    in the translation, so a translator may move them anywhere.
    """
    out, last = [], 0
    for match in _GROUP.finditer(template):
        names = [n for n in match.groups() if n]
        out.append(isolate_runs(template[last : match.start()]))
        out.append(match.group(0) if any(n in free for n in names) else ltr(match.group(0)))
        last = match.end()
    out.append(isolate_runs(template[last:]))
    return "".join(out)


def format_rtl(template: str, values: Mapping[str, object], free: Mapping[str, Callable[[str], str]]) -> str:
    """Fill an RTL template: `free` values get their own isolate, the others are LTR groups."""
    filled = {k: free[k](str(v)) if k in free else v for k, v in values.items()}
    return isolate_template(template, free).format(**filled)


def isolate_runs(text: str) -> str:
    """LRI…PDI around every Latin or number run of an RTL text ("GPU", "N GPUs", "(p-1)/(m+p-1)")."""
    out, last = [], 0
    for start, end in _runs(text):
        out += [text[last:start], ltr(text[start:end])]
        last = end
    out.append(text[last:])
    return "".join(out)


# finding the runs ----------------------------------------------------------------------


def _is_strong(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("L", "EN")


def _in_run(ch: str) -> bool:
    return _is_strong(ch) or ch in _RUN_SIGNS or unicodedata.bidirectional(ch) == "NSM"


def _runs(text: str) -> list[tuple[int, int]]:
    """Spans of LTR runs: tokens joined across spaces when both sides are words, brackets balanced."""
    tokens = [span for span in _tokens(text) if span is not None]
    joined: list[tuple[int, int]] = []
    for start, end in tokens:
        if joined and _joinable(text, joined[-1], (start, end)):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return [piece for start, end in joined for piece in _balanced(text, start, end)]


def _tokens(text: str) -> Iterator[tuple[int, int] | None]:
    i = 0
    while i < len(text):
        if not _in_run(text[i]):
            i += 1
            continue
        j = i
        while j < len(text) and _in_run(text[j]):
            j += 1
        yield _trim(text, i, j)
        i = j


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop edge signs: a run starts with a letter, digit or "(", ends with one, "%" or ")"."""
    while start < end and not (
        _is_strong(text[start])
        or text[start] in _OPENERS
        or (text[start] in _LEADING_SIGNS and start + 1 < end and _is_strong(text[start + 1]))
    ):
        start += 1
    while end > start and not (
        _is_strong(text[end - 1])
        or text[end - 1] in _CLOSERS + "%"
        or unicodedata.bidirectional(text[end - 1]) == "NSM"
    ):
        end -= 1
    if not any(_is_strong(ch) for ch in text[start:end]):
        return None
    return start, end


def _joinable(text: str, left: tuple[int, int], right: tuple[int, int]) -> bool:
    """'N GPUs', 'ZeRO stage 3', '/settings time 20' and 'en, hi' are phrases; in 'مرحلہ 0 ZeRO
    شارڈنگ' the 0 belongs to the Urdu word before it: a phrase never starts with a bare number."""
    gap = text[left[1] : right[0]]
    if not gap or gap.strip(" ") not in ("", ","):  # spaces, or a Latin list: "en, hi, sn"
        return False
    return _has_letter(text[left[0] : left[1]])


def _has_letter(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) == "L" for ch in text)


def _balanced(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split a run at an unmatched bracket, which belongs to the RTL text around it."""
    stack: list[int] = []
    bad = None
    for i in range(start, end):
        ch = text[i]
        if ch in _OPENERS:
            stack.append(i)
        elif ch in _CLOSERS:
            if stack and _OPENERS.index(text[stack[-1]]) == _CLOSERS.index(ch):
                stack.pop()
            else:
                bad = i
                break
    if bad is None and stack:
        bad = stack[0]
    if bad is None:
        return [(start, end)]
    pieces = []
    for a, b in ((start, bad), (bad + 1, end)):
        trimmed = _trim(text, a, b)
        if trimmed is not None:
            pieces += _balanced(text, *trimmed)
    return pieces


@dataclass(frozen=True)
class Direction:
    """The isolating helpers for one language; for left-to-right languages each is the identity."""

    rtl: bool

    def ltr(self, text: str) -> str:
        return ltr(text) if self.rtl else text

    def auto(self, text: str) -> str:
        return auto(text) if self.rtl else text

    def embed(self, text: str) -> str:
        return embed(text) if self.rtl else text

    def line(self, text: str) -> str:
        return line(text) if self.rtl else text

    def block(self, text: str) -> str:
        return block(text) if self.rtl else text


def direction(lang: str) -> Direction:
    return Direction(is_rtl(lang))
