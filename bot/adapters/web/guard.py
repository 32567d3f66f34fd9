"""Who may see a page, and the headers every page carries.

A page opens for a signed link (bot/commands/weblinks.py) of its chat: an altered, expired or foreign
link gets a page that says so, with status 403. Pages carry a Content-Security-Policy with
no script at all, no sniffing, no referrer (the link in the address bar is the key), and
pages for a link are never cached.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus

import aiohttp_jinja2
from aiohttp import web

from bot.adapters.web import texts
from bot.commands.weblinks import Refusal

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:  # redirects and 404s carry them too
        exc.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
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
