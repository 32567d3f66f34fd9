"""Discord through discord.py: slash commands in, persistent answer buttons and embeds out.

A channel is a chat (its leaderboard is the channel's); a DM channel is a private chat whose
one player is its admin. The adapter calls only `Commands.handle`/`Commands.press` and shows
what comes back; every rule of the game lives in the engine.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from typing import Any, cast

import discord  # the library: absolute imports never resolve to this module
from discord import app_commands

from bot.adapters.discord import commands as discord_commands
from bot.adapters.discord import forms, gateway, replies, views
from bot.adapters.discord.identify import IdentifyTurns
from bot.adapters.platform_watch import CallWatch, Outage
from bot.commands.core import Caller, Commands
from bot.content.drafts import QuestionForm
from bot.content.importers.common import MAX_FILE_BYTES
from bot.domain import tokens
from bot.domain.model import Ack, ChatRef, MessageRef, Player, QuestionCard, Quiz, Reply, Reveal
from bot.ports.chat import ChatUnreachable
from bot.ports.health import PlatformError, PlatformHealth
from bot.ports.store import DiscordIdentify
from bot.texts import render
from bot.texts.i18n import t
from bot.texts.textcut import clean

log = logging.getLogger("quizhost.discord")

PLATFORM = "discord"
READY_TIMEOUT = 60.0  # how long an engine post waits for the first login


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


class DiscordAdapter:
    platform = PLATFORM

    def __init__(
        self,
        token: str,
        guild_ids: list[int] | None = None,
        shards: str = "",
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        **client_options: Any,
    ) -> None:
        self._token = token
        self.guild_ids = list(guild_ids or [])
        self.shards = shards  # DISCORD_SHARDS: "auto" or all of a number of shards here
        self.shard_ids = shard_ids or None  # DISCORD_SHARD_IDS of DISCORD_SHARD_COUNT: some shards here
        self.shard_count = shard_count
        self.client_options = client_options  # extra discord.Client options (a proxy, say)
        self.client: discord.Client | None = None
        self._commands: Commands | None = None
        self._ready = asyncio.Event()
        self._item = views.press_item(self._on_press)
        self._turns: IdentifyTurns | None = None
        self._synced = False  # the slash commands: synced by the first session of a `serve`
        self.calls = CallWatch()  # every REST call's status (the client's http_trace), for /metrics
        self.gateway = Outage()  # since when the gateway has been closed, for /healthz

    # lifecycle ---------------------------------------------------------------------------

    async def serve(self, commands: Commands, identify: DiscordIdentify) -> None:
        """Log in, sync the slash commands, listen on the gateway until cancelled; a gateway event
        discord.py cannot read costs a new session, not the bot (bot/adapters/discord/gateway.py).
        `identify`: the store, whose locks space the shards' logins across processes."""
        self._commands = commands
        self._turns = IdentifyTurns(identify.identify_lock)
        self._synced = False
        try:
            await gateway.serve_sessions(self._logged_in_client, self._ready.clear)
        finally:
            self._ready.clear()
            await self._turns.close()

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
            "intents": discord.Intents.default(),  # slash commands and buttons need no privileged intent
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
        discord_commands.register(
            tree,
            self._on_command,
            self._engine_commands().engine.catalog,
            self._on_upload,
            self._own_quizzes,
            self._on_suggest,
        )
        return client

    async def _setup(self, tree: app_commands.CommandTree) -> None:
        """After login, before the gateway: buttons of old messages work again, commands sync."""
        # registered as the DynamicItem class it is (views.PressItem types only how it is called)
        tree.client.add_dynamic_items(cast(type[discord.ui.DynamicItem[Any]], self._item))
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

    def _engine_commands(self) -> Commands:
        if self._commands is None:
            raise RuntimeError("serve(commands) has not been called")
        return self._commands

    async def _client_ready(self) -> discord.Client:
        await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT)
        assert self.client is not None
        return self.client

    # the port: what the engine shows --------------------------------------------------------

    async def post_question(self, card: QuestionCard) -> MessageRef:
        channel = (await self._client_ready()).get_partial_messageable(int(card.chat.chat_id))
        with replies.reachable(card.chat), replies.uncertain("posting a question"):
            message = await channel.send(
                embed=views.question_embed(card), view=views.question_view(card, self._item), **replies.nonce()
            )
        return MessageRef(card.chat, str(message.id))

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Edit the question's embed into its own reveal and take its buttons off: one edit, no
        reply. An edit is idempotent: any failure raises and the outbox tries again. With no
        message to edit (deleted, or no longer ours), the reveal is posted."""
        channel = (await self._client_ready()).get_partial_messageable(int(reveal.card.chat.chat_id))
        embed = views.revealed_embed(reveal)
        if message is not None:
            try:
                await channel.get_partial_message(int(message.message_id)).edit(embed=embed, view=None)
                return
            except (discord.NotFound, discord.Forbidden) as exc:  # deleted, or no longer ours to edit
                log.warning("question message %s could not be edited (%s)", message.message_id, exc.status)
        with replies.reachable(reveal.card.chat), replies.uncertain("posting an answer"):
            await channel.send(embed=embed, **replies.nonce())

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        channel = (await self._client_ready()).get_partial_messageable(int(chat.chat_id))
        with replies.reachable(chat), replies.uncertain("sending a message"):
            await channel.send(**views.message_kwargs(reply, self._item), **replies.nonce())

    # what users do --------------------------------------------------------------------------

    def caller(self, interaction: discord.Interaction, command: str = "") -> Caller:
        """The chat and player of an interaction; admins manage the server (or, for /stop, its messages)."""
        user = interaction.user
        private = interaction.guild_id is None
        channel = interaction.channel
        chat = ChatRef(
            PLATFORM,
            str(interaction.channel_id),
            is_private=private,
            title="" if private else clean(getattr(channel, "name", "")),
        )
        player = Player(PLATFORM, str(user.id), clean(user.display_name), interaction.locale.value)
        perms = interaction.permissions  # resolved for this channel, sent with every interaction
        admin = private or perms.manage_guild or (command == "stop" and perms.manage_messages)
        return Caller(chat, player, is_admin=bool(admin), private_replies=True)  # ephemeral replies

    async def _on_command(self, interaction: discord.Interaction, name: str, *changes: str) -> None:
        await self._answer(interaction, self._handle(interaction, name, changes or ("",)))

    async def _handle(self, interaction: discord.Interaction, name: str, args: tuple[str, ...]) -> Reply:
        caller, reply = self.caller(interaction, name), None
        if name == "quiz" and (refusal := await self._cannot_post(interaction)):
            return refusal
        for arg in args:  # /settings time 20 pause 3 is two changes for the commands layer
            reply = await self._engine_commands().handle(name, arg, caller)
            if reply.kind == "error":
                break
        assert reply is not None
        return reply

    async def _on_upload(self, interaction: discord.Interaction, attachment: discord.Attachment) -> None:
        await self._answer(interaction, self._upload(interaction, attachment))

    async def _upload(self, interaction: discord.Interaction, attachment: discord.Attachment) -> Reply:
        """/upload file: an admin's attachment, fetched only when it may be accepted (1 MB)."""
        commands, caller = self._engine_commands(), self.caller(interaction, "upload")
        if not commands.may_upload(caller):
            return await commands.upload(caller, attachment.filename, b"")  # the refusal, nothing fetched
        if attachment.size > MAX_FILE_BYTES:
            return await commands.upload(caller, attachment.filename, b"", size=attachment.size)
        return await commands.upload(caller, attachment.filename, await attachment.read())

    async def _own_quizzes(self, interaction: discord.Interaction) -> list[Quiz]:
        """The quizzes uploaded in the interaction's channel, for its autocomplete."""
        return await self._engine_commands().engine.chat_quizzes.all(self.caller(interaction).chat.key)

    async def _on_press(self, interaction: discord.Interaction, data: str) -> None:
        caller = self.caller(interaction, "language" if tokens.needs_admin(data) else "")
        if (target := tokens.form_target(data)) is not None:  # "Add question", "Edit N": a form opens
            await self._open_form(interaction, target, caller)
            return
        await self._answer(interaction, self._press(interaction, data, caller))

    async def private_chat(self, player: Player) -> ChatRef:
        """The player's DM channel with the bot, opened if need be (ports/chat.py PrivateChats)."""
        assert self.client is not None
        try:
            dm = await self.client.create_dm(discord.Object(int(player.user_id)))
        except discord.HTTPException as exc:
            raise ChatUnreachable(player.key) from exc
        return ChatRef(PLATFORM, str(dm.id), is_private=True)

    async def _on_suggest(self, interaction: discord.Interaction) -> None:
        """/suggest: in a server, the form of a question to suggest; in a DM, why not."""
        if interaction.guild_id is None:
            await self._on_command(interaction, "suggest")
            return
        await self._open_form(interaction, "suggest", self.caller(interaction))

    async def _open_form(self, interaction: discord.Interaction, target: str, caller: Caller) -> None:
        """A question's form, filled in with the question it edits; answered within Discord's 3 s."""
        commands = self._engine_commands()
        lang = await commands.engine.language_for(caller.chat, caller.player)
        defaults = None
        if target not in ("add", "suggest") and (defaults := await commands.form_defaults(target, caller)) is None:
            await self._answer(interaction, commands.press(tokens.form_edit(target), caller))  # says it is gone
            return
        await interaction.response.send_modal(
            forms.QuestionModal(lang, target, interaction.id, defaults, self._on_form)
        )

    async def _on_form(self, interaction: discord.Interaction, form: QuestionForm, target: str) -> None:
        work = self._engine_commands().question_form(form, target, self.caller(interaction))
        await self._answer(interaction, work)

    async def _press(self, interaction: discord.Interaction, data: str, caller: Caller) -> Ack | Reply:
        if tokens.kind_of(data) is tokens.Kind.PRIVATE:
            return await self._in_private(interaction, data.removeprefix(tokens.Kind.PRIVATE.prefix), caller)
        if tokens.kind_of(data) is tokens.Kind.QUIZ and (refusal := await self._cannot_post(interaction)):
            return refusal
        return await self._engine_commands().press(data, caller)

    async def _in_private(self, interaction: discord.Interaction, payload: str, caller: Caller) -> Reply:
        """A button that continues in a DM ("Review my misses"): /start <payload> runs there, and
        the presser alone is told where to look."""
        commands = self._engine_commands()
        lang = await commands.engine.language_for(caller.chat, caller.player)
        try:
            dm = await interaction.user.create_dm()
            chat = ChatRef(PLATFORM, str(dm.id), is_private=True)
            await self.send(chat, await commands.handle("start", payload, Caller(chat, caller.player, is_admin=True)))
        except (discord.HTTPException, ChatUnreachable) as exc:  # the user accepts no DMs from this server
            log.info("no DM to %s: %s", caller.player.key, exc)
            return Reply(
                t(
                    lang,
                    "I can't send you a direct message. Allow direct messages from this server's "
                    "members, then press again.",
                ),
                language=lang,
                kind="error",
                private=True,
            )
        return Reply(t(lang, "I sent you a direct message: your review is there."), language=lang, private=True)

    async def _cannot_post(self, interaction: discord.Interaction) -> Reply | None:
        """A quiz posts to the channel, not through the interaction: say so now if the bot may not."""
        if interaction.guild_id is None:
            return None
        perms = interaction.app_permissions  # the bot's own, in this channel, sent with every interaction
        threaded = isinstance(interaction.channel, discord.Thread)
        may_send = perms.send_messages_in_threads if threaded else perms.send_messages
        if perms.view_channel and may_send and perms.embed_links:
            return None
        lang = await self._engine_commands().engine.language_for(self.caller(interaction).chat)
        text = t(
            lang,
            "I can't post in this channel. Give me View Channel, Send Messages and Embed Links here, then try again.",
        )
        return Reply(text, language=lang, kind="error", private=True)

    async def _on_interaction(self, interaction: discord.Interaction) -> None:
        """A button that is not one of ours (or a forged id) still gets a clear answer."""
        try:
            await self._answer_foreign(interaction)
        except Exception:  # this interaction's alone: the gateway and every other one go on
            log.exception("Discord: handling interaction %s failed", interaction.id)

    async def _answer_foreign(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        if views.TEMPLATE.fullmatch(str(dict(interaction.data or {}).get("custom_id", ""))):
            return  # the persistent item answers it
        lang = await self._engine_commands().engine.language_for(self.caller(interaction).chat)
        await interaction.response.send_message(render.ack_invalid(lang), ephemeral=True)

    async def _answer(self, interaction: discord.Interaction, work: Awaitable[Ack | Reply]) -> None:
        await replies.answer_in_time(interaction, work, self._item)
