"""`quizhost bench --platform discord --http`: presses posted to the bot's interactions endpoint.

The fake Discord (another process) signs every interaction and posts it to the endpoint of the
real `quizhost run` (DISCORD_INTERACTIONS_LISTEN); a press counts when the bot's HTTP reply,
its acknowledgement, reaches the fake. The reference is a bare aiohttp handler in the bot's
place: it verifies the signature with PyNaCl, reads the JSON and replies with the same
ephemeral acknowledgement, no bot library, no engine, no database; the fake posts the same
number of presses to it, as many in flight, over the same connections.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from http import HTTPStatus

from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from bot.bench.platform_process import FakeProcess, free_port
from bot.bench.platform_raw import ACK_TEXT, CHUNK

PATH = "/interactions"
ACK = {"type": 4, "data": {"content": ACK_TEXT, "flags": 64}}  # an ephemeral message in answer


def endpoint_url(port: int) -> str:
    return f"http://127.0.0.1:{port}{PATH}"


@contextlib.asynccontextmanager
async def bare_handler(public_key: str) -> AsyncIterator[str]:
    """The reference endpoint on a loopback port until the block ends; its URL."""
    key = VerifyKey(bytes.fromhex(public_key))

    async def interaction(request: web.Request) -> web.Response:
        body = await request.read()
        stamp = request.headers.get("X-Signature-Timestamp", "")
        try:
            key.verify(stamp.encode() + body, bytes.fromhex(request.headers.get("X-Signature-Ed25519", "")))
        except (BadSignatureError, ValueError):
            return web.Response(status=HTTPStatus.UNAUTHORIZED)
        json.loads(body)  # what any handler does to learn the interaction's type
        return web.json_response(ACK)

    app = web.Application()
    app.router.add_post(PATH, interaction)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield endpoint_url(port)
    finally:
        await runner.cleanup()


async def bare_rate(fake: FakeProcess, count: int, window: int) -> dict:
    """`count` presses posted to the bare handler, `window` in flight; the rate it answered them at."""
    seconds, done, statuses, acked = 0.0, 0, dict[str, int](), 0
    async with bare_handler(fake.info["public_key"]) as url:
        while done < count:
            chunk = min(CHUNK, count - done)
            figures = await fake.ask("raw_endpoint", url=url, count=chunk, window=window)
            seconds, done, acked = seconds + figures["seconds"], done + chunk, acked + figures["acked"]
            for status, n in figures["statuses"].items():
                statuses[status] = statuses.get(status, 0) + n
    return {
        "acked": acked,
        "seconds": round(seconds, 3),
        "per_s": round(acked / seconds) if seconds else 0,
        "statuses": statuses,
        "concurrency": window,
        "reference": "bare aiohttp handler (verify + ack)",
    }
