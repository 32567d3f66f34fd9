"""A request's head as the listener's lane takes it: only a plain, strict HTTP/1.1 POST to the
lane's path. Anything else (another method, path or version, a header that is not a plain
`name: value` line, a repeated header, chunked bodies, Upgrade, Expect) is not refused here but
left to aiohttp's parser, which takes the connection over from that request on and answers it
as it answers every other request (a 400 for what it cannot read). The lane's framing is thus
never looser than aiohttp's: a body's length is a single Content-Length of digits or none."""

from __future__ import annotations

import re

FIELD = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*")
LEFT_TO_AIOHTTP = frozenset({"transfer-encoding", "upgrade", "expect"})
MAX_FIELDS = 100
LENGTH_DIGITS = 12  # a length past a terabyte is refused as too large, not read


def parse_head(head: bytes, request_line: bytes, line_bytes: int) -> dict[str, str] | None:
    """The header fields (names lower-cased) of a request head without its blank line, when it
    is exactly `request_line` and plain headers each at most `line_bytes` long; None otherwise."""
    lines = head.split(b"\r\n")
    if lines[0] != request_line or len(lines) > MAX_FIELDS:
        return None
    fields: dict[str, str] = {}
    for line in lines[1:]:
        match = FIELD.fullmatch(line) if len(line) <= line_bytes else None
        if match is None:
            return None
        name = match[1].decode("ascii").lower()
        if name in fields or name in LEFT_TO_AIOHTTP:
            return None
        fields[name] = match[2].decode("utf-8", "surrogateescape")
    length = fields.get("content-length", "0")
    if not (length.isascii() and length.isdigit() and len(length) <= LENGTH_DIGITS):
        return None
    return fields


def media_type(content_type: str) -> str:
    """`application/json; charset=utf-8` -> `application/json`, as aiohttp's `content_type`."""
    return content_type.partition(";")[0].strip().lower()
