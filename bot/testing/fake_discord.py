"""A fake Discord on 127.0.0.1 for discord.py: REST under /api/v10 and a websocket gateway.

It keeps servers, channels, users and messages; lets a test push slash commands, autocomplete,
button presses and form submits from any user; records interaction callbacks, follow-ups, channel messages
and edits; and refuses what Discord refuses: custom ids over 100 characters, labels over 80,
more than 5 buttons a row or 5 rows, interactions answered after 3 s or twice, commands that
were never synced. Everything refused is also listed in `violations`.

`use_endpoints(url, ...)` switches interactions to the endpoint mode: posted, signed, to the
bot's interactions endpoint (bot/testing/fake_discord_endpoint.py).

Point discord.py at it with `discord.http.Route.BASE = fake.api_base` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)`. It runs
standalone too (a benchmark in another process): `await FakeDiscord().start(port=...)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from bot.testing import fake_discord_payloads as p
from bot.testing.fake_discord_endpoint import EndpointMode
from bot.testing.fake_discord_modals import ModalUsers
from bot.testing.fake_discord_payloads import FakeMessage, FakeUser
from bot.testing.fake_discord_rest import ANSWER_WITHIN, FakeInteraction, RateLimitRule, RestRoutes

__all__ = ["ANSWER_WITHIN", "FakeDiscord", "FakeInteraction", "FakeMessage", "FakeUser"]
DISCORD_EPOCH_MS = 1_420_070_400_000

# the form of a real bot token (three base64url parts), which `quizhost run` checks before connecting
FAKE_TOKEN = "ZmFrZS1kaXNjb3Jk.ZmFrZQ.dG9rZW4tb2YtdGhlLWZha2U"


class FakeDiscord(RestRoutes, EndpointMode, ModalUsers):
    def __init__(self, token: str = FAKE_TOKEN, application_id: int | None = None) -> None:
        self.token = token
        self._ids = itertools.count(1)
        self.application_id = application_id or self.new_id()
        self.bot = FakeUser(self.application_id, "quizhost", bot=True)
        self.owner = FakeUser(self.new_id(), "Owner")
        self.shard_count = 1  # what GET /gateway/bot recommends
        self.guilds: dict[int, dict[str, Any]] = {}
        self.users: dict[int, FakeUser] = {}  # by id, for the DM channels the bot opens
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # server id (None: global) -> synced
        self.syncs: list[int | None] = []
        self._sending: set[asyncio.Task[None]] = set()  # events on their way to the bot
        self._message_json: dict[int, tuple[dict[str, Any], str]] = {}  # id -> (a message version, its JSON)
        self.identifies: list[dict[str, Any]] = []  # each with "at": the fake's loop time it came
        self.requests: list[tuple[str, str, int]] = []  # method, path, status
        self.rate_limited: list[tuple[str, str]] = []
        self.violations: list[str] = []
        self._rate_limits: list[RateLimitRule] = []
        self.nonces: dict[str, tuple[int, float]] = {}
        self.lost_answers: list[RateLimitRule] = []
        self.bot_permissions: dict[int, int] = {}  # channel id -> the bot's permissions there (default: all)
        self.no_access: set[int] = set()  # channels the bot was removed from: posting there is a 403
        # messages Discord refuses as they are, a 400 the test asks for (not counted as a violation)
        self.refusing: Callable[[dict[str, Any]], bool] = lambda data: False
        self.outsiders: set[tuple[int, int]] = set()  # (server, user): not in it (`leave`)
        self._sockets: list[tuple[web.WebSocketResponse, list[int]]] = []  # socket, [shard id, count]
        self.gateway_down = False  # set by close_gateway: new gateway connections are refused (503)
        self._session_shards: dict[str, list[int]] = {}  # gateway session id -> its [shard id, count]
        self._seq = itertools.count(1)
        self._changed = asyncio.Event()
        self._watchdogs: list[asyncio.TimerHandle] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.attachments: dict[int, tuple[dict[str, Any], bytes]] = {}  # id -> (payload, content)
        self.uploads: list[str] = []  # the names of files the bot sent with its messages
        self.cdn_fetches: list[int] = []  # attachment ids the bot downloaded
        self.endpoint_mode()  # interactions on the gateway until `use_endpoints`

    # set-up ------------------------------------------------------------------------------

    def new_id(self, made_at: float | None = None) -> int:
        """A snowflake: its top bits say when (`made_at`, seconds since 1970; default now) it was made."""
        at = time.time() if made_at is None else made_at
        return ((int(at * 1000) - DISCORD_EPOCH_MS) << 22) + next(self._ids)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{id}/{name}", self._attachment)  # the CDN, on loopback
        self.add_routes(app)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for handle in self._watchdogs:
            handle.cancel()
        await self.close_endpoint_mode()
        for ws, _ in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def add_guild(
        self, name: str = "Quiz server", channels: tuple[str, ...] = ("general",), shard: tuple[int, int] | None = None
    ) -> int:
        """A server the bot is in; `shard` = (id, count) picks an id that this shard owns."""
        guild_id = self.new_id()
        while shard is not None and (guild_id >> 22) % shard[1] != shard[0]:
            guild_id += 1 << 22  # Discord routes a server to shard (id >> 22) % count
        self.guilds[guild_id] = {"name": name, "channels": []}
        for channel in channels:
            self.add_channel(guild_id, channel)
        return guild_id

    def add_channel(self, guild_id: int, name: str) -> int:
        channel_id = self.new_id()
        self.channels[channel_id] = p.text_channel(channel_id, guild_id, name)
        self.guilds[guild_id]["channels"].append(channel_id)
        return channel_id

    def add_user(
        self, name: str, permissions: int = p.MEMBER_PERMISSIONS, locale: str = "en-US", made_at: float | None = None
    ) -> FakeUser:
        """A user whose account was made at `made_at` (seconds since 1970; default now): its id says so."""
        user = FakeUser(self.new_id(made_at), name, locale, permissions)
        self.users[user.id] = user
        return user

    def leave(self, guild_id: int, user: FakeUser) -> None:
        """`user` is not in the server (any more): Discord shows them none of its channels."""
        self.outsiders.add((guild_id, user.id))

    def dm_channel(self, user: FakeUser) -> int:
        channel_id = next(
            (
                int(c["id"])
                for c in self.channels.values()
                if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id)
            ),
            None,
        )
        if channel_id is None:
            channel_id = self.new_id()
            self.channels[channel_id] = p.dm_channel(channel_id, user)
        return channel_id

    def rate_limit(self, method: str, path: str, times: int = 1, retry_after: float = 0.2) -> None:
        """Answer the next `times` requests matching `path` (a regex on the path) with 429."""
        self._rate_limits.append(RateLimitRule(method.upper(), re.compile(path), times, retry_after))

    def lose_answer(self, method: str, path: str, times: int = 1) -> None:
        """Carry out the next `times` requests matching `path`, then close the connection
        unanswered: the bot cannot know whether Discord acted (an ambiguous failure)."""
        self.lost_answers.append(RateLimitRule(method.upper(), re.compile(path), times, 0.0))

    async def close_gateway(self) -> None:
        """A gateway outage: every connection closed, new ones refused until `open_gateway`."""
        self.gateway_down = True
        for ws, _ in list(self._sockets):
            await ws.close(code=1001, message=b"Discord is unavailable")

    def open_gateway(self) -> None:
        self.gateway_down = False

    # waiting -------------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Wait until `predicate()` is truthy (re-checked whenever the fake records something)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (result := predicate()):
            changed, left = self._changed, deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"fake Discord: gave up waiting for {what or predicate}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)
        return result

    @property
    def connected_shards(self) -> list[list[int]]:
        """[shard id, shard count] of every identified gateway connection."""
        return [shard for _, shard in self._sockets]

    async def wait_ready(self, syncs: int = 1, timeout: float = 10.0) -> None:
        """The bot identified on the gateway and synced its commands."""
        await self.wait_for(lambda: self._sockets and len(self.syncs) >= syncs, timeout, "login and sync")

    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def channel_messages(self, channel_id: int, include_ephemeral: bool = False) -> list[FakeMessage]:
        return [
            m for m in self.messages.values() if m.channel_id == channel_id and (include_ephemeral or not m.ephemeral)
        ]

    async def wait_message(
        self, channel_id: int, predicate: Callable[[FakeMessage], bool], timeout: float = 10.0
    ) -> FakeMessage:
        return await self.wait_for(
            lambda: next((m for m in self.channel_messages(channel_id) if predicate(m)), None),
            timeout,
            f"a message in channel {channel_id}",
        )

    # interactions a test pushes -------------------------------------------------------------

    def attach(self, channel_id: int, filename: str, data: bytes, size: int | None = None) -> int:
        """A file a user attaches to a slash command option; `size` may claim another size."""
        attachment_id = self.new_id()
        url = f"http://127.0.0.1:{self.port}/attachments/{channel_id}/{attachment_id}/{filename}"
        payload = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data) if size is None else size,
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
            "ephemeral": True,
        }
        self.attachments[attachment_id] = (payload, data)
        return attachment_id

    async def _attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["id"])
        if attachment_id not in self.attachments:
            return web.Response(status=404)
        self.cdn_fetches.append(attachment_id)
        return web.Response(body=self.attachments[attachment_id][1])

    def push_slash(
        self, user: FakeUser, channel_id: int, name: str, focused: str | None = None, **options: Any
    ) -> FakeInteraction:
        return self._push(self.slash_payload(user, channel_id, name, focused, **options))

    def slash_payload(
        self, user: FakeUser, channel_id: int, name: str, focused: str | None = None, **options: Any
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE of a slash command (see `push_slash`), not sent: a test may break it."""
        command, _guild_id = self._command(name, channel_id)
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": []}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        for option in command.get("options") or []:
            if option["name"] in options and (options[option["name"]] is not None or option["name"] == focused):
                value = options.pop(option["name"])
                entry = {"name": option["name"], "type": option["type"], "value": value}
                if option["type"] == 11:  # an attachment: its id, with the file under data.resolved
                    entry["value"] = str(value)
                    data.setdefault("resolved", {}).setdefault("attachments", {})[str(value)] = self.attachments[value][
                        0
                    ]
                if option["name"] == focused:
                    entry["focused"] = True
                data["options"].append(entry)
        if options:
            raise AssertionError(f"/{name} has no option(s) {sorted(options)}")
        return self.interaction_payload(user, channel_id, 4 if focused else 2, data)

    async def slash(self, user: FakeUser, channel_id: int, name: str, **options: Any) -> dict[str, Any]:
        """A slash command; returns what the bot showed in answer (after a deferral, the follow-up)."""
        interaction = self.push_slash(user, channel_id, name, **options)
        return await asyncio.wait_for(asyncio.shield(interaction.shown), 10)

    async def autocomplete(
        self, user: FakeUser, channel_id: int, name: str, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        interaction = self.push_slash(user, channel_id, name, focused=focused, **options)
        shown = await asyncio.wait_for(asyncio.shield(interaction.shown), 10)
        return shown["choices"]

    def push_press(
        self, user: FakeUser, message_id: int, custom_id: str, forge: bool = False, stale: bool = False
    ) -> FakeInteraction:
        """A press on a button of a message.

        `stale`: the client still shows the message as first sent (the edit has not reached it).
        `forge`: a tampered client sends an id the message does not have.
        """
        return self._push(self.press_payload(user, message_id, custom_id, forge, stale))

    def press_payload(
        self, user: FakeUser, message_id: int, custom_id: str, forge: bool = False, stale: bool = False
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE of a press (see `push_press`), not sent: a test may break it."""
        stored = self.messages[message_id]
        # the message's version itself: a version is never changed in place (FakeMessage), so the
        # press keeps the message as it was, and its JSON is made once however often it is pressed
        data = stored.history[0] if stale else stored.data
        buttons = [c for row in data.get("components", []) for c in row.get("components", [])]
        button = next((b for b in buttons if b.get("custom_id") == custom_id), None)
        if button is None and not forge:
            raise AssertionError(f"message {message_id} has no button {custom_id!r}")
        if button is not None and button.get("disabled"):
            raise AssertionError(f"button {custom_id!r} is disabled: no client can press it")
        if button is None:
            data = {
                **data,
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "?", "custom_id": custom_id}]}
                ],
            }
        return self.interaction_payload(
            user, stored.channel_id, 3, {"custom_id": custom_id, "component_type": 2}, message=data
        )

    async def press(
        self, user: FakeUser, message_id: int, custom_id: str, forge: bool = False, stale: bool = False
    ) -> dict[str, Any]:
        """A button press; returns what the bot showed the presser."""
        interaction = self.push_press(user, message_id, custom_id, forge, stale)
        return await asyncio.wait_for(asyncio.shield(interaction.shown), 10)

    def _command(self, name: str, channel_id: int) -> tuple[dict[str, Any], int | None]:
        channel = self.channels[channel_id]
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        scopes = ([guild_id] if guild_id else []) + [None]  # server commands first, then global ones
        for scope in scopes:
            command = next((c for c in self.commands.get(scope, []) if c["name"] == name), None)
            if command is not None:
                context = 0 if guild_id else 1  # 0: a server, 1: the bot's DM
                if context not in (command.get("contexts") or [0, 1]):
                    raise AssertionError(f"/{name} is not offered in this kind of channel")
                return command, guild_id
        raise AssertionError(f"/{name} was never synced where channel {channel_id} could see it")

    def interaction_payload(
        self, user: FakeUser, channel_id: int, kind: int, data: dict[str, Any], message: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE as Discord sends it, from `user` in `channel_id`."""
        channel = self.channels[channel_id]
        if (int(channel.get("guild_id") or 0), user.id) in self.outsiders:
            raise AssertionError(f"{user.name} is not in the server of channel {channel_id}: no client shows it")
        interaction_id = self.new_id()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel_id),
            "channel": channel,
            "token": f"itoken-{interaction_id}",
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "app_permissions": str(self.bot_permissions.get(channel_id, p.ALL_PERMISSIONS)),
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if channel.get("guild_id"):
            payload.update(
                guild_id=channel["guild_id"],
                member=user.member(),
                guild_locale="en-US",
                context=0,
                authorizing_integration_owners={"0": channel["guild_id"]},
            )
        else:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(user.id)})
        if message is not None:
            payload["message"] = message
        return payload

    def _push(self, payload: dict[str, Any]) -> FakeInteraction:
        """Send an interaction; it must be answered within 3 s (else a violation is listed)."""
        interaction_id = int(payload["id"])
        interaction = FakeInteraction(interaction_id, payload["token"], payload, asyncio.get_running_loop().time())
        self.interactions[interaction_id] = interaction
        self._watchdogs.append(asyncio.get_running_loop().call_later(ANSWER_WITHIN, self._unanswered, interaction))
        if self.endpoints:
            self._post_interaction(interaction)
        else:
            self._dispatch("INTERACTION_CREATE", payload, int(payload["guild_id"]) if payload.get("guild_id") else None)
        return interaction

    def push_raw(self, event: str, data: Any, guild_id: int | None = None) -> None:
        """A gateway dispatch exactly as given, however broken (what a buggy Discord might send)."""
        self._dispatch(event, data, guild_id)

    def _unanswered(self, interaction: FakeInteraction) -> None:
        if not interaction.callbacks:
            self.violations.append(
                f"interaction {interaction.id} (type {interaction.payload['type']}) "
                f"not answered within {ANSWER_WITHIN:g} s"
            )
            self._bump()

    # gateway ---------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down:
            return web.Response(status=503, text="Discord is unavailable")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                if message["op"] == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif message["op"] == 2:
                    await self._identify(ws, message["d"])
                elif message["op"] == 6:  # resume: the session's shard listens on this connection now
                    await self._send(ws, "RESUMED", {})
                    self._sockets.append((ws, self._session_shards[message["d"]["session_id"]]))
                    self._bump()
        finally:
            self._sockets = [(s, shard) for s, shard in self._sockets if s is not ws]
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = list(data.get("shard") or [0, 1])
        at = asyncio.get_running_loop().time()
        self.identifies.append({**{k: v for k, v in data.items() if k != "token"}, "at": at})
        guilds = [g for g in self.guilds if (g >> 22) % shard[1] == shard[0]]
        session = f"session-{len(self.identifies)}"
        self._session_shards[session] = shard
        await self._send(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.bot.payload(),
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": session,
                "resume_gateway_url": self.gateway_url,
                "shard": shard,
                "application": {"id": str(self.application_id), "flags": 0},
            },
        )
        for guild_id in guilds:
            info = self.guilds[guild_id]
            await self._send(
                ws,
                "GUILD_CREATE",
                p.guild(guild_id, info["name"], self.owner.id, [self.channels[c] for c in info["channels"]], self.bot),
            )
        self._sockets.append((ws, shard))
        self._bump()

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        await ws.send_str(self._encoded(event, data))

    def _encoded(self, event: str, data: Any) -> str:
        """The dispatch's JSON. A press carries its message, most of its bytes: a version's JSON
        is made once (versions never change in place) and set into each press that carries it.
        The fake shares the bench's machine with the bot; Discord's own servers do not."""
        message = data.get("message") if isinstance(data, dict) else None
        if not isinstance(message, dict) or len(data) < 2:  # the splice below needs a key before "message"
            return json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data})
        known = self._message_json.get(id(message))
        if known is None:  # the entry holds the version, so no other dict can take its id meanwhile
            known = self._message_json[id(message)] = (message, json.dumps(message))
        rest = json.dumps({key: value for key, value in data.items() if key != "message"})[:-1]  # its "}" after
        head = f'{{"op": 0, "t": {json.dumps(event)}, "s": {next(self._seq)}, "d": '
        return f'{head}{rest}, "message": {known[1]}}}}}'

    def _dispatch(self, event: str, data: Any, guild_id: int | None) -> None:
        """Send an event on the connection of the shard that owns the server (DMs: shard 0)."""
        for ws, (shard_id, count) in self._sockets:
            if shard_id == ((guild_id >> 22) % count if guild_id else 0):
                task = asyncio.ensure_future(self._send(ws, event, data))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)
                return
        raise AssertionError(f"no gateway connection for {event} (is the bot connected?)")
