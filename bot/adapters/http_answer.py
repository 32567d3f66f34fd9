"""An HTTP/1.1 answer read from the bytes that have come so far: its status, and whether its
connection may carry another request (bot/adapters/keepalive.py, which writes its requests
itself). Only what the answer's framing needs is read: the status line, the Connection,
Content-Length and Transfer-Encoding headers, and the body's length or chunks.
"""

from __future__ import annotations

MAX_HEAD = 16 * 1024  # a status line and headers longer than this are not an answer we expect
MAX_BODY = 1024 * 1024  # nor is a longer body
NO_BODY = (b"204", b"304")  # statuses whose answer ends with its head


class Unreadable(Exception):
    """Not an answer the connection can carry on after (malformed, or oversized)."""


def parsed(received: bytes) -> tuple[int, bool] | None:
    """The answer's status, and whether the connection may carry another request; None while
    more of it is to come."""
    end = received.find(b"\r\n\r\n")
    if end < 0:
        if len(received) > MAX_HEAD:
            raise Unreadable()
        return None
    head = received[: end + 4].lower()  # names and the values read here: any case
    code = head[9:12]
    if not head.startswith(b"http/1.") or head[12:13] not in (b" ", b"\r") or not code.isdigit():
        raise Unreadable()
    keep = head.startswith(b"http/1.1") and _header(head, b"connection") != b"close"
    length = _header(head, b"content-length")
    body = end + 4
    if code in NO_BODY:  # whatever its headers say (RFC 9112, 6.3): Discord's plain callback answer
        answered: int | None = body
    elif b"chunked" in (_header(head, b"transfer-encoding") or b""):
        answered = _chunks_end(received, body)
    elif length is not None:
        if not length.isdigit() or int(length) > MAX_BODY:
            raise Unreadable()
        answered = body + int(length) if len(received) >= body + int(length) else None
    else:  # the body runs to the end of the connection: not worth waiting for, it is not kept
        return int(code), False
    if answered is None:
        return None
    return int(code), keep and answered == len(received)  # bytes past the answer: out of step


def _header(head: bytes, name: bytes) -> bytes | None:
    """A header's value in a lowercased head, None when it has none (the first of repeats)."""
    start = head.find(b"\r\n" + name + b":")
    if start < 0:
        return None
    start += len(name) + 3
    return head[start : head.find(b"\r\n", start)].strip()


def _chunks_end(received: bytes, at: int) -> int | None:
    """Where a chunked body that starts at `at` ends (its trailers and blank line included);
    None while more of it is to come."""
    total = 0
    while True:
        line_end = received.find(b"\r\n", at)
        if line_end < 0:
            return None
        size_line = received[at:line_end]
        size = int(size_line.split(b";")[0].strip(), 16) if _hex(size_line) else -1
        if size < 0 or total + size > MAX_BODY:
            raise Unreadable()
        at = line_end + 2
        if size == 0:
            while True:  # trailers, then the blank line
                line_end = received.find(b"\r\n", at)
                if line_end < 0:
                    return None
                if line_end == at:
                    return at + 2
                at = line_end + 2
        if len(received) < at + size + 2:
            return None
        at += size + 2
        total += size


def _hex(line: bytes) -> bool:
    digits = line.split(b";")[0].strip()
    return bool(digits) and all(c in b"0123456789abcdefABCDEF" for c in digits)
