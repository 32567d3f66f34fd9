"""The REST half of the fake Discord: the routes discord.py calls, answered as Discord would.

Mixed into `bot.testing.fake_discord.FakeDiscord`, which holds the state these handlers read and write.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from bot.testing import fake_discord_payloads as p
from bot.testing.fake_discord_modals import MODAL
from bot.testing.fake_discord_payloads import FakeMessage, FakeUser

ANSWER_WITHIN = 3.0  # seconds Discord gives a bot to answer an interaction
# With `enforce_nonce`, a create repeating a nonce of the same author within "the past few
# minutes" gets the message made first instead of a new one (Discord's create-message docs)
NONCE_SECONDS = 5 * 60.0
NONCE_MAX = 25


@dataclass
class FakeInteraction:
    id: int
    token: str
    payload: dict[str, Any]
    pushed_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    shown: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])


@dataclass
class RateLimitRule:
    method: str
    path: re.Pattern[str]
    times: int
    retry_after: float


class RestRoutes:
    """Handlers for /api/v10; every refusal is also appended to `violations`."""

    token: str
    application_id: int
    bot: FakeUser
    owner: FakeUser
    shard_count: int
    guilds: dict[int, dict[str, Any]]
    channels: dict[int, dict[str, Any]]
    users: dict[int, FakeUser]
    messages: dict[int, FakeMessage]
    interactions: dict[int, FakeInteraction]
    commands: dict[int | None, list[dict[str, Any]]]
    syncs: list[int | None]
    requests: list[tuple[str, str, int]]
    rate_limited: list[tuple[str, str]]
    violations: list[str]
    _rate_limits: list[RateLimitRule]
    no_access: set[int]
    refusing: Callable[[dict[str, Any]], bool]  # messages refused as they are (a 400 the test asks for)
    outsiders: set[tuple[int, int]]  # (server, user): the user is not in that server
    nonces: dict[str, tuple[int, float]]  # the bot's enforced nonces -> (message id, when made)
    lost_answers: list[RateLimitRule]  # requests carried out whose answer never leaves (times)
    attachments: dict[int, tuple[dict[str, Any], bytes]]
    uploads: list[str]  # the names of files the bot sent with its messages

    @property
    def gateway_url(self) -> str:
        raise NotImplementedError

    def new_id(self) -> int:
        raise NotImplementedError

    def _bump(self) -> None:
        raise NotImplementedError

    def dm_channel(self, user: FakeUser) -> int:
        raise NotImplementedError

    def add_routes(self, app: web.Application) -> None:
        api = "/api/v10"
        app.router.add_get(f"{api}/users/@me", self._me)
        app.router.add_post(f"{api}/users/@me/channels", self._open_dm)
        app.router.add_get(f"{api}/oauth2/applications/@me", self._application)
        app.router.add_get(f"{api}/gateway", self._gateway_url)
        app.router.add_get(f"{api}/gateway/bot", self._gateway_bot)
        app.router.add_put(f"{api}/applications/{{app}}/commands", self._sync)
        app.router.add_put(f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._sync)
        app.router.add_get(f"{api}/channels/{{channel}}", self._get_channel)
        app.router.add_get(f"{api}/guilds/{{guild}}/members/{{user}}", self._get_member)
        app.router.add_post(f"{api}/channels/{{channel}}/messages", self._create_message)
        app.router.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self._edit_message)
        app.router.add_post(f"{api}/interactions/{{id}}/{{token}}/callback", self._callback)
        app.router.add_post(f"{api}/webhooks/{{app}}/{{token}}", self._followup)
        app.router.add_patch(f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._edit_followup)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path
        for rule in self._rate_limits:
            if rule.times > 0 and rule.method == request.method and rule.path.search(path):
                rule.times -= 1
                self.rate_limited.append((request.method, path))
                self.requests.append((request.method, path, 429))
                return _rate_limited(rule.retry_after)
        open_route = (
            "/interactions/" in path or "/webhooks/" in path or path == "/gateway" or path.startswith("/attachments/")
        )  # the CDN asks for no token
        if not open_route and request.headers.get("Authorization") != f"Bot {self.token}":
            self.requests.append((request.method, path, 401))
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        try:
            response = await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self.violations.append(f"unknown route {request.method} {path}")
            response = _json({"message": "404: Not Found", "code": 0}, 404)
        self.requests.append((request.method, path, response.status))
        if self._loses_answer(request.method, path):  # done, but the bot never hears so
            assert request.transport is not None
            request.transport.close()
            self._bump()
            return response
        if isinstance(response, web.Response):
            bucket = request.match_info.route.resource.canonical if request.match_info.route.resource else path
            response.headers.update(
                {
                    "X-RateLimit-Limit": "50",
                    "X-RateLimit-Remaining": "49",
                    "X-RateLimit-Reset-After": "1.000",
                    "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
                    "X-RateLimit-Bucket": f"bucket{abs(hash(bucket)) % 10**8}",
                }
            )
        self._bump()
        return response

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot.payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return _json({"message": "Unknown Channel", "code": 10003}, 404)
        return _json(channel)

    async def _get_member(self, request: web.Request) -> web.Response:
        """Get Guild Member: every user is in every server, but those `leave` took out."""
        guild, user = int(request.match_info["guild"]), self.users.get(int(request.match_info["user"]))
        if user is None:
            return _json({"message": "Unknown User", "code": 10013}, 404)
        if (guild, user.id) in self.outsiders:
            return _json({"message": "Unknown Member", "code": 10007}, 404)
        return _json(user.member())

    async def _open_dm(self, request: web.Request) -> web.Response:
        """Create DM: the channel between the bot and a user (the same one every time)."""
        user = self.users.get(int((await request.json()).get("recipient_id", 0)))
        if user is None:
            return _json({"message": "Unknown User", "code": 10013}, 404)
        return _json(self.channels[self.dm_channel(user)])

    async def _gateway_url(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "quizhost",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "rpc_origins": [],
            }
        )

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        scope = int(guild) if guild else None
        if request.match_info["app"] != str(self.application_id) or (scope and scope not in self.guilds):
            return _json({"message": "Missing Access", "code": 50001}, 403)
        payload = await request.json()
        problems = p.command_problems(payload)
        if problems:
            return self._invalid(problems)
        synced = [
            {
                **c,
                "id": str(self.new_id()),
                "application_id": str(self.application_id),
                "version": "1",
                **({"guild_id": guild} if guild else {}),
            }
            for c in payload
        ]
        self.commands[scope] = synced
        self.syncs.append(scope)
        return _json(synced)

    async def _create_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        if channel_id not in self.channels:
            return _json({"message": "Unknown Channel", "code": 10003}, 404)
        if channel_id in self.no_access:
            return _json({"message": "Missing Access", "code": 50001}, 403)
        data, files = await _message_body(request)
        problems = p.message_problems(data) + p.attachment_problems(data, [name for name, _ in files])
        if problems:
            return self._invalid(problems)
        if self.refusing(data):
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": {}}, 400)
        first = self._nonce_seen(data)
        if first is not None:
            return _json(first.data)
        stored = self._store(channel_id, data)
        self._attach_files(stored, files, described=data)
        if data.get("nonce") is not None:
            stored.replace(nonce=data["nonce"])
            if data.get("enforce_nonce"):
                self.nonces[str(data["nonce"])] = (stored.id, time.monotonic())
        return _json(stored.data)

    def _nonce_seen(self, data: dict[str, Any]) -> FakeMessage | None:
        """The bot's message made with this nonce a few minutes ago, when the create enforces it."""
        nonce = data.get("nonce")
        if nonce is None or not data.get("enforce_nonce"):
            return None
        if len(str(nonce)) > NONCE_MAX:
            self.violations.append(f"nonce: {len(str(nonce))} characters > {NONCE_MAX}")
        made = self.nonces.get(str(nonce))
        if made is None or time.monotonic() - made[1] > NONCE_SECONDS:
            return None
        return self.messages.get(made[0])

    def _loses_answer(self, method: str, path: str) -> bool:
        for rule in self.lost_answers:
            if rule.times > 0 and rule.method == method and rule.path.search(path):
                rule.times -= 1
                return True
        return False

    async def _edit_message(self, request: web.Request) -> web.Response:
        stored = self.messages.get(int(request.match_info["message"]))
        if stored is None or stored.channel_id != int(request.match_info["channel"]):
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        data, files = await _message_body(request)
        if "attachments" in data:  # the attachments kept (by id) are listed; the files sent are added
            keep = {str(a.get("id")) for a in data["attachments"]}
            stored.replace(attachments=[a for a in stored.data.get("attachments", []) if a["id"] in keep])
        kept = [a["filename"] for a in stored.data.get("attachments", [])]  # an edit without a list keeps them
        problems = p.message_problems(data, creating=False) + p.attachment_problems(data, kept + [n for n, _ in files])
        if problems:
            return self._invalid(problems)
        edited = self._edit(stored, data)
        self._attach_files(edited, files, keep=True, described=data)
        _resolve_images(edited)
        return _json(edited.data)

    async def _callback(self, request: web.Request) -> web.Response:
        interaction = self.interactions.get(int(request.match_info["id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            return _json({"message": "Unknown interaction", "code": 10062}, 404)
        late = asyncio.get_running_loop().time() - interaction.pushed_at
        if late > ANSWER_WITHIN:
            self.violations.append(f"interaction {interaction.id} answered after {late:.1f} s")
            return _json({"message": "Unknown interaction", "code": 10062}, 404)
        if interaction.callbacks:
            self.violations.append(f"interaction {interaction.id} answered twice")
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
        body = await request.json()
        kind, data = body["type"], body.get("data") or {}
        problems = p.callback_problems(kind, data)
        if problems:
            return self._invalid(problems)
        interaction.callbacks.append(body)
        answer = self._answer(interaction, kind, data)
        # as Discord: the callback object only when asked for (discord.py asks; a bare POST gets none)
        if request.query.get("with_response", "").lower() in ("1", "true"):
            return _json(answer)
        return web.Response(status=204)

    def _answer(self, interaction: FakeInteraction, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        ephemeral = bool((data.get("flags") or 0) & p.EPHEMERAL)
        stored = None
        if kind == 4:  # a message in answer
            stored = self._store(interaction.channel_id, data, ephemeral, interaction.id)
            self._show(interaction, {"type": 4, "ephemeral": ephemeral, **stored.data})
        elif kind == 7:  # the pressed message updated
            stored = self._edit(self.messages[int(interaction.payload["message"]["id"])], data)
            self._show(interaction, {"type": 7, "ephemeral": False, **stored.data})
        elif kind == 8:
            self._show(interaction, {"type": 8, "choices": data.get("choices") or []})
        elif kind == 6:
            self._show(interaction, {"type": 6})
        elif kind == MODAL:  # a form: the user fills it in (FakeDiscord.submit_modal)
            self._show(interaction, {"type": MODAL, **data})
        answer = {
            "id": str(interaction.id),
            "type": interaction.payload["type"],
            "response_message_loading": kind == 5,
            "response_message_ephemeral": ephemeral,
        }
        resource: dict[str, Any] = {"type": kind}
        if stored is not None:
            answer["response_message_id"] = str(stored.id)
            resource["message"] = stored.data
        return {"interaction": answer, "resource": resource}

    async def _followup(self, request: web.Request) -> web.Response:
        interaction = next((i for i in self.interactions.values() if i.token == request.match_info["token"]), None)
        if interaction is None or not interaction.callbacks:
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        data = await request.json()
        problems = p.message_problems(data)
        if problems:
            return self._invalid(problems)
        ephemeral = bool((data.get("flags") or 0) & p.EPHEMERAL)
        stored = self._store(interaction.channel_id, data, ephemeral, interaction.id)
        interaction.followups.append(data)
        self._show(interaction, {"type": 4, "ephemeral": ephemeral, "deferred": True, **stored.data})
        return _json(stored.data)

    async def _edit_followup(self, request: web.Request) -> web.Response:
        interaction = next((i for i in self.interactions.values() if i.token == request.match_info["token"]), None)
        if interaction is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        data = await request.json()
        stored = next((m for m in self.messages.values() if m.interaction_id == interaction.id), None)
        if stored is None:  # the deferred "thinking" message becomes this one
            stored = self._store(interaction.channel_id, data, False, interaction.id)
        else:
            self._edit(stored, data)
        self._show(interaction, {"type": 4, "ephemeral": stored.ephemeral, "deferred": True, **stored.data})
        return _json(stored.data)

    def _show(self, interaction: FakeInteraction, shown: dict[str, Any]) -> None:
        if not interaction.shown.done():
            interaction.shown.set_result(shown)

    def _store(
        self, channel_id: int, data: dict[str, Any], ephemeral: bool = False, interaction_id: int | None = None
    ) -> FakeMessage:
        channel = self.channels[channel_id]
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        message_id = self.new_id()
        payload = p.message(message_id, channel_id, guild_id, self.bot, data, p.EPHEMERAL if ephemeral else 0)
        stored = FakeMessage(message_id, channel_id, payload, ephemeral, interaction_id, [payload])
        self.messages[message_id] = stored
        return stored

    def _attach_files(
        self,
        stored: FakeMessage,
        files: list[tuple[str, bytes]],
        keep: bool = False,
        described: dict[str, Any] | None = None,
    ) -> None:
        """Files sent with a message become its attachments, on the CDN, with the description
        (alt text) the message's `attachments` gave each by its file name; an embed's
        `attachment://name` becomes the attachment's address, as Discord rewrites it."""
        if not files:
            return
        said = {
            a.get("filename"): a["description"]
            for a in (described or {}).get("attachments") or []
            if a.get("description")
        }
        attached = [self.attach(stored.channel_id, name, data) for name, data in files]
        made = [dict(self.attachments[a][0], ephemeral=False) for a in attached]
        made = [dict(a, description=said[a["filename"]]) if a["filename"] in said else a for a in made]
        before = stored.data.get("attachments", []) if keep else []
        stored.replace(attachments=before + made)
        self.uploads += [name for name, _ in files]
        _resolve_images(stored)

    def attach(self, channel_id: int, filename: str, data: bytes, size: int | None = None) -> int:
        raise NotImplementedError

    def _edit(self, stored: FakeMessage, data: dict[str, Any]) -> FakeMessage:
        payload = {
            **stored.data,
            **{k: v for k, v in data.items() if k in ("content", "embeds", "components")},
            "edited_timestamp": p.now_iso(),
        }
        stored.data = payload
        stored.history.append(payload)
        return stored

    def _invalid(self, problems: list[str]) -> web.Response:
        self.violations += problems
        return _json({"message": "Invalid Form Body", "code": 50035, "errors": problems}, 400)


def _resolve_images(stored: FakeMessage) -> None:
    urls = {f"attachment://{a['filename']}": a["url"] for a in stored.data.get("attachments", [])}
    embeds = stored.data.get("embeds", [])
    resolved = [_with_image(embed, urls) for embed in embeds]
    if any(new is not old for new, old in zip(resolved, embeds, strict=True)):
        stored.replace(embeds=resolved)


def _with_image(embed: dict[str, Any], urls: dict[str, str]) -> dict[str, Any]:
    """The embed with its image's `attachment://` address made the attachment's, as Discord does."""
    image = embed.get("image") or {}
    if image.get("url") not in urls:
        return embed
    return {**embed, "image": {**image, "url": urls[image["url"]]}}


async def _message_body(request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
    """A message's JSON, and its files when discord.py sends it as multipart (payload_json, files[n])."""
    if request.content_type != "multipart/form-data":
        return await request.json(), []
    data: dict[str, Any] = {}
    files: list[tuple[str, bytes]] = []
    async for part in await request.multipart():
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            data = json.loads(await part.text())
        elif part.filename:
            files.append((part.filename, bytes(await part.read())))
    return data, files


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly application/json (no charset)
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _rate_limited(retry_after: float) -> web.Response:
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
    response = _json(body, 429)
    # discord.py treats a 429 without Via as a Cloudflare ban rather than a rate limit
    response.headers.update(
        {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Bucket": "ratelimited",
            "X-RateLimit-Scope": "user",
        }
    )
    return response
