"""Raw HTTP/1.1 on loopback, byte for byte: a server for the tests of our own HTTP clients
(bot/adapters/keepalive.py, bot/bench/webhook_poster.py), which answers each request with whatever
bytes a test gives, or hangs up; and a client connection (`Raw`) for the tests of our servers
where a test must say exactly what goes over the wire (keep-alive, pipelining, chunked, late or
malformed requests)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

OK = b'{"ok":true,"result":true}'


class Server:
    """A raw HTTP/1.1 server: `answer(request_number)` gives the bytes to send back (None:
    close the connection without a word); records each request and each connection."""

    def __init__(self, answer: Callable[[int], bytes | None], delay: float = 0.0, piece: int = 0) -> None:
        """`piece`: the answer goes out that many bytes at a time, each in a write of its own."""
        self.answer, self.delay, self.piece = answer, delay, piece
        self.requests: list[bytes] = []
        self.connections = 0
        self.server: asyncio.Server | None = None
        self._handlers: list[asyncio.Task] = []

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/bot123:TOKEN/answerCallbackQuery"

    async def stop(self) -> None:
        """Stop listening, and wait for each connection to end (its client closes it)."""
        if self.server is not None:
            self.server.close()
            await asyncio.wait_for(asyncio.gather(*self._handlers), 5)
            await self.server.wait_closed()

    def body(self, number: int) -> bytes:
        """Request `number`'s body (1-based, as `answer` is given it)."""
        return self.requests[number - 1].partition(b"\r\n\r\n")[2]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._handlers.append(asyncio.current_task())  # type: ignore[arg-type]
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(
                    next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1]
                )
                self.requests.append(head + await reader.readexactly(length))
                number = len(self.requests)  # this request's, whatever other connections take meanwhile
                await asyncio.sleep(self.delay)
                reply = self.answer(number)
                if reply is None:
                    break
                step = self.piece or max(len(reply), 1)
                for at in range(0, len(reply), step):
                    writer.write(reply[at : at + step])
                    await writer.drain()
                    if self.piece:
                        await asyncio.sleep(0.002)  # its own segment on loopback
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def by_length(status: str = "200 OK", body: bytes = OK, extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n{extra}\r\n".encode()
        + body
    )


class Raw:
    """One TCP connection to a server of ours, written and read byte for byte."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def to(cls, port: int) -> Raw:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    def send(self, data: bytes) -> None:
        self.writer.write(data)

    async def response(self) -> tuple[int, dict[str, str], bytes]:
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 10)
        status_line, *lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
        fields = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
        body = await self.reader.readexactly(int(fields.get("content-length", "0")))
        return int(status_line.split()[1]), fields, body

    async def closed_within(self, seconds: float) -> tuple[float, bytes]:
        """Seconds until the server closed the connection, and what it sent until then."""
        started, sent = time.monotonic(), b""
        try:
            async with asyncio.timeout(seconds):
                while chunk := await self.reader.read(4096):
                    sent += chunk
        except ConnectionResetError:
            pass
        return time.monotonic() - started, sent

    def close(self) -> None:
        self.writer.close()
