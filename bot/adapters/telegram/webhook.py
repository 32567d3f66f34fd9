"""Telegram's webhook: updates in, a press answered in the reply when asked.

Its plain requests are read and answered by the listener's lane (bot/adapters/listener/lane.py)
without aiohttp's server, which cost as much of the event loop as handling the update; what the
lane leaves to aiohttp (a chunked body) comes to the same handling through an aiohttp route.

PTB's own webhook server (tornado) queues every update and answers 200 at once. This one
checks the secret as PTB's does, queues commands and other updates for PTB the same way, and
takes callback queries itself, from the JSON, without building PTB's objects. The Bot API
lets the reply to a webhook call carry one method call: with TELEGRAM_WEBHOOK_ANSWERS=reply
the press is answered there, one request less per press (Telegram does not say whether such
an answer failed, so the default is a request, whose failure is logged).
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus

from aiohttp import web
from telegram import Update
from telegram.ext import Application, ExtBot

from bot.adapters.listener import (
    Bounds,
    Lane,
    LaneRequest,
    LaneResponse,
    Listener,
    as_web_response,
    within_body_time,
)
from bot.adapters.listener.head import media_type
from bot.adapters.telegram.claims import SharedClaims
from bot.adapters.telegram.runtime import Webhook
from bot.adapters.telegram.updates import UpdateGate, update_id_of

log = logging.getLogger("quizhost.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SECRET_FIELD = SECRET_HEADER.lower()
UPDATE_BYTES = 1 << 20  # an update is a few KB: Telegram's files stay on Telegram
JSON = "application/json"
BOUNDS: Bounds | None = None  # None: the listener's own (a test shortens them)
OK = LaneResponse(HTTPStatus.OK)
FORBIDDEN = LaneResponse(HTTPStatus.FORBIDDEN)
# (update id, callback query JSON) -> a reply method, or None
PressHandler = Callable[[int, dict], Awaitable["dict | None"]]


def answer_method(query_id: str, text: str, alert: bool) -> dict:
    """answerCallbackQuery as a webhook reply: the method's name in `method`, its parameters beside it."""
    method: dict = {"method": "answerCallbackQuery", "callback_query_id": query_id}
    if text:
        method["text"] = text
    if alert:
        method["show_alert"] = True
    return method


@dataclass(frozen=True)
class SharedPages:
    """Other pages the webhook's server serves too (the chats' web pages), and their own address."""

    add: Callable[[web.Application], None]  # adds their routes, middlewares and templates
    host: str
    port: int
    max_request: int  # bytes a request to them may carry read whole (their uploads are streamed to disk)


class WebhookServer:
    """Listens on the webhook's host:port/path until `stop()`; with `pages`, one aiohttp server
    serves those as well, on the webhook's address and on theirs."""

    def __init__(
        self,
        hook: Webhook,
        app: Application,
        on_press: PressHandler,
        pages: SharedPages | None = None,
        claims: SharedClaims | None = None,
    ) -> None:
        self.hook, self.app, self.on_press, self.pages = hook, app, on_press, pages
        self._listener: Listener | None = None
        # Telegram posts an update again when it missed our answer: a repeat to this worker is
        # known here, one to any worker (behind a load balancer) in the database
        self.gate = UpdateGate()
        self.claims = claims

    async def start(self) -> None:
        # the pages' forms are smaller still than an update
        server = web.Application(client_max_size=max(UPDATE_BYTES, self.pages.max_request if self.pages else 0))
        # the lane takes the webhook's plain requests; this route what it leaves to aiohttp (chunked ones)
        server.router.add_post("/" + self.hook.path, self._post)
        if self.pages is not None:
            self.pages.add(server)
        lane = Lane(self.hook.path, self._lane_post, self._refusal, UPDATE_BYTES)
        # presses are held open until their answer is stored: the shutdown lets them finish
        self._listener = Listener(server, BOUNDS or Bounds(), lane)
        addresses = [(self.hook.host or None, self.hook.port)]
        if self.pages is not None and (self.pages.host, self.pages.port) != (self.hook.host, self.hook.port):
            addresses.append((self.pages.host, self.pages.port))
        await self._listener.start(addresses)

    async def stop(self) -> None:
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None

    def _refusal(self, fields: dict[str, str]) -> LaneResponse | None:
        """As PTB's handler: JSON only, and the secret Telegram was given with setWebhook."""
        secret = fields.get(SECRET_FIELD, "").encode("utf-8", "surrogateescape")
        if media_type(fields.get("content-type", "")) != "application/json" or not hmac.compare_digest(
            secret, self.hook.secret.encode()
        ):
            return FORBIDDEN
        return None

    async def _post(self, request: web.Request) -> web.Response:
        refused = self._refusal(
            {"content-type": request.content_type, SECRET_FIELD: request.headers.get(SECRET_HEADER, "")}
        )
        if refused is None:
            refused = await self._update(await within_body_time(request, request.read()))
        return as_web_response(refused)

    async def _lane_post(self, request: LaneRequest) -> LaneResponse:
        return await self._update(request.body)

    async def _update(self, body: bytes) -> LaneResponse:
        """One update, read, claimed and handled: what to answer Telegram."""
        try:
            data = json.loads(body)
        except ValueError:
            return LaneResponse(HTTPStatus.BAD_REQUEST, b"not JSON")
        update_id = update_id_of(data)
        if update_id is None:
            return LaneResponse(HTTPStatus.BAD_REQUEST, b"not an update")
        if not self.gate.first_time(update_id):
            return OK
        taken = await self._first_anywhere(update_id)
        if taken is None:  # another live worker holds it yet: the platform sends it again later
            self.gate.forget(update_id)
            return LaneResponse(HTTPStatus.SERVICE_UNAVAILABLE, b"another worker is handling it")
        if not taken:
            return OK
        try:
            if "callback_query" in data:
                method = await self.on_press(update_id, data["callback_query"])
                return LaneResponse(HTTPStatus.OK, json.dumps(method).encode(), JSON) if method else OK
            return await self._queue(update_id, data)
        except Exception:  # acknowledged all the same: Telegram would post it again and again
            log.exception("update %d could not be handled; it is acknowledged and dropped", update_id)
            return OK
        finally:  # handled, or failed: never again (the platform gets its 200 now)
            if self.claims is not None:
                self.claims.finish(update_id)

    async def _first_anywhere(self, update_id: int) -> bool | None:
        """Claimed before it is handled, so an update whose handling fails counts as seen too;
        None while another live worker holds it (SharedClaims.take)."""
        if self.claims is None:
            return True
        try:
            return await self.claims.take(update_id)
        except Exception as exc:  # the database is away: handled here all the same, rather than lost
            log.warning("update %d: could not record it as seen (%s); handling it anyway", update_id, exc)
            return True

    async def _queue(self, update_id: int, data: dict) -> LaneResponse:
        try:
            update = Update.de_json(data, self.app.bot)
        except Exception:  # logged, and acknowledged: a 4xx would only make Telegram post it again
            log.exception("update %d could not be read; it is acknowledged and dropped", update_id)
            return OK
        if isinstance(self.app.bot, ExtBot):
            self.app.bot.insert_callback_data(update)
        await self.app.update_queue.put(update)
        return OK
