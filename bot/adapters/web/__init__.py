"""The web pages of every chat (aiohttp + Jinja2): `web_app` builds the aiohttp application,
`add_pages` adds the pages to one that exists (the Telegram webhook's, when both are on)."""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.adapters.web.guard import security_headers
from bot.adapters.web.pages import Pages
from bot.commands.weblinks import LinkSigner
from bot.engine.core import Engine

STATIC = Path(__file__).resolve().parent / "static"
MAX_REQUEST_BYTES = 2 << 20  # an upload of at most 1 MB, and the form around it


def add_pages(app: web.Application, engine: Engine, signer: LinkSigner) -> None:
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.PackageLoader("bot.adapters.web", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    app.middlewares.append(security_headers)
    app.router.add_routes(Pages(engine, signer).routes())
    app.router.add_static("/static", STATIC)


def web_app(engine: Engine, signer: LinkSigner) -> web.Application:
    app = web.Application(client_max_size=MAX_REQUEST_BYTES)
    add_pages(app, engine, signer)
    return app
