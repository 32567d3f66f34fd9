"""Plain text for screen readers (/settings plain on): the bot's own words without block bars or
decorative emoji, which a screen reader spells out one symbol at a time.

Only the bot's templates and marks are made plain, before any value fills them: a quiz's text and
a player's name are theirs and keep whatever they wrote.
"""

from __future__ import annotations

import re

from bot.domain.model import is_plain

# pictographs and dingbats (✅ ✓ ⚠ ⭐ 🏁), technical symbols (⏱ ⏹), geometric shapes and block
# elements (▫ ▓ ░), with the variation selector and joiner that build an emoji; a space after one
# goes with it ("✅ Right answer" -> "Right answer")
_DECORATION = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2300-\u23ff\u2580-\u25ff\u2b00-\u2bff\ufe0f\u200d]+ ?")


def undecorated(text: str) -> str:
    """`text` without its decorative symbols, each line without a space left at its end."""
    bare = _DECORATION.sub("", text)
    return bare if bare == text else "\n".join(line.rstrip() for line in bare.split("\n"))


def decor(lang: str, mark: str) -> str:
    """A decorative `mark` ("🎯 ", " 🔥"), or nothing where the chat reads plain text."""
    return "" if is_plain(lang) else mark
