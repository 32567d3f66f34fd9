"""What plain text (/settings plain on) must never show a screen reader: block bars, which it
spells one block at a time, and lines of decorative symbols alone."""

from __future__ import annotations

import re
from collections.abc import Iterable

BARS = re.compile("[\u2580-\u259f]")
# pictographs, dingbats, technical symbols, shapes (with the selector and joiner that build an
# emoji): what the bot decorates with
SYMBOL = "[\U0001f000-\U0001faff\u2600-\u27bf\u2300-\u23ff\u2580-\u25ff\u2b00-\u2bff\ufe0f\u200d]"
DECORATION = re.compile(SYMBOL)
SYMBOLS_ONLY = re.compile(rf"^(?:{SYMBOL}|\s)+$")


def unplain(texts: Iterable[str]) -> list[str]:
    """The texts with a bar, a symbol-only line, or any decorative symbol (the quizzes these
    tests play have none of their own)."""
    return [
        text
        for text in texts
        if BARS.search(text) or any(SYMBOLS_ONLY.match(line) for line in text.splitlines()) or DECORATION.search(text)
    ]
