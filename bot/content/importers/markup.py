"""Marked-up source texts ([html], [markdown]) to the plain text quizhost shows as is, and the
pictures and sounds they point at (kept as the question's media, never as tags in the text)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import PurePosixPath

from bot.content.question_kinds import AUDIO_SUFFIXES, VIDEO_SUFFIXES

_BLOCK_TAGS = frozenset(
    {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "ul", "ol", "table"}
)
_DROPPED_TAGS = frozenset({"script", "style"})  # their content is code, never text to show
# Any HTML element a text may carry: what the corpus bench looks for in imported texts
HTML_TAG = re.compile(
    r"</?(?:a|abbr|audio|b|big|blockquote|br|center|code|del|div|em|font|h[1-6]|hr|i|iframe|img|ins|li|mark|ol|p|"
    r"pre|s|small|source|span|strike|strong|sub|sup|table|tbody|td|th|thead|tr|u|ul|video)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
_SOFT = "\x00"  # the edge of a block: a line break, once however many blocks meet there
_SOFT_BREAKS = re.compile("[ \t]*\x00[\\s\x00]*")
_MEDIA_URL = re.compile(r"https?://[^\s<>\"')\]]+")


@dataclass(frozen=True)
class Found:
    """A picture or sound a text points at, as written (a URL, a path, @@PLUGINFILE@@/...)."""

    src: str
    kind: str  # image, audio or video
    alt: str = ""


def media_kind(src: str) -> str | None:
    """audio or video when a link's file says so, else None."""
    suffix = PurePosixPath(src.split("?", 1)[0].split("#", 1)[0]).suffix.casefold()
    return "audio" if suffix in AUDIO_SUFFIXES else "video" if suffix in VIDEO_SUFFIXES else None


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.found: list[Found] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        if tag in _DROPPED_TAGS:
            self._dropping += 1
        elif tag == "li":
            self.parts.append(_SOFT + "• ")  # a list item reads as one in a chat message
        elif tag == "br":
            self.parts.append("\n")
        elif tag in _BLOCK_TAGS:
            self.parts.append(_SOFT)
        elif tag == "img" and named.get("src"):
            self.found.append(Found(named["src"], "image", named.get("alt", "")))
        elif tag in ("audio", "video", "source") and named.get("src"):
            self.found.append(Found(named["src"], media_kind(named["src"]) or ("video" if tag == "video" else "audio")))
        elif tag == "a" and (kind := media_kind(named.get("href", ""))):
            self.found.append(Found(named["href"], kind))

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_TAGS:
            self._dropping = max(0, self._dropping - 1)
        elif tag in _BLOCK_TAGS and tag != "br":
            self.parts.append(_SOFT)

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.parts.append(data)


def html_to_text(text: str) -> str:
    return html_with_media(text)[0]


def html_with_media(text: str) -> tuple[str, list[Found]]:
    """The text without its tags (line breaks kept), and the media its tags point at."""
    parser = _TextOnly()
    parser.feed(text)
    parser.close()
    # where blocks meet (</p><ul><li>) one line break, not one per tag
    return tidy(_SOFT_BREAKS.sub("\n", "".join(parser.parts))), parser.found


def linked_media(text: str) -> tuple[str, list[Found]]:
    """Links to sound or video files written out in the text, taken out of it as media."""
    found = [Found(url, kind) for url in _MEDIA_URL.findall(text) if (kind := media_kind(url))]
    for medium in found:
        text = text.replace(medium.src, "")
    return tidy(text), found


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_MD_EMPHASIS = re.compile(r"(\*\*|__|\*|_|~~|`+)(?=\S)(.+?)(?<=\S)\1")
_MD_LINE_MARKS = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?=\S))")


def markdown_to_text(text: str) -> str:
    return markdown_with_media(text)[0]


def markdown_with_media(text: str) -> tuple[str, list[Found]]:
    """The text without its marks, and the pictures (`![alt](url)`) it shows."""
    found = [Found(m.group(2), "image", m.group(1)) for m in _MD_LINK.finditer(text) if m.group(0).startswith("!")]
    text = _MD_LINK.sub(lambda m: "" if m.group(0).startswith("!") else m.group(0), text)
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2) and m.group(1) else m.group(1), text)
    for _ in range(2):  # nested emphasis: **_word_**
        text = _MD_EMPHASIS.sub(r"\2", text)
    return tidy(_MD_LINE_MARKS.sub("", text)), found


def tidy(text: str) -> str:
    """Spaces collapsed inside lines, no empty lines at the ends, at most one blank line between."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def unescape_entities(text: str) -> str:
    return html.unescape(text)
