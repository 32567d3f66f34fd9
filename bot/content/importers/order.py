"""Options whose order means something, found in what other tools' files say.

Teachers write options that carry their own letter ("C. trật tự thế giới mới") or that point at
other options ("All of the above", "Son correctas a) y b)"). Shuffled, the first show under a
letter that is not theirs and the second point at the wrong options. The letters are stripped
(quizhost shows its own) and such a question keeps its authoring order (`shuffle: false`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# "A. text", "b) text", "(C) text": a letter, its mark, a space
_OWN_LETTER = re.compile(r"^\(?([A-Za-z])\s*[.)]\s+(\S.*)$", re.DOTALL)
_LETTER = r"(?:[A-Ha-h]\)|[A-H]\b)"  # "a)", "B)" or a capital alone ("A and B"): "a and b" is algebra
_JOIN = r"(?i:and|or|&|,|y|o|e|et|ou|und|oder|và|hoặc)"
_REFERS = re.compile(
    r"(?i:\b(?:all|none|both|any|neither) of (?:the )?(?:above|these|those|them|the options)\b"
    r"|\b(?:todas|ninguna|ambas) (?:de )?(?:las )?(?:anteriores|respuestas anteriores|opciones)\b"
    r"|\b(?:alle|keine) (?:der )?(?:oben|obigen|genannten)\b"
    r"|\b(?:toutes|aucune) (?:les |des )?(?:réponses )?(?:ci-dessus|précédentes)\b"
    r"|(?:tất cả|cả hai|không có) (?:các |những )?(?:đáp án|phương án|câu) (?:trên|đều đúng|đều sai))"
    r"|(?i:\bcả)\s+" + _LETTER + r"\s*(?:và|,)\s*" + _LETTER + r"|" + _LETTER + r"\s*" + _JOIN + r"\s*" + _LETTER
)


def own_letters_removed(options: Sequence[str]) -> tuple[str, ...] | None:
    """The options without their letters, when each carries the letter of its place in the list
    (A, B, C... or a, b, c...); None when they do not."""
    found = [_OWN_LETTER.match(option.strip()) for option in options]
    if not all(found) or len(options) < 2:
        return None
    letters = "".join(match.group(1) for match in found if match)
    if letters not in ("ABCDEFGHIJ"[: len(options)], "abcdefghij"[: len(options)]):
        return None
    return tuple(match.group(2).strip() for match in found if match)


def refers_to_others(options: Sequence[str]) -> bool:
    """Whether an option points at other options by place ("all of the above", "a) and b)")."""
    return any(_REFERS.search(option) for option in options)


def in_meaningful_order(options: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """The options to keep (letters stripped where they carried their own) and whether they may be
    shuffled."""
    stripped = own_letters_removed(options)
    kept = stripped if stripped is not None else tuple(options)
    return kept, stripped is None and not refers_to_others(kept)
