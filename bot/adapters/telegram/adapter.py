"""Telegram: commands and button presses in, questions, reveals and replies out (PTB 22).

The Application is started by hand (not `run_polling`) so Telegram shares the process, the
engine and the database with Discord. Inbound, every update becomes a `Commands` call; the
game rules live in the engine. This module connects, serves and stops; the update handlers
are inbound.py (presses.py, typed.py), the chat port's sending side sending.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Mapping

from telegram import BotCommand, Update
from telegram.error import InvalidToken, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    MessageHandler,
    filters,
)

from bot.adapters.platform_watch import CallWatch
from bot.adapters.telegram.claims import SharedClaims
from bot.adapters.telegram.inbound import UpdateHandlers
from bot.adapters.telegram.pacing import tell_holds
from bot.adapters.telegram.photos import PhotoIds
from bot.adapters.telegram.presses import TelegramPresses
from bot.adapters.telegram.request import UpdatesRequest
from bot.adapters.telegram.runtime import (
    WEBHOOK_CONNECTIONS,
    AdminCache,
    Webhook,
    with_retries,
)
from bot.adapters.telegram.sending import PLATFORM
from bot.adapters.telegram.typed import TypedReplies
from bot.adapters.telegram.webhook import SharedPages, WebhookServer
from bot.commands.core import Commands
from bot.commands.table import descriptions
from bot.domain.model import LANGUAGES
from bot.ports.health import PlatformError, PlatformHealth
from bot.ports.store import TelegramStore, TelegramUpdates

log = logging.getLogger("quizhost.telegram")

POLL_TIMEOUT = 30  # seconds Telegram may hold a getUpdates open
# my_chat_member: the bot added back to a chat resumes the schedules paused there
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
# while calls fail, /healthz asks getMe at most this often (a quiet webhook worker makes no
# other calls that could find Telegram back), and waits this long for its answer
PROBE_EVERY = 2.0
PROBE_WAIT = 1.0


class TelegramAdapter(UpdateHandlers):
    """The chat port on Telegram: commands and chat events (UpdateHandlers, over TelegramSending);
    presses and typed answers are handled by objects of their own, built when it serves."""

    platform = PLATFORM

    def __init__(
        self,
        app: Application,
        webhook: Webhook | None = None,
        updates: UpdatesRequest | None = None,
        watch: CallWatch | None = None,
    ) -> None:
        self.app = app
        self.watch = watch or CallWatch()  # told how every Bot API call went (build_application)
        self._next_probe = 0.0
        self.webhook = webhook
        self.updates = updates  # getUpdates' transport, which hands presses over before PTB parses them
        self.admins = AdminCache()
        self.photos = PhotoIds()  # the file_ids of the pictures this process uploaded
        self._commands: Commands | None = None
        self._claims: TelegramUpdates | None = None  # the database's record of updates handled
        self._ready = asyncio.Event()  # the engine may post before the bot has connected
        self._server: WebhookServer | None = None
        self.shared_pages: SharedPages | None = None  # served by the webhook's server too (bot/app/wiring.py)
        self._presses: TelegramPresses | None = None  # built by serve(), with the commands

    @property
    def polls(self) -> bool:
        """Long polling (getUpdates), which only one process on a database may do (bot/app/wiring.py)."""
        return self.webhook is None

    # /healthz and /metrics -------------------------------------------------------------

    async def health(self) -> PlatformHealth:
        """Down until connected, and once Bot API calls have got no answer (or a 5xx) for longer
        than the grace; while they fail, getMe asks again now and then."""
        if not self._ready.is_set():
            return PlatformHealth(False, "down: not connected")
        now = asyncio.get_running_loop().time()
        if self.watch.outage.since is not None and now >= self._next_probe:
            self._next_probe = now + PROBE_EVERY
            with contextlib.suppress(TelegramError, TimeoutError):  # the watch has seen how it went
                await asyncio.wait_for(self.app.bot.get_me(), PROBE_WAIT)
        return self.watch.outage.health()

    def platform_errors(self) -> Mapping[PlatformError, int]:
        return self.watch.errors

    # running -------------------------------------------------------------------------

    async def serve(self, commands: Commands, claims: TelegramStore) -> None:
        """Connect, listen until cancelled, then stop polling (or the webhook server) cleanly.

        `claims`: the store, where the webhook's updates are claimed once among the workers."""
        self._commands, self._claims = commands, claims
        presses = self._presses = TelegramPresses(self.app, self.webhook, self.admins, commands, self._send)
        typed = TypedReplies(self.app, commands, self._send)
        self.photos.store = claims  # pictures' file_ids, shared with the other workers and the next start
        app = self.app
        tell_holds(app.bot, PLATFORM, commands.language_for)
        app.add_handler(MessageHandler(filters.COMMAND & filters.UpdateType.MESSAGE, self._on_command))
        # a file sent with a command as its caption (/upload)
        app.add_handler(
            MessageHandler(
                filters.Document.ALL & filters.CaptionRegex(r"^/") & filters.UpdateType.MESSAGE, self._on_command
            )
        )
        # a poll sent in a private chat: a question of the quiz its author is writing (/newquiz)
        app.add_handler(
            MessageHandler(filters.POLL & filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE, self._on_poll)
        )
        app.add_handler(CallbackQueryHandler(presses.on_press))
        # typed and numeric answers: replies to the bot's question in a group (privacy mode lets
        # them through), and plain messages in the private chat
        plain = filters.TEXT & ~filters.COMMAND & filters.UpdateType.MESSAGE
        app.add_handler(MessageHandler(plain & filters.REPLY & filters.ChatType.GROUPS, typed.on_group_reply))
        app.add_handler(MessageHandler(plain & filters.ChatType.PRIVATE, typed.on_private_text))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        app.add_handler(ChatMemberHandler(self._on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_error_handler(self._on_error)
        try:
            await self._connect()
            await self._set_commands()
            await app.start()
            await self._start_updates()
            self._ready.set()
            log.info("Telegram: @%s is listening (%s)", app.bot.username, "webhook" if self.webhook else "polling")
            await asyncio.Event().wait()
        finally:
            self._ready.clear()
            await self._shutdown()

    def _serving_presses(self) -> TelegramPresses:
        if self._presses is None:
            raise RuntimeError("serve(commands) has not been called")
        return self._presses

    async def _connect(self) -> None:
        try:
            await with_retries(self.app.initialize, "connecting to Telegram")
        except InvalidToken:
            # PTB's own message quotes the token; tracebacks are not redacted like the logs
            log.error("Telegram refused the token: check TELEGRAM_BOT_TOKEN (BotFather: /mybots, API Token)")
            raise InvalidToken("Telegram refused TELEGRAM_BOT_TOKEN") from None

    async def _start_updates(self) -> None:
        if self.webhook is None:
            assert self.app.updater is not None
            if self.updates is not None:
                self.updates.on_press = self._serving_presses().polled_press
            await self.app.updater.start_polling(
                timeout=POLL_TIMEOUT, allowed_updates=ALLOWED_UPDATES, bootstrap_retries=3
            )
            return
        hook = self.webhook
        assert self._commands is not None and self._claims is not None
        # Telegram posts an update again when it missed our answer, and a load balancer may send
        # the repeat to another worker: they claim updates in the database
        claims = SharedClaims(self._claims, self._commands.clock)
        self._server = WebhookServer(hook, self.app, self._serving_presses().webhook_press, self.shared_pages, claims)
        await self._server.start()  # listening before Telegram is told where to post
        await with_retries(
            lambda: self.app.bot.set_webhook(
                hook.url, secret_token=hook.secret, allowed_updates=ALLOWED_UPDATES, max_connections=WEBHOOK_CONNECTIONS
            ),
            "setWebhook",
        )

    async def _shutdown(self) -> None:
        """Each step on its own: a failing one must not leave the others running."""
        app = self.app
        if self.updates is not None:  # presses in the updater's last call come again at the next start
            self.updates.on_press = None
        steps = []
        if self._server is not None:
            steps.append(self._server.stop)
        if app.updater is not None and app.updater.running:
            steps.append(app.updater.stop)
        if self._presses is not None:
            steps.append(self._presses.finish)
        if app.running:
            steps.append(app.stop)
        steps.append(app.shutdown)
        # a failed initialize (a wrong token) leaves the app "not initialized", so its shutdown
        # skips the bot; the bot's HTTP sessions are open all the same (a no-op when closed)
        steps.append(app.bot.shutdown)
        for step in steps:
            try:
                await step()
            except Exception:
                log.exception("Telegram: stopping failed at %s", step.__name__)

    async def _set_commands(self) -> None:
        """The command menu in every language, English also for clients in any other language."""
        bot = self.app.bot
        menus: list[tuple[str | None, list[BotCommand]]] = [
            (lang, [BotCommand(n, d) for n, d in descriptions(lang).items()]) for lang in LANGUAGES
        ]
        menus.append((None, [BotCommand(n, d) for n, d in descriptions("en").items()]))
        for lang, menu in menus:
            try:
                await with_retries(functools.partial(bot.set_my_commands, menu, language_code=lang), "setMyCommands")
            except TelegramError as exc:  # a missing menu is cosmetic: keep serving
                log.warning("setMyCommands (%s) failed: %s", lang or "default", exc)
