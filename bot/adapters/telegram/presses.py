"""Telegram button presses: read from PTB's objects or straight from the JSON, then answered.

Building PTB's objects for a callback query costs about 140 µs (its message comes whole, text,
keyboard and all), the largest single cost of a press after its HTTP request. So getUpdates'
transport and the webhook hand presses over as JSON; PTB's handler takes any left to it. Both
give the same `Press`, handled one way: every press is answered, whatever happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import CallbackQuery, Chat, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram import format as fmt
from bot.adapters.telegram.request import AiohttpRequest
from bot.adapters.telegram.runtime import ANSWER_WINDOW, CONCURRENT_UPDATES, AdminCache, Webhook, within_window
from bot.adapters.telegram.webhook import answer_method
from bot.commands.core import Caller, Commands
from bot.domain import tokens
from bot.domain.model import Ack, ChatRef, Player, Reply
from bot.texts import render
from bot.texts.i18n import normalise, t
from bot.texts.textcut import clean

if TYPE_CHECKING:
    from telegram.ext import Application

log = logging.getLogger("quizhost.telegram")

PLATFORM = "telegram"
NAME_MAX = 64
SHUTDOWN_GRACE = 5.0  # seconds presses in progress get to answer when the bot stops


@dataclass(frozen=True, slots=True)
class Press:
    query_id: str
    data: str
    chat: ChatRef | None  # the chat of the pressed message; None when it came without one
    player: Player
    user_id: int
    group_id: int | None  # the (super)group to ask about admin rights; None in private chats
    update_id: int | None = None  # for the log, when handling it fails


def full_name(first: str | None, last: str | None) -> str | None:
    """PTB's `full_name`: first name, then the last one if there is one."""
    if not first:
        return None
    return f"{first} {last}" if last else first


def chat_ref(chat: Chat) -> ChatRef:
    return ChatRef(PLATFORM, str(chat.id), chat.type == ChatType.PRIVATE, clean(chat.effective_name))


def player_of(user: User, name: str | None = None) -> Player:
    return Player(
        PLATFORM, str(user.id), fmt.fit(clean(name or user.full_name), NAME_MAX), _language(user.language_code)
    )


def press_of(query: CallbackQuery) -> Press:
    """The press in a callback query PTB has parsed."""
    user, message = query.from_user, query.message
    if message is None:  # an inline message carries no chat: the press belongs to no run
        chat, group = None, None
    else:
        chat = chat_ref(message.chat)
        group = None if chat.is_private else message.chat.id
    return Press(query.id, clean(query.data), chat, player_of(user), user.id, group)


def press_from_json(query: Any, update_id: int | None = None) -> Press | None:
    """The press in a callback query as Telegram sends it; None when it is not one.

    Every field is checked for the type Telegram documents and every text cleaned
    (bot/texts/textcut.py): a malformed press is refused, it must not fail the presses around it."""
    if not isinstance(query, dict):
        return None
    user, message = query.get("from"), query.get("message")
    if not isinstance(user, dict) or type(user.get("id")) is not int or not isinstance(query.get("id"), str):
        return None
    name = full_name(_text(user, "first_name"), _text(user, "last_name")) or ""
    player = Player(PLATFORM, str(user["id"]), fmt.fit(name, NAME_MAX), _language(user.get("language_code")))
    chat = message.get("chat") if isinstance(message, dict) else None
    ref, group = None, None  # no message, no chat: the press belongs to no run
    if isinstance(chat, dict) and type(chat.get("id")) is int:
        private = chat.get("type") == ChatType.PRIVATE
        title = _text(chat, "title") or full_name(_text(chat, "first_name"), _text(chat, "last_name")) or ""
        ref, group = ChatRef(PLATFORM, str(chat["id"]), private, title), None if private else chat["id"]
    return Press(clean(query["id"]), _text(query, "data") or "", ref, player, user["id"], group, update_id)


def _text(fields: dict, name: str) -> str | None:
    value = fields.get(name)
    return clean(value) if isinstance(value, str) else None


def _language(code: Any) -> str | None:
    return code if isinstance(code, str) and code.isascii() else None


def trouble(lang: str | None) -> str:
    return t(normalise(lang) or "en", "Something went wrong. Please try again.")


class TelegramPresses:
    """The presses TelegramAdapter receives, however they come (PTB, getUpdates' JSON, the
    webhook's): handed to `Commands.press` and answered; a reply for the chat sent by `send`."""

    def __init__(
        self,
        app: Application,
        webhook: Webhook | None,
        admins: AdminCache,
        commands: Commands,
        send: Callable[[ChatRef, Reply], Coroutine[Any, Any, None]],
    ) -> None:
        self.app, self.webhook, self.admins = app, webhook, admins
        self._commands, self._send = commands, send
        self._tasks: set[asyncio.Task] = set()  # presses taken from getUpdates, replies sent after answers
        self._press_slots = asyncio.Semaphore(CONCURRENT_UPDATES)  # as many as PTB handles updates at once

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A press PTB parsed (when getUpdates' transport did not take it first)."""
        if update.callback_query is not None:
            await self._handle_press(press_of(update.callback_query))

    def polled_press(self, update_id: int, query: dict) -> None:
        """A press taken from getUpdates' answer as JSON: handled beside the other updates."""
        press = press_from_json(query, update_id)
        if press is not None:
            self._spawn(self._handle_press(press, self._press_slots))

    async def _handle_press(self, press: Press, slots: asyncio.Semaphore | None = None) -> None:
        """Every press is answered, whatever happens: an unanswered one leaves the button spinning."""
        async with slots or contextlib.nullcontext():
            text, alert, follow_up = await self._outcome(press)
            await self._answer(press.query_id, text, alert)
        if follow_up is not None and press.chat is not None:
            await self._send(press.chat, follow_up)

    async def webhook_press(self, update_id: int, query: dict) -> dict | None:
        """A press from the webhook's JSON: the answer to put in the reply, or None once answered."""
        press = press_from_json(query, update_id)
        if press is None:
            return None
        if self.webhook is None or self.webhook.answers != "reply":
            await self._handle_press(press)
            return None
        text, alert, follow_up = await self._outcome(press)
        if follow_up is not None and press.chat is not None:  # after the answer, which leaves with the reply
            self._spawn(self._send(press.chat, follow_up))
        return answer_method(press.query_id, fmt.ack_text(text), alert)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("handling a press failed", exc_info=task.exception())

    async def _outcome(self, press: Press) -> tuple[str, bool, Reply | None]:
        """The answer's text, whether it is an alert, and a reply for the whole chat."""
        if press.chat is None:  # a button on a message of no chat (inline mode) answers no quiz
            return render.ack_invalid(normalise(press.player.language) or "en"), False, None
        try:
            result = await self._commands.press(press.data, await self._caller(press.chat, press))
        except Exception:
            log.exception("update %s: a press failed in %s", press.update_id, press.chat.key)
            return trouble(press.player.language), False, None
        if isinstance(result, Ack):
            return result.text, False, None
        if result.private:  # a refusal: only the presser sees it
            return result.text, True, None
        return "", False, result

    async def _caller(self, chat: ChatRef, press: Press) -> Caller:
        # A press on a message that is no longer accessible still carries its chat and token.
        if press.group_id is not None and tokens.needs_admin(press.data):
            is_admin = await self.admins.is_admin(self.app.bot, press.group_id, press.user_id)
        else:
            is_admin = chat.is_private
        return Caller(chat, press.player, is_admin)

    async def _answer(self, query_id: str, text: str, alert: bool) -> None:
        if await self._answer_fast(query_id, text, alert):
            return
        try:
            await within_window(
                lambda: self.app.bot.answer_callback_query(query_id, text=fmt.ack_text(text) or None, show_alert=alert),
                ANSWER_WINDOW,
                "answerCallbackQuery",
            )
        except TelegramError as exc:  # e.g. "query is too old" for a press made while we were down
            log.warning("could not answer a press: %s", exc)

    async def _answer_fast(self, query_id: str, text: str, alert: bool) -> bool:
        """answerCallbackQuery straight on our aiohttp session; False: let PTB's path do it.

        Every press costs this call, and PTB's method machinery (parameter objects, defaults,
        the rate limiter's bookkeeping, parsing the answer into objects) is about a third of
        the bot's CPU per press. The call needs none of it: it is never rate limited (no chat)
        and its answer is just `true`. Anything but a 200 goes the ordinary way, which retries
        and turns errors into PTB's exceptions.
        """
        request = self.app.bot.request  # ours (see build_application), not PTB's httpx one
        if not isinstance(request, AiohttpRequest):
            return False
        fields = {"callback_query_id": query_id}
        if text:
            fields["text"] = fmt.ack_text(text)
        if alert:
            fields["show_alert"] = "true"
        return await request.post_form(f"{self.app.bot.base_url}/answerCallbackQuery", fields) == 200

    async def finish(self) -> None:
        """Presses being handled get their answers out before the HTTP sessions close."""
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=SHUTDOWN_GRACE)
            for task in late:
                task.cancel()
