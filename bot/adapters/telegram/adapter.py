"""Telegram: commands and button presses in, questions, reveals and replies out (PTB 22).

The Application is started by hand (not `run_polling`) so Telegram shares the process, the
engine and the database with Discord. Inbound, every update becomes a `Commands` call; the
game rules live in the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TypeVar

from telegram import (
    BotCommand,
    Chat,
    ChatMember,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    ReplyKeyboardMarkup,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatID, ChatType, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, InvalidToken, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.adapters.platform_watch import CallWatch
from bot.adapters.telegram import cards, polls, uploads
from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.claims import SharedClaims
from bot.adapters.telegram.pacing import tell_holds
from bot.adapters.telegram.photos import PhotoIds
from bot.adapters.telegram.presses import PressHandling, chat_ref, trouble
from bot.adapters.telegram.presses import player_of as _player
from bot.adapters.telegram.request import UpdatesRequest
from bot.adapters.telegram.runtime import (
    CONCURRENT_UPDATES,
    WEBHOOK_CONNECTIONS,
    AdminCache,
    Webhook,
    with_retries,
)
from bot.adapters.telegram.typed import TypedAnswers
from bot.adapters.telegram.webhook import SharedPages, WebhookServer
from bot.commands.core import COMMANDS, Caller, Commands, descriptions, parse
from bot.domain.model import LANGUAGES, ChatRef, MessageRef, Player, QuestionCard, Reply, Reveal
from bot.ports.chat import ChatUnreachable
from bot.ports.health import PlatformError, PlatformHealth
from bot.ports.store import TelegramStore, TelegramUpdates
from bot.texts.render import t

T = TypeVar("T")
Markup = InlineKeyboardMarkup | ReplyKeyboardMarkup | None
log = logging.getLogger("quizhost.telegram")

PLATFORM = "telegram"
# /start too: a saved quiz's "Play in a group" link adds it to the group, which admins alone may do
ADMIN_COMMANDS = frozenset(
    {
        "stop",
        "language",
        "settings",
        "upload",
        "remove",
        "dashboard",
        "quizstats",
        "schedule",
        "assign",
        "start",
        "suggestions",
    }
)
POLL_TIMEOUT = 30  # seconds Telegram may hold a getUpdates open
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# my_chat_member: the bot added back to a chat resumes the schedules paused there
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
PRESENT = frozenset({ChatMember.MEMBER, ChatMember.ADMINISTRATOR})
# while calls fail, /healthz asks getMe at most this often (a quiet webhook worker makes no
# other calls that could find Telegram back), and waits this long for its answer
PROBE_EVERY = 2.0
PROBE_WAIT = 1.0


def player_of(user: User, sender_chat: Chat | None = None) -> Player:
    """The player behind a message; an anonymous admin is named after the group it posts as."""
    name = user.full_name
    if user.id == ChatID.ANONYMOUS_ADMIN and sender_chat is not None:
        name = sender_chat.effective_name or name
    return _player(user, name)


def _id(chat: ChatRef) -> int | str:
    # An int chat id lets the rate limiter tell groups (negative ids) from private chats.
    return int(chat.chat_id) if chat.chat_id.lstrip("-").isdigit() else chat.chat_id


class TelegramAdapter(PressHandling, TypedAnswers):
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
        self._tasks: set[asyncio.Task] = set()  # presses taken from getUpdates, replies sent after answers
        self._press_slots = asyncio.Semaphore(CONCURRENT_UPDATES)  # as many as PTB handles updates at once

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
        self.photos.store = claims  # pictures' file_ids, shared with the other workers and the next start
        app = self.app
        tell_holds(app.bot, PLATFORM, commands.engine.language_for)
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
        app.add_handler(CallbackQueryHandler(self._on_press))
        # typed and numeric answers: replies to the bot's question in a group (privacy mode lets
        # them through), and plain messages in the private chat
        plain = filters.TEXT & ~filters.COMMAND & filters.UpdateType.MESSAGE
        app.add_handler(MessageHandler(plain & filters.REPLY & filters.ChatType.GROUPS, self._on_group_reply))
        app.add_handler(MessageHandler(plain & filters.ChatType.PRIVATE, self._on_private_text))
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
                self.updates.on_press = self._polled_press
            await self.app.updater.start_polling(
                timeout=POLL_TIMEOUT, allowed_updates=ALLOWED_UPDATES, bootstrap_retries=3
            )
            return
        hook = self.webhook
        assert self._commands is not None and self._claims is not None
        # Telegram posts an update again when it missed our answer, and a load balancer may send
        # the repeat to another worker: they claim updates in the database
        claims = SharedClaims(self._claims, self._commands.engine.clock)
        self._server = WebhookServer(hook, self.app, self._webhook_press, self.shared_pages, claims)
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
        steps.append(self._finish_presses)
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

    # inbound ---------------------------------------------------------------------------

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None or self._commands is None:
            return
        parsed = parse(message.text or message.caption or "", self.app.bot.username)  # caption: a file's /upload
        if parsed is None:  # /cmd@SomeOtherBot
            return
        name, args = parsed
        chat, player = chat_ref(message.chat), player_of(message.from_user, message.sender_chat)
        typed = message.text or message.caption or ""
        if name not in COMMANDS and not chat.is_private and "@" not in typed.split()[0]:
            return  # in a group, an unknown bare /cmd is probably another bot's
        is_admin = name in ADMIN_COMMANDS and await self._may_configure(message.chat, message.from_user, message)
        try:
            caller = Caller(chat, player, is_admin)
            if name == "upload":
                document = uploads.document_of(message)
                reply = await uploads.upload(self.app.bot, self._commands, caller, document, args)
            elif name == "suggest" and (poll := polls.replied_poll(message)) is not None:
                reply = await self._commands.suggest_poll(polls.poll_spec(poll), caller)
            else:
                reply = await self._commands.handle(name, args, caller)
        except Exception:
            log.exception("/%s failed in %s", name, chat.key)
            reply = Reply(trouble(player.language), kind="error")
        if reply.kind == "link" and not chat.is_private:
            reply = await self._in_private(player, reply)
        await self._send(chat, reply, reply_to=message.message_id)

    async def _on_poll(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None or message.poll is None or self._commands is None:
            return
        chat, player = chat_ref(message.chat), player_of(message.from_user)
        try:
            reply = await self._commands.poll(polls.poll_spec(message.poll), Caller(chat, player, True))
        except Exception:
            log.exception("a poll could not be taken in %s", chat.key)
            reply = Reply(trouble(player.language), kind="error")
        await self._send(chat, reply)

    async def private_chat(self, player: Player) -> ChatRef:
        """A user's private chat with the bot has their id (ports/chat.py PrivateChats)."""
        return ChatRef(PLATFORM, player.user_id, is_private=True)

    async def _in_private(self, player: Player, reply: Reply) -> Reply:
        """A link for one person's eyes, asked for in a group: sent to them privately, the group told so."""
        lang = reply.language
        try:
            await self._post(
                ChatRef(PLATFORM, player.user_id, True), fmt.reply_html(reply), None, None, "sending a link privately"
            )
        except (Forbidden, BadRequest):  # they never opened a private chat with the bot
            return Reply(
                t(lang, "Start a private chat with me first, then send /dashboard here again."),
                language=lang,
                kind="error",
            )
        return Reply(t(lang, "I sent you the link in a private message."), language=lang)

    async def _may_configure(self, chat: Chat, user: User, message: Message | None = None) -> bool:
        if chat.type == ChatType.PRIVATE:
            return True
        if user.id == ChatID.ANONYMOUS_ADMIN and message is not None:
            # Anonymous admins post as the group itself; only admins can be anonymous.
            return message.sender_chat is not None and message.sender_chat.id == chat.id
        return await self.admins.is_admin(self.app.bot, chat.id, user.id)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        update_id = update.update_id if isinstance(update, Update) else None
        log.error(
            "Telegram: handling update %s failed; it is acknowledged, the others go on",
            update_id,
            exc_info=context.error,
        )

    # outbound: the port ----------------------------------------------------------------

    async def post_question(self, card: QuestionCard) -> MessageRef:
        await self._ready.wait()

        async def post(chat: ChatRef) -> MessageRef:
            message = await cards.post_card(self.app.bot, _id(chat), card, self.photos)
            return MessageRef(chat, str(message.message_id))

        return await self._following_moves(card.chat, post)

    async def _following_moves(self, chat: ChatRef, send: Callable[[ChatRef], Awaitable[T]]) -> T:
        """Send to `chat`; when Telegram says the group became a supergroup, move it and send there.
        A 403 (the bot was removed from the group, or blocked by the user) is ChatUnreachable."""
        try:
            try:
                return await send(chat)
            except ChatMigrated as moved:
                new = ChatRef(chat.platform, str(moved.new_chat_id), chat.is_private, chat.title)
                await self._move(chat, new)
                return await send(new)
        except Forbidden as exc:
            raise ChatUnreachable(chat.key) from exc

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group upgraded to a supergroup gets a new id: its quiz and leaderboard move with it."""
        message = update.effective_message
        if message is None:
            return
        old, new = (
            (message.chat.id, message.migrate_to_chat_id)
            if message.migrate_to_chat_id
            else (message.migrate_from_chat_id, message.chat.id)
        )
        if old and new:
            title = message.chat.title or ""
            await self._move(ChatRef(PLATFORM, str(old), False, title), ChatRef(PLATFORM, str(new), False, title))

    async def _on_my_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot is a member (or admin) of a chat again: what was paused there resumes, and the
        chat is told so, once (this update comes once per change of the bot's status)."""
        change = update.my_chat_member
        if change is None or self._commands is None or change.new_chat_member.status not in PRESENT:
            return
        chat = chat_ref(change.chat)
        reply = await self._commands.bot_is_back(chat)
        if reply is not None:
            await self._send(chat, reply)

    async def _move(self, old: ChatRef, new: ChatRef) -> None:
        assert self._commands is not None
        await self._commands.engine.move_chat(old, new)

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        """Edit the question into its own reveal (no buttons, the right option, the split, why,
        who scored): one edit, no reply. With no message to edit (deleted), the reveal is posted."""
        await self._ready.wait()
        if message is not None and await self._edit_closed(message, reveal):
            return
        html = fmt.revealed_html(reveal)
        await self._following_moves(reveal.card.chat, lambda to: self._post(to, html, None, None, "posting an answer"))

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        await self._ready.wait()
        await self._send(chat, reply)

    async def post(self, chat: ChatRef, reply: Reply) -> MessageRef:
        """A message the engine edits later (an assignment's progress in its group)."""
        await self._ready.wait()
        html, keyboard = fmt.reply_html(reply), fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        posted = await self._following_moves(chat, lambda to: self._post(to, html, keyboard, None, "posting a message"))
        return MessageRef(replace(chat, chat_id=str(posted.chat_id)), str(posted.message_id))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        await self._ready.wait()
        html, keyboard = fmt.reply_html(reply), fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        try:
            await with_retries(
                lambda: self.app.bot.edit_message_text(
                    html,
                    chat_id=_id(message.chat),
                    message_id=int(message.message_id),
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                    link_preview_options=NO_PREVIEW,
                ),
                "editing a message",
            )
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():  # else an earlier try landed
                raise
        except Forbidden as exc:
            raise ChatUnreachable(message.chat.key) from exc

    async def _edit_closed(self, message: MessageRef, reveal: Reveal) -> bool:
        """True once Telegram took the edit. An edit is idempotent: a failure that leaves open
        whether it landed raises, and the outbox tries again until Telegram answers; "message is
        not modified" is that answer (an earlier try landed). False: the message cannot be edited."""
        try:
            await cards.edit_closed(self.app.bot, _id(message.chat), int(message.message_id), reveal, self.photos)
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.warning("could not edit question %s in %s: %s", message.message_id, message.chat.key, exc)
            return False
        except Forbidden as exc:
            raise ChatUnreachable(message.chat.key) from exc
        return True

    async def _send(self, chat: ChatRef, reply: Reply, reply_to: int | None = None) -> None:
        # Telegram has no message only one member sees: in a group, a refusal answers the
        # command it refuses, so it is clear whom it is for.
        target = reply_to if reply_to is not None and not chat.is_private else None
        html = fmt.reply_html(reply)
        keyboard: Markup = fmt.reply_keyboard(reply.buttons, self.app.bot.username)
        if reply.poll_button and chat.is_private:  # a quiz being written: Telegram's poll composer at hand
            keyboard = polls.composer(reply.poll_button)
        await self._following_moves(chat, lambda to: self._post(to, html, keyboard, target, "replying"))

    async def _post(self, chat: ChatRef, html: str, keyboard: Markup, reply_to: int | None, what: str) -> Message:
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
        return await with_retries(
            lambda: self.app.bot.send_message(
                _id(chat),
                html,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
                reply_parameters=reply,
                link_preview_options=NO_PREVIEW,
            ),
            what,
            once=True,
        )
