"""The interactions endpoint: Discord posts interactions here instead of sending them on the gateway.

Set as the application's Interactions Endpoint URL (the developer portal), Discord posts every
slash command, button press and modal submit here, signed with the application's Ed25519 key:
`X-Signature-Ed25519` over `X-Signature-Timestamp` + the body. A request whose signature does
not verify (or is missing) gets 401 and changes nothing; Discord itself checks that an endpoint
refuses bad signatures before it accepts its URL. A PING (type 1) gets a PONG. Everything else
is answered in the HTTP reply (bot/adapters/discord/interactions.py), within Discord's 3 s.
Plain requests are read and answered by the listener's lane (bot/adapters/listener/lane.py), as
Telegram's webhook is: aiohttp's server cost a press about 50 µs of the bot's CPU; what the lane
leaves to aiohttp (a chunked body) gets the same answer through an aiohttp route.

A signed body is still read as untrusted (bot/adapters/discord/envelope.py): one that is not an
interaction gets 400. A signed request stays fresh for FRESH_SECONDS, so one caught on the way
could be posted again, to this worker or another: each interaction is claimed in the database
the workers share before it is handled (storage/shared/interactions.py), and a repeat changes
nothing (interactions.py `repeated`). Discord itself never posts one twice.

Nothing here is per process: any worker behind a load balancer takes any interaction, and the
engine stores a press for a run another worker holds (bot/engine/remote_press.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from bot.adapters.discord import envelope
from bot.adapters.discord.interactions import repeated
from bot.adapters.listener import (
    Bounds,
    Lane,
    LaneRequest,
    LaneResponse,
    Listener,
    as_web_response,
    within_body_time,
)
from bot.ports.store import DiscordInteractions

log = logging.getLogger("quizhost.discord")

SIGNATURE_HEADER = "X-Signature-Ed25519"
TIMESTAMP_HEADER = "X-Signature-Timestamp"
SIGNATURE_FIELD, TIMESTAMP_FIELD = SIGNATURE_HEADER.lower(), TIMESTAMP_HEADER.lower()  # as the lane reads them
JSON = "application/json"
# A signed request is refused this long after (or before) its timestamp: a request caught on
# the way cannot be posted again later. Generous for clocks a little apart.
FRESH_SECONDS = 300.0
# An interaction carries at most its message (embeds of 6,000 characters, 25 buttons) and the
# objects its options name: a few tens of KB
MAX_BODY = 256 << 10
PONG = 1

Respond = Callable[[dict[str, Any]], Awaitable[bytes]]  # an interaction -> the callback to reply with, as JSON


@dataclass(frozen=True)
class Endpoint:
    """Where the endpoint listens (DISCORD_INTERACTIONS_LISTEN) and the key it checks (DISCORD_PUBLIC_KEY)."""

    host: str
    port: int
    path: str  # "/" or "/discord/interactions": what the URL given to Discord ends with
    public_key: str  # hex


class Signatures:
    """Discord's Ed25519 signature of a request, checked with the application's public key."""

    def __init__(self, public_key: str, now: Callable[[], float] = time.time) -> None:
        self._key = VerifyKey(bytes.fromhex(public_key))
        self._now = now

    def valid(self, signature: str, timestamp: str, body: bytes) -> bool:
        try:
            signed = bytes.fromhex(signature)
        except ValueError:
            return False
        if len(signed) != 64 or not timestamp.isdigit() or len(timestamp) > 12:
            return False
        try:
            self._key.verify(timestamp.encode() + body, signed)
        except BadSignatureError:
            return False
        # checked once signed: an unsigned request learns nothing of our clock
        return abs(self._now() - int(timestamp)) <= FRESH_SECONDS


class InteractionsServer:
    """Listens on the endpoint's host:port/path until `stop()`; `respond` answers each interaction."""

    def __init__(
        self,
        endpoint: Endpoint,
        respond: Respond,
        claims: DiscordInteractions,
        bounds: Bounds | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.endpoint, self.respond, self._claims, self._now = endpoint, respond, claims, now
        self.signatures = Signatures(endpoint.public_key, now)
        self._bounds = bounds or Bounds()
        self._listener: Listener | None = None
        self.address: tuple[str, int] | None = None

    async def start(self) -> None:
        server = web.Application(client_max_size=MAX_BODY)
        # the lane takes the plain requests; this route what it leaves to aiohttp (chunked ones)
        server.router.add_post(self.endpoint.path, self._post)
        lane = Lane(self.endpoint.path.removeprefix("/"), self._lane_post, _unsigned, MAX_BODY)
        # an interaction being answered is finished at shutdown (Listener's grace), not cut
        self._listener = Listener(server, self._bounds, lane)
        self.address = (await self._listener.start([(self.endpoint.host or None, self.endpoint.port)]))[0]

    async def stop(self) -> None:
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None

    async def _post(self, request: web.Request) -> web.Response:
        fields = {
            SIGNATURE_FIELD: request.headers.get(SIGNATURE_HEADER, ""),
            TIMESTAMP_FIELD: request.headers.get(TIMESTAMP_HEADER, ""),
        }
        answer = _unsigned(fields)
        if answer is None:
            body = await within_body_time(request, request.read())
            answer = await self._answer(fields[SIGNATURE_FIELD], fields[TIMESTAMP_FIELD], body)
        return as_web_response(answer)

    async def _lane_post(self, request: LaneRequest) -> LaneResponse:
        fields = request.fields
        return await self._answer(fields[SIGNATURE_FIELD], fields[TIMESTAMP_FIELD], request.body)

    async def _answer(self, signature: str, timestamp: str, body: bytes) -> LaneResponse:
        """A signed request's answer: 401 unless Discord signed it, 400 unless it is an interaction,
        a PONG to a PING, else the callback (a repeat's changes nothing)."""
        if not self.signatures.valid(signature, timestamp, body):
            return REFUSED
        interaction = envelope.read(body)
        if interaction is None:
            return MALFORMED
        kind = interaction["type"]
        if kind == envelope.PING:
            return PONG_REPLY
        # an autocomplete (one a keystroke) only suggests: nothing to apply twice, nothing claimed
        if kind != envelope.AUTOCOMPLETE and not await self._first_sight(interaction["id"]):
            return LaneResponse(HTTPStatus.OK, repeated(interaction), JSON)
        return LaneResponse(HTTPStatus.OK, await self.respond(interaction), JSON)

    async def _first_sight(self, interaction_id: str) -> bool:
        """Whether no worker on this database took the interaction yet (and now this one has)."""
        try:
            return await self._claims.claim_interaction(int(interaction_id), self._now())
        except Exception as exc:  # the database is away: handled here all the same, as Telegram's updates are
            log.warning("interaction %s: could not record it as seen (%s); handling it anyway", interaction_id, exc)
            return True


REFUSED = LaneResponse(HTTPStatus.UNAUTHORIZED, b"invalid request signature")
MALFORMED = LaneResponse(HTTPStatus.BAD_REQUEST, b"not an interaction")
PONG_REPLY = LaneResponse(HTTPStatus.OK, b'{"type": %d}' % PONG, JSON)


def _unsigned(fields: dict[str, str]) -> LaneResponse | None:
    """Refused from its head alone, before its body is read: a request that carries no signature."""
    return None if fields.get(SIGNATURE_FIELD) and fields.get(TIMESTAMP_FIELD) else REFUSED
