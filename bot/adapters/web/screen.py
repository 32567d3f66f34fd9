"""The big screen: a chat's runs live, for a projector or a stream (/screen gives its links).

The page is rendered by the server; its one script (static/screen.js) reads the run's events
as Server-Sent Events (aiohttp-sse) and redraws it: a snapshot on connect (the current
question's events again), then each event with its id, a reconnect going on after the last id
it saw (`Last-Event-ID`), a keep-alive comment every 15 s. Only this page may run that script:
its Content-Security-Policy names it, every other page allows none.

The host's link (an admin's) shows the same page with the host's controls: forms posted with a
CSRF token that only a page of that link has, handed to the engine's host actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from typing import Any

import segno
from aiohttp import web
from aiohttp_sse import EventSourceResponse, sse_response
from markupsafe import Markup

from bot.adapters.listener import within_body_time
from bot.adapters.listener.headers import HEADERS
from bot.adapters.web import guard, media, texts
from bot.adapters.web.figures import HostCall
from bot.adapters.web.ids import id_in
from bot.adapters.web.pages import Pages
from bot.commands.results import quiz_of
from bot.commands.weblinks import Link, Scope
from bot.domain.hosting import HostAction
from bot.domain.model import QUIZ_ID, ChatRef, Player
from bot.ports.clock import Clock
from bot.ports.live import LiveEvent, LiveEvents

# the page may run its own script and read its own stream; nothing else changes from the others'
CSP = (
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
MAX_VIEWERS = 500  # streams of one chat this process serves at once; one more is told to come back
# the host's link counts apart: a member's viewer link opened 500 times never locks the host out
MAX_HOST_STREAMS = 20
KEEP_ALIVE_SECONDS = 15.0
HOST_ACTIONS = tuple(HostAction)  # the controls, in the host panel's order
QR_SCALE = 6


class ScreenPages:
    def __init__(self, pages: Pages, live: LiveEvents, host: HostCall | None = None) -> None:
        self.pages = pages
        self.live = live
        self.host = host  # None: no engine here to act on (the page says so)
        self.viewers: Counter[str] = Counter()  # chat key (and its host's) -> streams open in this process
        self.streams: set[EventSourceResponse] = set()  # ended at once when the server stops

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/s/{token}/", self.page),
            web.get("/s/{token}/events", self.events),
            web.post("/s/{token}/host", self.host_action),
            web.get(f"/s/{{token}}/picture/{{quiz_id:{QUIZ_ID}}}/{{number:\\d{{1,4}}}}", self.picture),
        ]

    async def page(self, request: web.Request) -> web.Response:
        link = await self.opened(request)
        if isinstance(link, web.Response):
            return link
        return await self._render(request, link)

    async def events(self, request: web.Request) -> web.StreamResponse:
        link = await self.opened(request)
        if isinstance(link, web.Response):
            return link
        chat_key = link.chat_key
        hosts = link.scope is Scope.HOST
        seat = f"{chat_key} host" if hosts else chat_key  # whose streams this one counts among
        if self.viewers[seat] >= (MAX_HOST_STREAMS if hosts else MAX_VIEWERS):
            lang = (await self.pages.view(chat_key)).lang
            raise web.HTTPServiceUnavailable(text=texts.screen(lang)["busy"], headers={"Retry-After": "60"})
        self.viewers[seat] += 1
        try:
            headers = {**HEADERS, "Content-Security-Policy": CSP}
            async with sse_response(request, headers=headers, ping_interval=KEEP_ALIVE_SECONDS) as stream:
                await self._stream(stream, chat_key, _last_id(request))
            return stream
        finally:
            self.viewers[seat] -= 1
            if not self.viewers[seat]:
                del self.viewers[seat]

    async def _stream(self, stream: EventSourceResponse, chat_key: str, after: int | None) -> None:
        """The chat's events into the stream until the viewer leaves (a keep-alive fails), the
        server stops, or a send fails."""
        self.streams.add(stream)
        pump = asyncio.create_task(_pump(stream, self.live, chat_key, after, self.pages.source.clock))
        try:
            await stream.wait()
        finally:
            self.streams.discard(stream)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await pump

    async def closing(self, app: web.Application) -> None:
        """The server stops: every stream ends now (a browser reconnects to another worker, or
        to this one when it is back), not when the stop's grace ends."""
        for stream in list(self.streams):
            stream.stop_streaming()

    async def host_action(self, request: web.Request) -> web.Response:
        link = await self.opened(request)
        if isinstance(link, web.Response):
            return link
        form = await within_body_time(request, request.post())
        token = request.match_info["token"]
        lang = (await self.pages.view(link.chat_key)).lang
        if link.scope is not Scope.HOST or not self.pages.signer.form_ok(token, "host", str(form.get("csrf", ""))):
            return guard.refusal_page(request, lang, "form")
        action = str(form.get("action", ""))
        if action not in HOST_ACTIONS:
            raise web.HTTPBadRequest()
        said = texts.screen(lang)["no_hosting"]
        if self.host is not None:  # the link was given to an admin: is_admin, as the chat said then
            said = (await self.host(_chat(link.chat_key), HostAction(action), _player(link))).text
        return await self._render(request, link, said)

    async def picture(self, request: web.Request) -> web.StreamResponse:
        """A picture beside a quiz the chat may play, which a question on the screen shows."""
        link = await self.opened(request)
        if isinstance(link, web.Response):
            return link
        quiz = await quiz_of(self.pages.source.results, link.chat_key, request.match_info["quiz_id"])
        if quiz is None:
            raise web.HTTPNotFound()
        return await media.response(quiz, id_in(request, "number"), "question")

    async def opened(self, request: web.Request) -> Link | web.Response:
        """The request's link when it opens a big screen (a host's or a viewer's); else the page
        that says why not."""
        return await self.pages.opened(request, Scope.SCREEN)

    async def _render(self, request: web.Request, link: Link, said: str = "") -> web.Response:
        view = await self.pages.view(link.chat_key)
        token = request.match_info["token"]
        words = texts.screen(view.lang)
        values: dict[str, Any] = {
            "S": words,
            "words": json.dumps(words, ensure_ascii=False),
            "join": link.join,
            "qr": _qr(link.join) if link.join else "",
            "host": link.scope is Scope.HOST,
            "csrf": self.pages.signer.form_token(token, "host") if link.scope is Scope.HOST else "",
            "actions": HOST_ACTIONS,
            "said": said,
            "chat_title": view.name if view.name != link.chat_key else "",
            "events": f"/s/{token}/events",
            "pictures": f"/s/{token}/picture/",
        }
        response = self.pages.render(request, "screen.html", view, None, values)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-store"
        return response


async def _pump(stream: EventSourceResponse, live: LiveEvents, chat_key: str, after: int | None, clock: Clock) -> None:
    """The chat's events into the stream until the viewer leaves (a failed send ends the stream)."""
    try:
        async for event in live.follow(chat_key, after):
            await stream.send(_data(event, clock.now()), id=str(event.id), event=event.kind.value)
    finally:
        stream.stop_streaming()


def _data(event: LiveEvent, now: float) -> str:
    """The event's data, when it happened (`at`) and the server's time now (the page's countdown
    runs on the server's clock)."""
    data = {**event.data, "run": event.run_id, "at": event.at, "now": now}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _last_id(request: web.Request) -> int | None:
    """Where a reconnecting viewer left off (the browser says it); None: a new viewer, a snapshot."""
    raw = request.headers.get("Last-Event-ID", "").strip()
    # ASCII digits only: str.isdigit() takes "²" too, which int() refuses (a stream that dies at once)
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def _qr(join: str) -> Markup:
    """The join link as an inline SVG QR code (segno: no image library, no inline style)."""
    svg = segno.make(join, error="m").svg_inline(scale=QR_SCALE, dark="#000", light="#fff", title="QR")
    return Markup(svg)  # segno's own markup; the link inside it is escaped by segno


def _chat(chat_key: str) -> ChatRef:
    platform, _, chat_id = chat_key.partition(":")
    return ChatRef(platform, chat_id)


def _player(link: Link) -> Player:
    """Who presses: the admin the host's link was given to."""
    platform, _, user_id = link.player_key.partition(":")
    return Player(platform or "web", user_id or "host", "")
