"""The headers every response carries, errors included: a Content-Security-Policy with no script
at all (the big screen alone sets its own, naming its one script: bot/adapters/web/screen.py), no
sniffing, no referrer (a page's link is its key), no framing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
# the same as raw header lines, for answers written without aiohttp (the lane's, the cap's 503)
HEADER_LINES = "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items()).encode()
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def secured(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:  # redirects, 404s and 413s carry them too
        exc.headers.update(HEADERS)
        raise
    csp = response.headers.get("Content-Security-Policy")  # the big screen's, which allows its script
    response.headers.update(HEADERS)
    if csp is not None:
        response.headers["Content-Security-Policy"] = csp
    return response
