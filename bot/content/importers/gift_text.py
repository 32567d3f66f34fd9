"""GIFT texts: escapes, the `[format]` prefix, and the plain text and media a text becomes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.content.importers.markup import Found, html_with_media, linked_media, markdown_with_media, tidy

# Escaped characters become private-use placeholders while the structure is parsed.
_ESCAPES = {":": "\ue001", "#": "\ue002", "=": "\ue003", "{": "\ue004", "}": "\ue005", "~": "\ue006", "n": "\ue007"}
_BACKSLASH = "\ue000"
RESTORE = str.maketrans({_BACKSLASH: "\\", **{v: ("\n" if k == "n" else k) for k, v in _ESCAPES.items()}})
_FORMAT = re.compile(r"^\[(html|markdown|plain|moodle)\]")
# Moodle's default ("moodle auto-format") text is HTML with line breaks kept: tags it renders
_HTML_TAG = re.compile(
    r"</?(?:a|b|i|u|s|em|strong|p|div|span|br|hr|img|sub|sup|ul|ol|li|table|tr|td|th|h[1-6]|font|pre|code|"
    r"blockquote|center|small|big|mark|audio|video|source)"
    # attributes with their values, as editors write them: in "a<b and c>d" there is no tag
    r"(?:\s+[\w-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))*\s*/?>",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Text:
    """A source text as quizhost shows it, its format, and the media it pointed at."""

    text: str
    style: str
    found: tuple[Found, ...] = ()


def protect(text: str) -> str:
    """Escaped characters as placeholders, so they never count as GIFT's own marks."""
    text = text.replace("\\\\", _BACKSLASH)
    for char, placeholder in _ESCAPES.items():
        text = text.replace("\\" + char, placeholder)
    return text


def with_format(text: str, default: str) -> Text:
    text = text.strip()
    match = _FORMAT.match(text)
    style = match.group(1) if match else default
    text = (text[match.end() :] if match else text).translate(RESTORE)
    found: list[Found] = []
    if style == "html" or (style == "moodle" and _HTML_TAG.search(text)):
        text, found = html_with_media(text.replace("\n", "<br>") if style == "moodle" else text)
    elif style == "markdown":
        text, found = markdown_with_media(text)
    text, linked = linked_media(text) if style != "plain" else (text, [])
    return Text(tidy(text), style, (*found, *linked))
