"""Marked-up source texts ([html], [markdown]) to the plain text quizhost shows as is."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BLOCK_TAGS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote"})
_DROPPED_TAGS = frozenset({"script", "style"})  # their content is code, never text to show


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_TAGS:
            self._dropping += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")
        elif tag == "img":
            alt = dict(attrs).get("alt")
            self.parts.append(f"[{alt}]" if alt else "")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_TAGS:
            self._dropping = max(0, self._dropping - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.parts.append(data)


def html_to_text(text: str) -> str:
    parser = _TextOnly()
    parser.feed(text)
    parser.close()
    return tidy("".join(parser.parts))


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_MD_EMPHASIS = re.compile(r"(\*\*|__|\*|_|~~|`+)(?=\S)(.+?)(?<=\S)\1")
_MD_LINE_MARKS = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?=\S))")


def markdown_to_text(text: str) -> str:
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) and m.group(1) else m.group(1), text)
    for _ in range(2):  # nested emphasis: **_word_**
        text = _MD_EMPHASIS.sub(r"\2", text)
    return tidy(_MD_LINE_MARKS.sub("", text))


def tidy(text: str) -> str:
    """Spaces collapsed inside lines, no empty lines at the ends, at most one blank line between."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def unescape_entities(text: str) -> str:
    return html.unescape(text)
