"""Who may see a page, and the headers every page carries.

A page opens for a signed link (bot/commands/weblinks.py) of its chat: an altered, expired,
revoked or foreign link gets a page that says so, with status 403. Pages for a link are never
cached; every response carries the security headers the server adds (bot/adapters/listener/).
"""

from __future__ import annotations

from http import HTTPStatus

import aiohttp_jinja2
from aiohttp import web

from bot.adapters.listener.headers import Handler
from bot.adapters.web import texts
from bot.commands.weblinks import Refusal


@web.middleware
async def no_store(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A page opened by a link is never cached (the security headers: bot/adapters/listener/headers.py)."""
    response = await handler(request)
    if request.match_info.get("token") is not None:
        response.headers["Cache-Control"] = "no-store"
    return response


def refusal_page(request: web.Request, lang: str, reason: Refusal | str) -> web.Response:
    words = texts.refused(lang)
    response = aiohttp_jinja2.render_template(
        "refused.html",
        request,
        {"lang": lang, "L": words, "reason": words[str(reason)], "title": words["title"]},
        status=HTTPStatus.FORBIDDEN,
    )
    response.headers["Cache-Control"] = "no-store"
    return response
