"""A raw HTTP/1.1 server on loopback for the tests of our own HTTP clients (bot/adapters/keepalive.py,
bot/bench/webhook_poster.py): it answers each request with whatever bytes a test gives, or hangs up."""

from __future__ import annotations

import asyncio
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
