"""Discord through discord.py: slash commands in, persistent answer buttons and embeds out.

A channel is a chat (its leaderboard is the channel's); a DM channel is a private chat whose
one player is its admin. The adapter calls only `Commands.handle`/`Commands.press` and shows
what comes back; every rule of the game lives in the engine. This module logs in, syncs the
commands and keeps the gateway (or the interactions endpoint); what users do is events.py,
what the engine shows posting.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import discord  # the library: absolute imports never resolve to this module
from discord import app_commands

from bot.adapters.discord import commands as discord_commands
from bot.adapters.discord import gateway, replies
from bot.adapters.discord.endpoint import Endpoint, InteractionsServer
from bot.adapters.discord.events import GatewayEvents
from bot.adapters.discord.handling import Handling
from bot.adapters.discord.identify import IdentifyTurns
from bot.adapters.discord.interactions import HttpInteractions
from bot.adapters.discord.posting import DiscordPosting
from bot.adapters.keepalive import KeepAlivePoster
from bot.adapters.platform_watch import CallWatch, Outage
from bot.commands.core import Commands
from bot.ports.health import PlatformError, PlatformHealth
from bot.ports.store import DiscordInteractions, DiscordStore

log = logging.getLogger("quizhost.discord")

PLATFORM = "discord"
# presses acknowledged at once on connections of the adapter's own, as many as Telegram's pool
# (request.DEFAULT_POOL_SIZE): a press's acknowledgement holds its connection for a round trip to
# Discord, so at 50 ms 64 connections would acknowledge at most 1,300 presses a second
ANSWER_CONNECTIONS = 256
ANSWER_SECONDS = 1.0  # then discord.py's own answer, still within Discord's 3 s
# The gateway events the bot asks for: servers and their channels (a channel's name, is_member's
# lookup). Slash commands, presses and forms arrive whatever the intents; messages, typing,
# reactions or voice states would each be an event discord.py parses for nothing (Intents.default()
# sends every message of every channel the bot can see). No privileged intent, and so no member cache.
INTENTS = discord.Intents(guilds=True)


class _QuizHooks:
    """quizhost's hooks on discord.py's client, overridden in a subclass as its examples do."""

    adapter: DiscordAdapter
    tree: app_commands.CommandTree

    async def setup_hook(self) -> None:
        await self.adapter._setup(self.tree)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.adapter._on_interaction(interaction)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        await self.adapter._before_identify(shard_id)

    # the gateway's state, for /healthz (with several shards each of them dispatches these)
    async def on_connect(self) -> None:
        self.adapter._gateway_opened()

    async def on_resumed(self) -> None:
        self.adapter._gateway_opened()

    async def on_disconnect(self) -> None:
        self.adapter.gateway.failing("gateway not connected")


class QuizClient(_QuizHooks, discord.Client):
    pass


class ShardedQuizClient(_QuizHooks, discord.AutoShardedClient):
    pass


class DiscordAdapter(DiscordPosting):
    """The chat port on Discord: what the engine posts (DiscordPosting); what users do is handled
    by the Handling and GatewayEvents built for each `serve`."""

    platform = PLATFORM

    def __init__(
        self,
        token: str,
        guild_ids: list[int] | None = None,
        shards: str = "",
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        endpoint: Endpoint | None = None,
        **client_options: Any,
    ) -> None:
        self._token = token
        self.guild_ids = list(guild_ids or [])
        self.shards = shards  # DISCORD_SHARDS: "auto" or all of a number of shards here
        self.shard_ids = shard_ids or None  # DISCORD_SHARD_IDS of DISCORD_SHARD_COUNT: some shards here
        self.shard_count = shard_count
        self.client_options = client_options  # extra discord.Client options (a proxy, say)
        self.endpoint = endpoint  # interactions posted to this endpoint, not sent on the gateway
        self.server: InteractionsServer | None = None
        self.client: discord.Client | None = None
        self._events: GatewayEvents | None = None  # built by serve(), with the commands
        self._ready = asyncio.Event()
        self._answers: KeepAlivePoster | None = None  # made for each `serve` on the gateway
        self._turns: IdentifyTurns | None = None
        self._synced = False  # the slash commands: synced by the first session of a `serve`
        self.calls = CallWatch()  # every REST call's status (the client's http_trace), for /metrics
        self.gateway = Outage()  # since when the gateway has been closed, for /healthz

    # lifecycle ---------------------------------------------------------------------------

    async def serve(self, commands: Commands, store: DiscordStore) -> None:
        """Log in, sync the slash commands, listen on the gateway until cancelled; a gateway event
        discord.py cannot read costs a new session, not the bot (bot/adapters/discord/gateway.py).
        `store`: its locks space the shards' logins across processes; on the endpoint, its
        claims take each interaction once."""
        handling = Handling(commands, self.send, self.private_chat)
        self._synced = False
        if self.endpoint is not None:
            self._events = GatewayEvents(handling, None)  # its commands are registered, never called
            await self._serve_endpoint(self.endpoint, handling, store)
            return
        self._turns = IdentifyTurns(store.identify_lock)
        if "proxy" not in self.client_options:  # through a proxy, discord.py's own client answers
            self._answers = KeepAlivePoster(ANSWER_CONNECTIONS, ANSWER_SECONDS, replies.USER_AGENT)
        self._events = GatewayEvents(handling, self._answers)
        try:
            await gateway.serve_sessions(self._logged_in_client, self._ready.clear)
        finally:
            self._ready.clear()
            await self._turns.close()
            if self._answers is not None:
                await self._answers.close()
                self._answers = None

    async def _serve_endpoint(self, endpoint: Endpoint, handling: Handling, claims: DiscordInteractions) -> None:
        """Interactions over HTTP: logged in for REST (questions are posted with it, commands
        synced), no gateway session; Discord posts every interaction to the endpoint."""
        client = await self._logged_in_client()
        answers = HttpInteractions(handling, self.calls)
        self.server = InteractionsServer(endpoint, answers.respond, claims)
        try:
            await self.server.start()
            log.info(
                "Discord: interactions endpoint listening on %s:%d%s", *self.server.address or ("", 0), endpoint.path
            )
            await asyncio.Event().wait()
        finally:
            self._ready.clear()
            await self.server.stop()
            await answers.close()
            await client.close()

    async def _logged_in_client(self) -> discord.Client:
        """A new client for a gateway session, logged in (its setup hook has run)."""
        self.client = client = self._make_client()
        try:
            await client.login(self._token)
        except BaseException as exc:
            if isinstance(exc, discord.LoginFailure):
                log.error("Discord refused the token: check DISCORD_BOT_TOKEN (the Bot tab of the developer portal)")
            await client.close()
            raise
        return client

    def _make_client(self) -> QuizClient | ShardedQuizClient:
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice here: no warning
        options: dict[str, Any] = {
            "intents": INTENTS,
            "max_messages": None,  # no message cache: nothing here reads messages from the gateway
            "allowed_mentions": discord.AllowedMentions.none(),  # names and quiz text never ping anyone
            "http_trace": self.calls.trace(),  # 429s discord.py waits out on its own count too
            **self.client_options,
        }
        client: QuizClient | ShardedQuizClient
        if self.shard_count is not None:
            options["shard_count"] = self.shard_count
            if self.shard_ids:
                options["shard_ids"] = self.shard_ids
            client = ShardedQuizClient(**options)
        elif self.shards:
            options["shard_count"] = None if self.shards == "auto" else int(self.shards)
            client = ShardedQuizClient(**options)
        else:
            client = QuizClient(**options)
        client.adapter = self
        client.tree = tree = app_commands.CommandTree(
            client,
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        events = self._serving_events()
        discord_commands.register(
            tree,
            events.on_command,
            events.handling.commands.shared_quizzes(),
            events.on_upload,
            events.own_quizzes,
            events.on_question_form,
        )
        return client

    async def _setup(self, tree: app_commands.CommandTree) -> None:
        """After login, before the gateway: the commands' translations, then their sync (presses need
        nothing here: `_on_interaction` routes them by custom_id, old messages' buttons too)."""
        await tree.set_translator(discord_commands.QuizTranslator())
        self._ready.set()
        if self._synced:  # a later gateway session's client: Discord has the commands already
            return
        self._synced = True
        for guild_id in self.guild_ids:  # instant, for development servers
            tree.copy_global_to(guild=discord.Object(guild_id))
        # a failed sync leaves the commands Discord already has: log it and keep serving them
        targets: list[int | None] = [*self.guild_ids] or [None]  # None: global, may take a while to reach all
        for target in targets:
            where = f"to server {target}" if target else "globally (every server and DMs)"
            try:
                synced = await tree.sync(guild=discord.Object(target) if target else None)
                log.info("synced %d slash commands %s", len(synced), where)
            except discord.HTTPException as exc:
                log.error(
                    "syncing slash commands %s failed (HTTP %s): is the bot in that server, invited "
                    "with the applications.commands scope?",
                    where,
                    exc.status,
                )

    async def _on_interaction(self, interaction: discord.Interaction) -> None:
        await self._serving_events().on_interaction(interaction)

    def _serving_events(self) -> GatewayEvents:
        if self._events is None:
            raise RuntimeError("serve(commands) has not been called")
        return self._events

    async def _before_identify(self, shard_id: int | None) -> None:
        """Wait for this shard's turn to identify, with every process of this bot (bot/adapters/discord/identify.py)."""
        assert self._turns is not None and self.client is not None
        if isinstance(self.client, discord.AutoShardedClient) and not self._turns.buckets_known:
            try:
                limits = await self.client.fetch_session_start_limits()
                self._turns.max_concurrency = limits.max_concurrency
            except discord.HTTPException as exc:  # one bucket: the slowest, never too fast
                log.warning(
                    "reading Discord's identify concurrency failed (HTTP %s); identifying one at a time", exc.status
                )
            self._turns.buckets_known = True
        await self._turns.wait_turn(shard_id)

    # /healthz and /metrics -----------------------------------------------------------------

    async def health(self) -> PlatformHealth:
        """Down until a gateway session is ready, and once its connection (any shard's) has been
        closed for longer than the grace; discord.py reconnects on its own meanwhile."""
        client = self.client
        if self.endpoint is not None:  # no gateway: as the REST calls find Discord
            if client is None or client.is_closed() or not self._ready.is_set():
                return PlatformHealth(False, "down: not logged in")
            return self.calls.outage.health()
        if client is None or client.is_closed() or not client.is_ready():
            return PlatformHealth(False, "down: not connected")
        return self.gateway.health()

    def platform_errors(self) -> Mapping[PlatformError, int]:
        return self.calls.errors

    def _gateway_opened(self) -> None:
        client = self.client
        if isinstance(client, discord.AutoShardedClient) and any(s.is_closed() for s in client.shards.values()):
            return  # another shard of this process is still away
        self.gateway.working()
