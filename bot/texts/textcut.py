"""Text from platforms made safe to store and cut where a reader sees a character end.

`clean`: platforms hand over JSON, and JSON can carry a lone UTF-16 surrogate ("\\ud800"),
which no UTF-8 encoder takes: one such name in a group commit would fail every press in it. A
NUL does the same on PostgreSQL, which keeps none in a text, so it is dropped. It also drops
directional controls (overrides, isolates, marks) from what users wrote.
`cut`: a user-perceived character (a grapheme cluster: a flag, a family emoji, a letter with
its combining marks) is several code points; cutting between them shows a broken glyph.
Grapheme boundaries come from the `regex` package's `\\X` (Unicode's extended grapheme
clusters, kept current with each Unicode release by its maintainer), not a home-made table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import regex

from bot.texts import bidi

_GRAPHEME = regex.compile(r"\X")
ELLIPSIS = "…"


def clean(value: object) -> str:
    """`value` as text, with every lone surrogate replaced by U+FFFD (pairs are joined), without
    NULs and without directional controls (bidi.strip: a right-to-left override in a name or an
    answer would flip the rest of every line that shows it)."""
    text = value if isinstance(value, str) else "" if value is None else str(value)
    if "\x00" in text:  # PostgreSQL keeps no NUL in a text: the write it is in would fail
        text = text.replace("\x00", "")
    if text.isascii():
        return text
    return bidi.strip(text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace"))


def visible(value: object) -> str:
    """`value` `clean`ed for a terminal: every control character (C0, DEL, C1: an ESC that would
    start an escape sequence, a BEL, a CSI) and line or paragraph separator written as its escape
    (\\x1b, \\u2028), so a name a user chose shows as text and never steers the admin's terminal."""
    return "".join(_escaped(ch) for ch in clean(value))


def _escaped(ch: str) -> str:
    if unicodedata.category(ch) not in _STEERING:
        return ch
    return f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}"


_STEERING = frozenset(("Cc", "Zl", "Zp"))  # controls, line and paragraph separators


def cut(text: str, room: int, measure: Callable[[str], int] = len, mark: str = ELLIPSIS) -> str:
    """`text` if it fits `room` (as `measure` counts), else its longest run of whole graphemes
    that fits with `mark` after it."""
    if measure(text) <= room:
        return text
    left, kept = room - measure(mark), []
    for grapheme in _GRAPHEME.findall(text):
        left -= measure(grapheme)
        if left < 0:
            break
        kept.append(grapheme)
    return "".join(kept) + mark
