"""Generated HTTP/1.1 requests for the differential test of the listener's lane against h11
(tests/adapters/web/test_lane_differential.py): plain posts to the lane's path, as Telegram and
Discord send them, and hostile ones, each named by its case. A case is one request's bytes; a
stream is a few of them back to back (pipelined), sent in pieces cut anywhere.

The hostile cases are the request-smuggling and parser-confusion tricks: two Content-Length
fields (equal or not, or one list), Content-Length with Transfer-Encoding, malformed lengths,
obsolete line folding, bare LF and bare CR line ends, NUL and the other control bytes anywhere in
the head, a space before the colon, leading blank lines, other methods, targets and versions,
Host missing or twice, Connection lists, lines and heads at and past their bounds, bodies
shorter or longer than their length says (the next request then starts inside one), and a few
bytes of a plain request overwritten at random."""

from __future__ import annotations

import random
from collections.abc import Callable

PATH = "hook"
LINE = b"POST /hook HTTP/1.1"
TOKEN_CHARS = b"!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
VALUE_CHARS = bytes(range(0x20, 0x7F)) + b"\t" + bytes(range(0x80, 0x100))
CONTROLS = bytes([*range(0x00, 0x20), 0x7F])
TRICKY = CONTROLS + b" :,;\r\n\t\x80\xff0123456789"
LINE_BYTES = 8190  # the listener's bound on a request or header line (Bounds.line_bytes)
HEAD_BYTES = 16 << 10  # h11's bound on a head in the making, and the lane's

Head = list[bytes]  # the request line, then each header line, without their line ends


def _over(chars: bytes) -> bytes:
    """A table for `bytes.translate` that maps every byte to one of `chars` (a random byte
    becomes a random one of them, nearly evenly, at C speed)."""
    return bytes(chars[n % len(chars)] for n in range(256))


TOKEN_TABLE, VALUE_TABLE = _over(TOKEN_CHARS), _over(VALUE_CHARS)
BODY_TABLE = _over(b'{}[]":,0123456789abcdefgh \r\n\x00\xff')


def _token(rng: random.Random, most: int = 12) -> bytes:
    return rng.randbytes(rng.randint(1, most)).translate(TOKEN_TABLE)


def _value(rng: random.Random) -> bytes:
    return rng.randbytes(rng.randint(0, 24)).translate(VALUE_TABLE).strip(b" \t")


def _body(rng: random.Random) -> bytes:
    pick = rng.random()
    if pick < 0.15:
        return b""
    if pick < 0.3:  # a request hidden in the body: only a parser that loses the framing sees it
        return b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    return rng.randbytes(rng.randint(1, 80)).translate(BODY_TABLE)


def plain(rng: random.Random, body: bytes) -> Head:
    """A post as Telegram's webhook or Discord's endpoint gets it, with a few fields of any name."""
    fields = [
        b"Host: bot.example:8443",
        b"Content-Type: application/json",
        b"X-Telegram-Bot-Api-Secret-Token: " + _token(rng, 40),
        b"Content-Length: %d" % len(body),
    ]
    for _ in range(rng.randint(0, 3)):
        fields.insert(rng.randint(1, len(fields)), _token(rng) + b":" + rng.choice((b"", b" ", b"\t")) + _value(rng))
    return [LINE, *fields]


def _set(head: Head, name: bytes, *lines: bytes) -> Head:
    """`head` with `name`'s lines replaced by `lines` (at the first one's place, or at the end)."""
    at = next((n for n, line in enumerate(head) if line.lower().startswith(name.lower() + b":")), len(head))
    rest = [line for line in head if not line.lower().startswith(name.lower() + b":")]
    return rest[:at] + list(lines) + rest[at:]


def _join(head: Head, body: bytes, ends: Callable[[int], bytes] = lambda n: b"\r\n") -> bytes:
    return b"".join(line + ends(n) for n, line in enumerate(head)) + b"\r\n" + body


# the cases: each makes one request's bytes -------------------------------------------------------


def case_valid(rng: random.Random) -> bytes:
    body = _body(rng)
    return _join(plain(rng, body), body)


def case_no_length(rng: random.Random) -> bytes:
    body = _body(rng)
    return _join(_set(plain(rng, body), b"Content-Length"), body if rng.random() < 0.3 else b"")


def case_connection(rng: random.Random) -> bytes:
    body = _body(rng)
    value = rng.choice(
        (
            b"close",
            b"Close",
            b"CLOSE",
            b"keep-alive",
            b"keep-alive, close",
            b"close,keep-alive",
            b" close ",
            b"closed",
            b"upgrade",
            b"te, close",
            b",close",
            b"x-close",
            b"close;",
            b"clo se",
            b"close\xc2\xa0",
            b"\tclose",
        )
    )
    return _join(_set(plain(rng, body), b"Connection", b"Connection: " + value), body)


def case_two_lengths(rng: random.Random) -> bytes:
    body = _body(rng)
    n, other = len(body), rng.choice((len(body), len(body) + 1, max(len(body) - 1, 0), 0))
    lines = rng.choice(
        (
            [b"Content-Length: %d" % n, b"Content-Length: %d" % other],
            [b"Content-Length: %d, %d" % (n, other)],
            [b"Content-Length: %d" % n, b"content-length: %d" % other],
            [b"Content-Length: %d" % n, b"Content-Length: %d,%d" % (n, other)],
        )
    )
    return _join(_set(plain(rng, body), b"Content-Length", *lines), body)


def _chunked(body: bytes) -> bytes:
    return (b"%x\r\n%s\r\n" % (len(body), body) if body else b"") + b"0\r\n\r\n"


def case_transfer_encoding(rng: random.Random) -> bytes:
    body = _body(rng)
    coding = rng.choice(
        (
            b"chunked",
            b"Chunked",
            b" chunked",
            b"chunked ",
            b"gzip, chunked",
            b"identity",
            b"chunked, identity",
            b"\tchunked",
            b"chunk",
            b"chunked\x0b",
            b"xchunked",
            b'"chunked"',
        )
    )
    head = plain(rng, body)
    te = b"Transfer-Encoding: " + coding
    lines = rng.choice(([te], [te, b"Transfer-Encoding: chunked"], [b"Transfer-Encoding:", b" " + coding]))
    if rng.random() < 0.5:
        head = _set(head, b"Content-Length")  # chunked alone; else both, Content-Length first or last
    head = head + lines if rng.random() < 0.5 else [head[0], *lines, *head[1:]]
    return _join(head, _chunked(body) if rng.random() < 0.8 else body)


def case_bad_length(rng: random.Random) -> bytes:
    body = _body(rng)
    n = len(body)
    value = rng.choice(
        (
            b"+%d" % n,
            b"-%d" % n,
            b"0x%x" % n,
            b"%d %d" % (n, n),
            b"",
            b"%de0" % n,
            b"\xd9\xa3",
            b"%d.0" % n,
            b" %d" % n,
            b"%d\t" % n,
            b"000%d" % n,
            b"1" + b"0" * 12,
            b"9" * 21,
            b"%d;" % n,
            b"'%d'" % n,
        )
    )
    return _join(_set(plain(rng, body), b"Content-Length", b"Content-Length: " + value), body)


def case_folded(rng: random.Random) -> bytes:
    body = _body(rng)
    head = plain(rng, body)
    at = rng.randint(1, len(head))
    fold = rng.choice((b" ", b"\t", b"  ")) + rng.choice((_value(rng), b"Content-Length: 0", b"chunked"))
    return _join([*head[:at], fold, *head[at:]], body)


def case_line_ends(rng: random.Random) -> bytes:
    """A bare LF or a bare CR for one line's end, or in the blank line that ends the head."""
    body = _body(rng)
    head = plain(rng, body)
    odd, end = rng.randint(0, len(head)), rng.choice((b"\n", b"\r", b"\n\r", b"\r\r\n"))
    if odd == len(head):  # the blank line
        return _join(head, b"").removesuffix(b"\r\n") + end + body
    return _join(head, body, lambda n: end if n == odd else b"\r\n")


def case_control(rng: random.Random) -> bytes:
    """A control byte (NUL, VT, FF, CR, LF, DEL...) put anywhere in the head."""
    body = _body(rng)
    head = _join(plain(rng, body), b"")
    at = rng.randrange(len(head) - 2)
    return head[:at] + bytes([rng.choice(CONTROLS)]) + head[at + rng.randint(0, 1) :] + body


def case_colon(rng: random.Random) -> bytes:
    body = _body(rng)
    name = rng.choice((b"Content-Length", b"Transfer-Encoding", b"Host", b"X-Telegram-Bot-Api-Secret-Token"))
    value = b"%d" % len(body) if name == b"Content-Length" else b"chunked" if name[0] == ord("T") else b"x"
    line = name + rng.choice((b" : ", b"\t: ", b" :", b"\x00: ")) + value
    if rng.random() < 0.2:
        line = rng.choice((b": x", b":", b"Content-Length\r: 0", b"No colon here"))
    return _join(_set(plain(rng, body), name, line), body)


def case_request_line(rng: random.Random) -> bytes:
    body = _body(rng)
    line = rng.choice(
        (
            b"GET /hook HTTP/1.1",
            b"post /hook HTTP/1.1",
            b"POST /hook?x=1 HTTP/1.1",
            b"POST /Hook HTTP/1.1",
            b"POST //hook HTTP/1.1",
            b"POST http://bot/hook HTTP/1.1",
            b"POST /hook HTTP/1.0",
            b"POST /hook",
            b"POST /hook HTTP/2.0",
            b"POST  /hook HTTP/1.1",
            b"POST /hook HTTP/1.1 ",
            b"POST\t/hook HTTP/1.1",
            b"POST /hook http/1.1",
            b"POST /hook HTTP/1.10",
            b"PUT /hook HTTP/1.1",
            b"POST /other HTTP/1.1",
            b" POST /hook HTTP/1.1",
            b"POST /hook\x00 HTTP/1.1",
            b"POST /ho ok HTTP/1.1",
            b"POST * HTTP/1.1",
        )
    )
    request = _join([line, *plain(rng, body)[1:]], body)
    return rng.choice((b"", b"", b"", b"\r\n", b"\n", b"\r\n\r\n")) + request  # blank lines before it


def case_host(rng: random.Random) -> bytes:
    body = _body(rng)
    lines = rng.choice(([], [b"Host: a", b"Host: b"], [b"Host: a", b"Host: a"], [b"Host:"], [b"host: x"]))
    return _join(_set(plain(rng, body), b"Host", *lines), body)


def case_upgrade(rng: random.Random) -> bytes:
    body = _body(rng)
    line = rng.choice(
        (b"Expect: 100-continue", b"Upgrade: websocket", b"Upgrade: h2c", b"Expect: nothing", b"Connection: Upgrade")
    )
    return _join([*plain(rng, body), line], body)


def case_long_line(rng: random.Random) -> bytes:
    body = _body(rng)
    name = _token(rng)
    line = name + b": " + b"v" * (LINE_BYTES - len(name) - 2 + rng.randint(-2, 2))
    return _join([*plain(rng, body), line], body)


def case_long_head(rng: random.Random) -> bytes:
    body = _body(rng)
    head = plain(rng, body)
    size = len(_join(head, b""))
    target = HEAD_BYTES + rng.randint(-300, 300)
    while size + 1024 < target:  # fields of names of their own: a repeated one is left to aiohttp anyway
        head.append(b"X-Filler-%04d: %s" % (len(head), b"f" * 1000))
        size += 1016
    head.append(b"X-Rest: " + b"r" * max(0, target - size - 10))
    return _join(head, body)


def case_length_off(rng: random.Random) -> bytes:
    """A length that says more or less than the body: the next request starts inside this one."""
    body = _body(rng)
    said = max(0, len(body) + rng.choice((-5, -1, 1, 5, 40)))
    return _join(_set(plain(rng, body), b"Content-Length", b"Content-Length: %d" % said), body)


def case_flipped(rng: random.Random) -> bytes:
    """A plain request with a few bytes overwritten (or put in) at random."""
    data = bytearray(case_valid(rng))
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(data))
        byte = rng.choice(TRICKY) if rng.random() < 0.8 else rng.randrange(256)
        if rng.random() < 0.5:
            data[at] = byte
        else:
            data.insert(at, byte)
    return bytes(data)


CASES: dict[str, tuple[Callable[[random.Random], bytes], int]] = {  # each case's weight
    "valid": (case_valid, 30),
    "no-length": (case_no_length, 3),
    "connection": (case_connection, 4),
    "two-lengths": (case_two_lengths, 5),
    "transfer-encoding": (case_transfer_encoding, 6),
    "bad-length": (case_bad_length, 5),
    "folded": (case_folded, 5),
    "line-ends": (case_line_ends, 6),
    "control": (case_control, 8),
    "colon": (case_colon, 3),
    "request-line": (case_request_line, 6),
    "host": (case_host, 3),
    "upgrade": (case_upgrade, 2),
    "long-line": (case_long_line, 1),
    "long-head": (case_long_head, 0.3),
    "length-off": (case_length_off, 4),
    "flipped": (case_flipped, 10),
}
_NAMES = list(CASES)
_WEIGHTS = [weight for _, weight in CASES.values()]


def stream(rng: random.Random) -> tuple[list[str], bytes]:
    """One to four requests back to back: their cases and their bytes."""
    names = rng.choices(_NAMES, _WEIGHTS, k=rng.choice((1, 1, 2, 2, 3, 4)))
    data = b"".join(CASES[name][0](rng) for name in names)
    if rng.random() < 0.05:  # the last request cut short: both sides wait for the rest
        data = data[: rng.randrange(1, len(data))]
    return names, data


def pieces(rng: random.Random, data: bytes) -> list[bytes]:
    """`data` as it might arrive: whole, or cut at a few places (a head's end and a CRLF split too)."""
    if len(data) < 2 or rng.random() < 0.5:
        return [data]
    cuts = rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(1, 4)))
    if len(data) > HEAD_BYTES:  # a long head cut just past h11's bound too, before its end
        cuts.append(HEAD_BYTES + rng.randint(1, 400))
    cuts = sorted({cut for cut in cuts if cut < len(data)})
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
