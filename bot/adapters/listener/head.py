"""A request's head as the listener's lane takes it: only a plain, strict HTTP/1.1 POST to the
lane's path. Anything else (another method, path or version, a header that is not a plain
`name: value` line, a repeated header, no Host, chunked bodies, Upgrade, Expect) is not refused
here but left to aiohttp's parser, which takes the connection over from that request on and
answers it as it answers every other request (a 400 for what it cannot read). The lane's framing
is thus never looser than aiohttp's: a body's length is a single Content-Length of digits or none.

What the lane takes, h11 (a well-kept HTTP/1.1 parser) reads alike, field for field and to the
same last byte, with the same keep-alive: tests/adapters/web/test_lane_differential.py holds it
to that over 100,000 generated requests, the request-smuggling tricks among them."""

from __future__ import annotations

import re

TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
FIELDS = re.compile(rb"(?:" + TOKEN + rb":[^\x00-\x08\x0a-\x1f\x7f]*\r\n)*")  # checked in one pass, in C
LEFT_TO_AIOHTTP = frozenset({"transfer-encoding", "upgrade", "expect"})
# a LF with no CR before it: a head that has one is not plain, however it ends (h11 and aiohttp
# take a bare LF for a line's end, so such a head may be whole to them before a CRLF CRLF comes)
BARE_LF = re.compile(rb"(?<!\r)\n")
LENGTH_DIGITS = 12  # a length past a terabyte is refused as too large, not read


def parse_head(head: bytes, request_line: bytes, line_bytes: int) -> dict[str, str] | None:
    """The header fields (names lower-cased) of a request head (up to its last field's CRLF,
    without the blank line) when it is exactly `request_line` and plain header lines each at
    most `line_bytes` long; None otherwise."""
    start = len(request_line) + 2
    if not head.startswith(request_line) or head[start - 2 : start] != b"\r\n" or not FIELDS.fullmatch(head, start):
        return None
    fields: dict[str, str] = {}
    for line in head[start:-2].split(b"\r\n") if len(head) > start else ():
        name, _, value = line.partition(b":")
        key = name.decode("ascii").lower()
        if len(line) > line_bytes or key in fields or key in LEFT_TO_AIOHTTP:
            return None
        fields[key] = value.strip(b" \t").decode("utf-8", "surrogateescape")
    if "host" not in fields:  # an HTTP/1.1 request without one is answered 400 (RFC 9112, 3.2)
        return None
    length = fields.get("content-length", "0")
    if not (length.isascii() and length.isdigit() and len(length) <= LENGTH_DIGITS):
        return None
    return fields


def wants_close(fields: dict[str, str]) -> bool:
    """Whether the request asks for the connection to close after its answer: `close` among the
    Connection field's comma-separated options, in any case (RFC 9110, 7.6.1)."""
    options = fields.get("connection", "").lower().split(",")
    return any(option.strip(" \t") == "close" for option in options)


def media_type(content_type: str) -> str:
    """`application/json; charset=utf-8` -> `application/json`, as aiohttp's `content_type`."""
    return content_type.partition(";")[0].strip().lower()
