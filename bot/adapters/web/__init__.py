"""The web pages of every chat (aiohttp + Jinja2): `web_app` builds the aiohttp application,
`add_pages` adds the pages to one that exists (the Telegram webhook's, when both are on)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.adapters.web.assignment_page import AssignmentPages
from bot.adapters.web.figures import PageSource
from bot.adapters.web.formats import FILTERS
from bot.adapters.web.guard import no_store
from bot.adapters.web.pages import Pages
from bot.adapters.web.reports import ReportPages
from bot.adapters.web.screen import ScreenPages
from bot.adapters.web.upload_pages import UploadPages
from bot.commands.weblinks import LinkSigner

STATIC = Path(__file__).resolve().parent / "static"
# a form's body without its file (an uploaded file is streamed to disk: bot/adapters/web/spool.py)
MAX_REQUEST_BYTES = 64 << 10


def add_pages(app: web.Application, source: PageSource, signer: LinkSigner, uploads: Path | None = None) -> None:
    """`uploads`: the folder uploads are spooled and kept waiting in; by default a temporary one,
    removed when the app stops."""
    if uploads is None:
        uploads = Path(tempfile.mkdtemp(prefix="quizhost-uploads-"))
        app.on_cleanup.append(lambda _: _removed(uploads))
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.PackageLoader("bot.adapters.web", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        filters=FILTERS,
    )
    pages = Pages(source, signer)
    app.middlewares.append(no_store)
    app.middlewares.append(pages.not_found)
    app.router.add_routes(pages.routes())
    app.router.add_routes(UploadPages(pages, uploads).routes())
    app.router.add_routes(ReportPages(pages).routes())
    app.router.add_routes(AssignmentPages(pages).routes())
    if source.live is not None:
        screen = ScreenPages(pages, source.live, source.host)
        app.router.add_routes(screen.routes())
        app.on_shutdown.append(screen.closing)
    app.router.add_static("/static", STATIC)


def web_app(source: PageSource, signer: LinkSigner, uploads: Path | None = None) -> web.Application:
    app = web.Application(client_max_size=MAX_REQUEST_BYTES)
    add_pages(app, source, signer, uploads)
    return app


async def _removed(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
