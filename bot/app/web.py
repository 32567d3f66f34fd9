"""Wiring of the chats' web pages: `quizhost web` alone, or beside the bots in `quizhost run`
(on the Telegram webhook's aiohttp server when that runs, so one server answers both)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence

from aiohttp import web

from bot.adapters.console.terminal import TERMINAL
from bot.adapters.web import MAX_REQUEST_BYTES, add_pages, web_app
from bot.app.settings import Settings
from bot.app.wiring import listen_address, open_engine, signal_stop
from bot.commands.weblinks import LinkSigner, Scope, WebAddress, signer_for
from bot.engine.core import Engine

log = logging.getLogger("quizhost")


def web_address(settings: Settings) -> WebAddress:
    return WebAddress(settings.quizhost_web_url, settings.web_secret())


async def serve_web(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """`quizhost web`: the pages alone over the database, until a signal (or `stop`)."""
    async with open_engine(settings) as engine:
        signer = await signer_for(engine.store, web_address(settings))
        async with listening(web_app(engine, signer), settings.quizhost_web_listen) as address:
            link = signer.at(settings.quizhost_web_url or address).url(TERMINAL.key, Scope.ADMIN, engine.clock.now())
            print(f"Serving the web pages on {address} (Ctrl+C stops).")
            print(f"This terminal's chat (quizhost play), valid 24 hours: {link}", flush=True)
            await (stop or signal_stop()).wait()
    return 0


@contextlib.asynccontextmanager
async def web_pages_for_run(settings: Settings, engine: Engine, adapters: Sequence[object]) -> AsyncIterator[None]:
    """`quizhost run`: the pages when QUIZHOST_WEB_URL is set, on QUIZHOST_WEB_LISTEN."""
    if not settings.quizhost_web_url:
        yield
        return
    signer = await signer_for(engine.store, web_address(settings))
    hooked = next((a for a in adapters if getattr(a, "webhook", None) is not None), None)
    if hooked is not None:  # the Telegram webhook's server takes them (bot/adapters/telegram/webhook.py)
        from bot.adapters.telegram.adapter import TelegramAdapter
        from bot.adapters.telegram.webhook import SharedPages

        assert isinstance(hooked, TelegramAdapter)
        host, port = listen_address(settings.quizhost_web_listen)
        hooked.shared_pages = SharedPages(_adder(engine, signer), host, port, MAX_REQUEST_BYTES)
        log.info("web pages at %s, on the webhook's server", settings.quizhost_web_url)
        yield
        return
    async with listening(web_app(engine, signer), settings.quizhost_web_listen) as address:
        log.info("web pages at %s, listening on %s", settings.quizhost_web_url, address)
        yield


def _adder(engine: Engine, signer: LinkSigner) -> Callable[[web.Application], None]:
    return lambda app: add_pages(app, engine, signer)


@contextlib.asynccontextmanager
async def listening(app: web.Application, listen: str) -> AsyncIterator[str]:
    """Serve `app` on host:port (port 0: one the system picks) and give its address."""
    host, port = listen_address(listen)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        yield f"http://{host}:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()
