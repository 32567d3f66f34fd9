"""A fake Telegram Bot API on 127.0.0.1: the methods quizhost calls, Telegram's limits, and
hooks for tests to play users (commands, button presses) and to make the network misbehave.

PTB posts form-encoded bodies; nested fields (reply_markup, reply_parameters, commands, ...)
arrive as JSON strings. Every call is recorded; a call Telegram would refuse gets the same
400 here, so a test fails where the platform would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from bot.testing.fake_telegram_balancer import LoadBalancer
from bot.testing.fake_telegram_methods import ApiError, BotApiMethods, Call, Press, Sent
from bot.testing.fake_telegram_polls import UserPolls

ANONYMOUS_ADMIN = 1087968824
JSON_FIELDS = {
    "reply_markup",
    "reply_parameters",
    "commands",
    "scope",
    "allowed_updates",
    "link_preview_options",
    "entities",
    "media",
}
INT_FIELDS = {"chat_id", "message_id", "user_id", "offset", "limit", "timeout", "max_connections"}


@dataclass
class Failure:
    method: str
    kind: str  # "429" | "500" | "drop" | "400" (a request Telegram refuses as it is, every time)
    times: int
    retry_after: int
    when: Callable[[dict], bool] | None


@dataclass
class FakeBotApi(BotApiMethods, UserPolls):
    token: str = "123456:TEST-token-of-the-fake-Bot-API-0123"  # the form of a real one (quizhost run checks it)
    username: str = "QuizHostBot"
    bot_id: int = 123
    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[int, int], Sent] = field(default_factory=dict)
    presses: dict[str, Press] = field(default_factory=dict)
    chats: dict[int, dict] = field(default_factory=dict)
    admins: dict[int, set[int]] = field(default_factory=dict)
    # who is in which group, as getChatMember answers (chat -> user -> status): those who joined,
    # wrote or pressed there; an admin is one as well
    members: dict[int, dict[int, str]] = field(default_factory=dict)
    commands: dict[str, list[dict]] = field(default_factory=dict)  # language ("" = default) -> menu
    webhook: dict | None = None
    allowed_updates: list[str] | None = None  # the kinds of update the bot asked for (None: all)
    expected_refusals: set[str] = field(default_factory=set)  # errors a test provokes on purpose
    stamp: Callable[[], float] = time.monotonic  # the clock calls are stamped with (a test's fake one)
    balancer: LoadBalancer | None = None  # set: updates go to several webhook workers through it
    # called around every method's work: before it (may raise DropConnection: nothing was done)
    # and after it, before the reply goes out (raising DropConnection loses the reply only)
    around: Callable[[Call, bool], Awaitable[None]] | None = None

    def __post_init__(self) -> None:
        self._updates: list[dict] = []
        self._update_ids = itertools.count(1)
        self._press_ids = itertools.count(1)
        self._last_message_id: dict[int, int] = {}
        self._questions: dict[int, set[int]] = {}  # chat -> ids of messages with answer buttons
        self._failures: list[Failure] = []
        self._outage: tuple[float, float, frozenset[str]] | None = None  # (from, until, methods spared)
        self._outage_calls = 0
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.messages_sent_by_users: dict[tuple[int, int], dict] = {}
        self.files: dict[str, bytes] = {}  # file_id -> content, for getFile and the download
        self.downloads: list[str] = []  # file paths the bot fetched
        self.photo_uploads: list[tuple[str, str]] = []  # (file name, file_id) of every photo uploaded
        self.photo_urls: list[str] = []  # photos the bot sent by URL
        self.bot_deletes_in: set[int] = set()  # groups where the bot is an admin that may delete messages
        self.deleted: list[tuple[int, int]] = []  # (chat, message) the bot deleted
        self.removed_from: set[int] = set()  # chats that removed (or blocked) the bot: every call there is a 403

    # server ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free port; started again after `stop`, on the same one (an outage ends)."""
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)  # where getFile's file_path points
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Close every connection and listen no more: calls are refused until `start`."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        params = await _params(request)
        call = Call(method, params, at=self.stamp())
        self.calls.append(call)
        failure = self._failure_for(method, params) or self._outage_failure(call)
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            if failure is not None:
                self._fail(failure)
            self._check_member(params)
            handler = getattr(self, f"_m_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            if self.around is not None:
                await self.around(call, False)
            result = await handler(params)
            if self.around is not None:
                await self.around(call, True)
            body: dict[str, Any] = {"ok": True, "result": result}
        except ApiError as exc:
            call.status, call.error = exc.code, exc.description
            body = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.parameters:
                body["parameters"] = exc.parameters
        except _Drop:
            call.status, call.error = 0, "connection dropped"
            request.transport.close()  # type: ignore[union-attr]
            await self._notify()
            return web.Response(status=500)
        await self._notify()
        return web.json_response(body, status=call.status)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        """The Bot API's file address: {api}/file/bot<token>/<file_path>."""
        if request.match_info["token"] != self.token:
            return web.Response(status=401)
        path = request.match_info["path"]
        self.downloads.append(path)
        data = self.files.get(path.rsplit("/", 1)[-1])
        return web.Response(body=data) if data is not None else web.Response(status=404)

    # making trouble ------------------------------------------------------------------

    def fail(
        self, method: str, kind: str, times: int = 1, retry_after: int = 1, when: Callable[[dict], bool] | None = None
    ) -> None:
        """The next `times` calls of `method` (matching `when`) get a 429, a 500, a dropped
        connection or a 400 (a Bad Request: what Telegram answers a message it will never take)."""
        assert kind in ("429", "500", "drop", "400")
        self._failures.append(Failure(method, kind, times, retry_after, when))

    def outage(self, seconds: float, spare: frozenset[str] = frozenset()) -> None:
        """From now (by `stamp`) for `seconds`, every call (but those of methods in `spare`) fails,
        alternately with a 500 and a dropped connection, as a flapping Bot API does. Nothing
        is done for a failed call: a drop only leaves the bot unsure whether it was."""
        start = self.stamp()
        self._outage, self._outage_calls = (start, start + seconds, spare), 0

    def _outage_failure(self, call: Call) -> Failure | None:
        if self._outage is None:
            return None
        start, until, spare = self._outage
        if not start <= call.at < until or call.method in spare:
            return None
        self._outage_calls += 1
        return Failure(call.method, "500" if self._outage_calls % 2 else "drop", 1, 0, None)

    def _failure_for(self, method: str, params: dict) -> Failure | None:
        for failure in self._failures:
            if failure.method == method and failure.times > 0 and (failure.when is None or failure.when(params)):
                failure.times -= 1
                return failure
        return None

    @staticmethod
    def _fail(failure: Failure) -> None:
        if failure.kind == "429":
            raise ApiError(
                429, f"Too Many Requests: retry after {failure.retry_after}", {"retry_after": failure.retry_after}
            )
        if failure.kind == "500":
            raise ApiError(500, "Internal Server Error")
        if failure.kind == "400":
            raise ApiError(400, "Bad Request: message can't be posted")
        raise _Drop()

    def remove_bot(self, chat: dict, removed: bool = True) -> None:
        """The group removes the bot (a private chat: the user blocks it); False: it is back."""
        (self.removed_from.add if removed else self.removed_from.discard)(chat["id"])

    async def add_bot_back(self, chat: dict, by: dict) -> None:
        """`by` adds the bot to the group again (a private chat: unblocks it): calls there go
        through, and the bot gets a my_chat_member update if it asked for them."""
        self.remove_bot(chat, removed=False)
        bot = {"id": self.bot_id, "is_bot": True, "first_name": "Quiz Host", "username": self.username}
        change = {
            "chat": chat,
            "from": by,
            "date": int(time.time()),
            "old_chat_member": {
                "status": "kicked" if chat["id"] > 0 else "left",
                "user": bot,
                **({"until_date": 0} if chat["id"] > 0 else {}),
            },
            "new_chat_member": {"status": "member", "user": bot},
        }
        await self._deliver({"update_id": next(self._update_ids), "my_chat_member": change})

    def _check_member(self, params: dict) -> None:
        chat_id = params.get("chat_id")
        if chat_id in self.removed_from:
            raise ApiError(
                403,
                "Forbidden: bot was blocked by the user"
                if isinstance(chat_id, int) and chat_id > 0
                else "Forbidden: bot was kicked from the group chat",
            )

    def failures_left(self) -> int:
        return sum(f.times for f in self._failures)

    # playing users -------------------------------------------------------------------

    @staticmethod
    def user(user_id: int, first_name: str, last_name: str = "", language: str | None = "en") -> dict:
        user = {"id": user_id, "is_bot": False, "first_name": first_name}
        if last_name:
            user["last_name"] = last_name
        if language:
            user["language_code"] = language
        return user

    def group(self, chat_id: int, title: str = "Quiz group") -> dict:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        self.chats[chat_id] = chat
        return chat

    def private(self, user: dict) -> dict:
        chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        self.chats[user["id"]] = chat
        return chat

    def make_admin(self, chat: dict, user: dict) -> None:
        self.admins.setdefault(chat["id"], set()).add(user["id"])

    def join(self, chat: dict, user: dict, status: str = "member") -> None:
        """`user` is in the group (or, with status "left" or "kicked", was; "restricted": in it but
        muted; "restricted_out": restricted, and no longer in it)."""
        self.members.setdefault(chat["id"], {})[user["id"]] = status

    def add_file(self, name: str, data: bytes, size: int | None = None) -> dict:
        """A document as a message carries it; `size` may claim another size than the data's."""
        file_id = f"doc{len(self.files) + 1}"
        self.files[file_id] = data
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_name": name,
            "mime_type": "application/octet-stream",
            "file_size": len(data) if size is None else size,
        }

    async def send_document(self, chat: dict, user: dict, document: dict, caption: str = "") -> int:
        """A user sends a file, maybe with a caption (a /command in it gets its entity)."""
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "date": int(time.time()),
            "chat": chat,
            "from": user,
            "document": document,
        }
        if caption:
            message["caption"] = caption
            if caption.startswith("/"):
                message["caption_entities"] = [{"type": "bot_command", "offset": 0, "length": len(caption.split()[0])}]
        self.messages_sent_by_users[(chat["id"], message["message_id"])] = message
        await self._deliver({"update_id": next(self._update_ids), "message": message})
        return message["message_id"]

    async def reply_text(self, chat: dict, user: dict, text: str, to_message_id: int) -> int:
        """A user replies `text` to an earlier message of theirs (a document, say)."""
        update = self.text_update(chat, user, text)
        update["message"]["reply_to_message"] = self.messages_sent_by_users[(chat["id"], to_message_id)]
        await self._deliver(update)
        return update["message"]["message_id"]

    async def reply_to_bot(self, chat: dict, user: dict, text: str, to_message_id: int) -> int:
        """A user replies `text` to one of the bot's messages (with privacy mode on, the only
        plain messages a bot gets in a group); returns the id of their message."""
        update = self.text_update(chat, user, text)
        update["message"]["reply_to_message"] = self._message_json(self.messages[(chat["id"], to_message_id)])
        self.messages_sent_by_users[(chat["id"], update["message"]["message_id"])] = update["message"]
        await self._deliver(update)
        return update["message"]["message_id"]

    def text_update(
        self, chat: dict, user: dict, text: str, sender_chat: dict | None = None, mentions: Sequence[dict] = ()
    ) -> dict:
        """An update for `text` typed by `user` (a /command gets its bot_command entity, as Telegram
        adds it; each user of `mentions` a text_mention entity over their first name in the text,
        as a member picked from the mention list who has no username)."""
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "date": int(time.time()),
            "chat": chat,
            "from": user,
            "text": text,
        }
        entities: list[dict[str, Any]] = []
        if text.startswith("/"):
            entities.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])})
        for mentioned in mentions:
            at = text.index(mentioned["first_name"])
            units = len(text[:at].encode("utf-16-le")) // 2  # Telegram counts UTF-16 code units
            length = len(mentioned["first_name"].encode("utf-16-le")) // 2
            entities.append({"type": "text_mention", "offset": units, "length": length, "user": mentioned})
        if entities:
            message["entities"] = entities
        if sender_chat is not None:
            message["sender_chat"] = sender_chat
        return {"update_id": next(self._update_ids), "message": message}

    async def send_text(
        self,
        chat: dict,
        user: dict,
        text: str,
        sender_chat: dict | None = None,
        mentions: Sequence[dict] = (),
        reply_to: int | None = None,
    ) -> int:
        """A user types `text` (replying to message `reply_to` of a user's); returns the id of their message."""
        update = self.text_update(chat, user, text, sender_chat, mentions)
        message = update["message"]
        if reply_to is not None:
            message["reply_to_message"] = self.messages_sent_by_users[(chat["id"], reply_to)]
        self.messages_sent_by_users[(chat["id"], message["message_id"])] = message
        await self._deliver(update)
        return message["message_id"]

    async def press(self, chat: dict, user: dict, message_id: int, data: str, inaccessible: bool = False) -> str:
        """A user presses a button with `data` under message `message_id`; returns the query id."""
        sent = self.messages.get((chat["id"], message_id))
        if inaccessible or sent is None:  # Telegram's InaccessibleMessage: date 0
            message = {"chat": chat, "message_id": message_id, "date": 0}
        else:
            message = self._message_json(sent)
        query_id = f"cb{next(self._press_ids)}"
        query = {"id": query_id, "from": user, "message": message, "chat_instance": f"ci{chat['id']}", "data": data}
        update: dict[str, Any] = {"update_id": next(self._update_ids), "callback_query": query}
        self.presses[query_id] = Press(query_id, update["update_id"])
        await self._deliver(update)
        return query_id

    def _new_update_id(self) -> int:
        return next(self._update_ids)

    async def _deliver(self, update: dict) -> None:
        kind = next(k for k in update if k != "update_id")
        self._seen_in_group(update[kind])
        if self.allowed_updates and kind not in self.allowed_updates:
            return  # Telegram keeps back the kinds of update the bot did not ask for
        if self.balancer is not None:  # several workers behind one URL (fake_telegram_balancer.py)
            for method in await self.balancer.deliver(update):
                await self.carry_out(method)
            await self._notify()
        elif self.webhook is not None:
            status = await self.post_to_webhook(update, self.webhook.get("secret_token"))
            assert status == 200, f"the bot's webhook answered {status}"
        else:
            self._updates.append(update)
            await self._notify()

    def _seen_in_group(self, event: dict) -> None:
        """Who writes or presses in a group is in it (Telegram takes nothing from anyone else)."""
        chat, user = (event.get("message") or event).get("chat"), event.get("from")
        if isinstance(chat, dict) and isinstance(user, dict) and chat.get("type") in ("group", "supergroup"):
            self.members.setdefault(chat["id"], {})[user["id"]] = "member"

    async def carry_out(self, method: dict) -> None:
        """A method call a webhook reply carried (`{"method": ..., params}`), as Telegram makes it:
        recorded like a request; its errors go nowhere, as the bot never hears of them."""
        params = {k: str(v).lower() if isinstance(v, bool) else v for k, v in method.items() if k != "method"}
        call = Call(method["method"], params, at=self.stamp())
        self.calls.append(call)
        handler = getattr(self, f"_m_{call.method}", None)
        try:
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            await handler(params)
        except ApiError as exc:
            call.status, call.error = exc.code, exc.description

    async def post_to_webhook(self, update: dict, secret: str | None) -> int:
        """POST an update to the bot's webhook as Telegram does, retrying while it starts listening."""
        assert self.webhook is not None, "the bot set no webhook"
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
        async with aiohttp.ClientSession() as session:
            for _ in range(100):
                try:
                    async with session.post(self.webhook["url"], json=update, headers=headers) as response:
                        return response.status
                except aiohttp.ClientConnectorError:
                    await asyncio.sleep(0.02)
        raise AssertionError("the webhook never accepted a connection")

    # waiting and reading -------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Wait until `predicate()` is truthy (checked after every call the bot makes)."""

        async def until() -> Any:
            async with self._changed:
                while not (value := predicate()):
                    await self._changed.wait()
                return value

        try:
            return await asyncio.wait_for(until(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"timed out waiting for {what or predicate}; last calls: "
                f"{[(c.method, c.status) for c in self.calls[-8:]]}"
            ) from None

    async def answer_of(self, query_id: str) -> Press:
        press = self.presses[query_id]
        await self.wait_for(lambda: press.answered, what=f"an answer to {query_id}")
        return press

    def sent_to(self, chat: dict) -> list[Sent]:
        return sorted((m for (c, _), m in self.messages.items() if c == chat["id"]), key=lambda m: m.message_id)

    def questions(self, chat: dict) -> list[Sent]:
        """Question messages (those sent with answer buttons), in order."""
        return [m for m in self.sent_to(chat) if m.message_id in self._questions.get(chat["id"], set())]

    def unanswered(self) -> list[str]:
        return [p.id for p in self.presses.values() if not p.answered]

    def refused(self) -> list[Call]:
        """Calls Telegram would have refused (4xx) that the test did not ask for."""
        return [c for c in self.calls if 400 <= c.status < 500 and c.status != 429]

    def called(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method and c.status == 200]


class _Drop(Exception):
    """Close the connection without an answer."""


DropConnection = _Drop  # for a test's `around` hook


async def _params(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        raw: dict[str, Any] = await request.json()
    else:
        raw = dict(await request.post())
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str) and key in JSON_FIELDS:
            value = json.loads(value)
        elif isinstance(value, str) and key in INT_FIELDS and re.fullmatch(r"-?\d+", value):
            value = int(value)
        params[key] = value
    return params
