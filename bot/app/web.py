"""Wiring of the chats' web pages: `quizhost web` alone, or beside the bots in `quizhost run`
(on the Telegram webhook's aiohttp server when that runs, so one server answers both).

Links point at QUIZHOST_WEB_URL, the address users reach. Without it, `quizhost web` links to
the address it listens on, and says so when that is not this machine's loopback (0.0.0.0 or a
LAN address is rarely what a browser elsewhere reaches). Either way, pages served on a
non-loopback address over plain HTTP get a warning: an admin link is a key, and it would cross
the network readable.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace

from aiohttp import web

from bot.adapters.console.terminal import TERMINAL
from bot.adapters.listener import Bounds, Listener
from bot.adapters.web import MAX_REQUEST_BYTES, add_pages, web_app
from bot.adapters.web.figures import PageSource
from bot.app.compose import House
from bot.app.memory import return_large_buffers
from bot.app.settings import Settings
from bot.app.wiring import listen_address, open_house, signal_stop
from bot.commands.weblinks import LinkSigner, Scope, WebAddress, signer_for
from bot.domain.hosting import HostAction
from bot.domain.model import ChatRef, Player, Reply

log = logging.getLogger("quizhost")


def web_address(settings: Settings) -> WebAddress:
    return WebAddress(settings.quizhost_web_url, settings.web_secret())


def page_source(house: House) -> PageSource:
    """What the pages read, of the house's pieces."""
    engine, store = house.engine, house.store

    async def host(chat: ChatRef, action: HostAction, by: Player) -> Reply:
        """The host's press on the big screen: the link names the player, their name is the
        one the chat gave (hosting stores the player: an empty name would replace it)."""
        name = (await store.player_names({by.key})).get(by.key, by.name)
        return await engine.host(chat, action, replace(by, name=name), True)  # the link is given to admins only

    return PageSource(house.store, house.clock, house.results, house.settings.default_language, house.live, host)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: it may be reached from elsewhere
        return False


def public_address(settings: Settings, listened: str, also: Sequence[str] = ()) -> tuple[str, list[str]]:
    """The address links point at, and what to warn about it (`listened`: http://host:port;
    `also`: other listen addresses serving the pages, the Telegram webhook's)."""
    host, _ = listen_address(settings.quizhost_web_listen)
    url = settings.quizhost_web_url or listened
    warnings = []
    if not settings.quizhost_web_url and not is_loopback(host):
        warnings.append(
            f"QUIZHOST_WEB_URL is not set: links point at {listened}, where the pages listen; "
            "set QUIZHOST_WEB_URL to the address users reach"
        )
    exposed = [h for h in (host, *(listen_address(a)[0] for a in also)) if not is_loopback(h)]
    if exposed and url.lower().startswith("http://"):
        warnings.append(
            f"the pages listen on {exposed[0]} over plain HTTP: admin links (the key to a chat's pages) "
            "cross the network readable; serve them behind HTTPS and set QUIZHOST_WEB_URL=https://…"
        )
    return url, warnings


async def serve_web(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """`quizhost web`: the pages alone over the database, until a signal (or `stop`)."""
    return_large_buffers()
    async with open_house(settings) as house:
        signer = await signer_for(house.store, web_address(settings))
        async with listening(web_app(page_source(house), signer), settings.quizhost_web_listen) as address:
            url, warnings = public_address(settings, address)
            for warning in warnings:
                print(f"quizhost web: warning: {warning}", file=sys.stderr, flush=True)
            link = signer.at(url).url(TERMINAL.key, Scope.ADMIN, house.clock.now())
            print(f"Serving the web pages on {address} (Ctrl+C stops).")
            print(f"This terminal's chat (quizhost play), valid 24 hours: {link}", flush=True)
            await (stop or signal_stop()).wait()
    return 0


@contextlib.asynccontextmanager
async def web_pages_for_run(settings: Settings, house: House, adapters: Sequence[object]) -> AsyncIterator[None]:
    """`quizhost run`: the pages when QUIZHOST_WEB_URL is set, on QUIZHOST_WEB_LISTEN."""
    if not settings.quizhost_web_url:
        yield
        return
    signer = await signer_for(house.store, web_address(settings))
    source = page_source(house)
    host, port = listen_address(settings.quizhost_web_listen)
    hooked = next((a for a in adapters if getattr(a, "webhook", None) is not None), None)
    also = [settings.telegram_webhook_listen] if hooked is not None else []  # it serves them too
    for warning in public_address(settings, f"http://{host}:{port}", also)[1]:
        log.warning("web pages: %s", warning)
    if hooked is not None:  # the Telegram webhook's server takes them (bot/adapters/telegram/webhook.py)
        from bot.adapters.telegram.adapter import TelegramAdapter
        from bot.adapters.telegram.webhook import SharedPages

        assert isinstance(hooked, TelegramAdapter)
        hooked.shared_pages = SharedPages(_adder(source, signer), host, port, MAX_REQUEST_BYTES)
        log.info("web pages at %s, on the webhook's server", settings.quizhost_web_url)
        yield
        return
    async with listening(web_app(source, signer), settings.quizhost_web_listen) as address:
        log.info("web pages at %s, listening on %s", settings.quizhost_web_url, address)
        yield


def _adder(source: PageSource, signer: LinkSigner) -> Callable[[web.Application], None]:
    return lambda app: add_pages(app, source, signer)


@contextlib.asynccontextmanager
async def listening(app: web.Application, listen: str, bounds: Bounds | None = None) -> AsyncIterator[str]:
    """Serve `app` on host:port (port 0: one the system picks), within `bounds`, and give its address."""
    host, port = listen_address(listen)
    listener = Listener(app, bounds)
    try:
        bound = await listener.start([(host, port)])
        yield f"http://{host}:{bound[0][1]}"
    finally:
        await listener.stop()
