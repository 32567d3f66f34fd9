"""Telegram's HTML parse mode, as strict as Telegram: what a message shows, or why it is refused.

Telegram refuses a message with an unknown tag, an unclosed or crossed tag, or a `<`, `>` or
`&` that is not part of a tag or entity ("can't parse entities"). The length limit applies to
the text after parsing, counted in UTF-16 code units.
"""

from __future__ import annotations

import re

TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "code",
    "pre",
    "blockquote",
    "tg-emoji",
}
BOLD = {"b", "strong"}
NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_TOKEN = re.compile(r"<(/?)([A-Za-z][\w-]*)((?:\s[^<>]*)?)>|&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z]+);|[<>&]")


class HtmlError(ValueError):
    pass


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def parse_html(raw: str) -> tuple[str, list[str]]:
    """(the visible text, the bold runs in it) or HtmlError."""
    out: list[str] = []
    open_tags: list[tuple[str, int]] = []
    bold: list[str] = []
    position = 0
    for match in _TOKEN.finditer(raw):
        out.append(raw[position : match.start()])
        position = match.end()
        closing, name, _attrs, entity = match.group(1), match.group(2), match.group(3), match.group(4)
        if name is not None:
            _tag(name.lower(), bool(closing), out, open_tags, bold, match.start())
        elif entity is not None:
            out.append(_entity(entity, match.start()))
        else:
            raise HtmlError(f"unexpected {match.group(0)!r} at byte offset {match.start()}: escape it")
    out.append(raw[position:])
    if open_tags:
        raise HtmlError(f"can't find end tag corresponding to start tag {open_tags[-1][0]}")
    return "".join(out), bold


def _tag(name: str, closing: bool, out: list[str], open_tags: list[tuple[str, int]], bold: list[str], at: int) -> None:
    if name not in TAGS:
        raise HtmlError(f'unsupported start tag "{name}" at byte offset {at}')
    if not closing:
        open_tags.append((name, len("".join(out))))
        return
    if not open_tags or open_tags[-1][0] != name:
        expected = open_tags[-1][0] if open_tags else ""
        raise HtmlError(f'unmatched end tag at byte offset {at}, expected "</{expected}>"')
    _, start = open_tags.pop()
    if name in BOLD:
        bold.append("".join(out)[start:])


def _entity(entity: str, at: int) -> str:
    if entity.startswith("#x"):
        return chr(int(entity[2:], 16))
    if entity.startswith("#"):
        return chr(int(entity[1:]))
    if entity in NAMED:
        return NAMED[entity]
    raise HtmlError(f'unsupported HTML entity "&{entity};" at byte offset {at}')
