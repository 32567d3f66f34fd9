"""The aiohttp request class for PTB against a tiny Bot API on 127.0.0.1: the same answers,
errors and timeouts as PTB's own httpx class, its connection pool, and a proxy. And the presses
the getUpdates transport takes out of PTB's way: read from JSON exactly as PTB reads them."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from telegram import Bot, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.request import HTTPXRequest, RequestData
from telegram.request._requestparameter import RequestParameter

from bot.adapters.telegram.presses import press_from_json, press_of
from bot.adapters.telegram.request import AiohttpRequest, UpdatesRequest
from bot.adapters.telegram.runtime import build_application
from bot.app.settings import SettingsError, load_settings

TOKEN = "123:TEST"
ME = {"id": 123, "is_bot": True, "first_name": "Quiz Host", "username": "QuizHostBot"}


class TinyBotApi:
    """Answers /bot<token>/<method>; /bot<token>/status<code> answers with that error."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, dict]] = []  # method, content type, fields
        self.in_flight = self.most_in_flight = 0
        self.release = asyncio.Event()
        self.targets: list[str] = []  # request targets as received (absolute through a proxy)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        self.targets.append(request.raw_path)
        fields = dict(await request.post()) if request.method == "POST" else {}
        self.seen.append((method, request.content_type, fields))
        if method.startswith("status"):
            return _error(int(method.removeprefix("status")))
        if method == "slow":
            await asyncio.sleep(1)
        if method == "held":  # stays open until the test releases it
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            await self.release.wait()
            self.in_flight -= 1
        if method == "drop":
            request.transport.close()  # type: ignore[union-attr]
            return web.Response()
        if method == "sendDocument":
            document = fields["document"]
            return web.json_response(
                {"ok": True, "result": {"name": document.filename, "size": len(document.file.read())}}
            )
        return web.json_response({"ok": True, "result": ME if method == "getMe" else True})


def _error(code: int) -> web.Response:
    body: dict = {"ok": False, "error_code": code, "description": f"Error {code}: described"}
    if code == 429:
        body["parameters"] = {"retry_after": 3}
    if code == 499:  # a group became a supergroup (sent with 400 by Telegram)
        body = {"ok": False, "error_code": 400, "description": "migrated", "parameters": {"migrate_to_chat_id": -1001}}
        return web.json_response(body, status=400)
    if code == 599:  # not JSON at all, as a misbehaving proxy in between might answer
        return web.Response(status=502, text="<html>Bad Gateway</html>")
    return web.json_response(body, status=code)


async def serve(handler) -> tuple[web.AppRunner, int]:
    app = web.Application()
    app.router.add_route("*", "/bot{token}/{method}", handler)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]


@pytest.fixture
async def api() -> AsyncIterator[tuple[TinyBotApi, str]]:
    tiny = TinyBotApi()
    runner, port = await serve(tiny.handle)
    try:
        yield tiny, f"http://127.0.0.1:{port}/bot{TOKEN}"
    finally:
        tiny.release.set()
        await runner.cleanup()


@pytest.fixture(params=["aiohttp", "httpx"])
async def request_class(request) -> AsyncIterator[type]:
    yield AiohttpRequest if request.param == "aiohttp" else HTTPXRequest


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_a_bot_on_the_aiohttp_class_calls_methods_as_httpx_does(api):
    tiny, url = api
    sent = []
    for request in (AiohttpRequest(), HTTPXRequest()):
        async with Bot(
            TOKEN,
            base_url=url.removesuffix(TOKEN),
            request=request,
            get_updates_request=AiohttpRequest(connection_pool_size=1),
        ) as bot:
            assert bot.username == "QuizHostBot"
            keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A · yes", callback_data="qa:1:1:0")]])
            assert await bot.send_message(-100, "Ünïcode & <b>", reply_markup=keyboard) is True
        sent.append(tiny.seen[-1])
    # form-encoded both ways, nested fields as JSON strings: the fake Bot API and Telegram read either
    assert sent[0] == sent[1]
    method, content_type, fields = sent[0]
    assert (method, content_type) == ("sendMessage", "application/x-www-form-urlencoded")
    assert (
        fields["text"] == "Ünïcode & <b>"
        and json.loads(fields["reply_markup"])["inline_keyboard"][0][0]["callback_data"] == "qa:1:1:0"
    )


async def test_a_file_goes_as_multipart(api):
    tiny, url = api
    data = RequestData(
        [
            RequestParameter.from_input("chat_id", 1),
            RequestParameter.from_input("document", InputFile(b"x" * 1000, filename="notes.txt")),
        ]
    )
    async with AiohttpRequest() as request:
        assert await request.post(f"{url}/sendDocument", data) == {"name": "notes.txt", "size": 1000}
    assert tiny.seen[-1][1] == "multipart/form-data" and tiny.seen[-1][2]["chat_id"] == "1"


@pytest.mark.parametrize(
    "code, error",
    [
        (400, BadRequest),
        (401, InvalidToken),
        (403, Forbidden),
        (404, InvalidToken),
        (409, Conflict),
        (429, RetryAfter),
        (499, ChatMigrated),
        (500, NetworkError),
        (502, NetworkError),
        (599, NetworkError),
    ],
)
async def test_status_codes_raise_what_ptbs_own_class_raises(api, request_class, code, error):
    _, url = api
    request = request_class()
    await request.initialize()
    try:
        with pytest.raises(error) as raised:
            await request.post(f"{url}/status{code}")
    finally:
        await request.shutdown()
    assert type(raised.value) is error
    if code == 429:
        assert "Retry in 3 seconds" in str(raised.value)
    elif code not in (499, 599):
        assert raised.value.message == f"Error {code}: described"


async def test_a_slow_answer_times_out(api, request_class):
    _, url = api
    request = request_class(read_timeout=0.1)
    async with request:
        with pytest.raises(TimedOut):
            await request.post(f"{url}/slow")
        assert await request.post(f"{url}/getMe", read_timeout=2) == ME  # a per-call timeout wins


@pytest.mark.parametrize("where", ["closed port", "dropped connection"])
async def test_connection_errors_are_network_errors(api, request_class, where):
    _, url = api
    target = f"http://127.0.0.1:{closed_port()}/bot{TOKEN}/getMe" if where == "closed port" else f"{url}/drop"
    async with request_class() as request:
        with pytest.raises(NetworkError) as raised:
            await request.post(target)
    assert not isinstance(raised.value, TimedOut)


async def test_the_press_answer_fast_path_says_only_whether_it_landed(api):
    """200 for an answer Telegram took; anything else (an error, no network) goes PTB's way."""
    tiny, url = api
    async with AiohttpRequest(read_timeout=0.1) as request:
        fields = {"callback_query_id": "77", "text": "Locked in: B & more"}
        assert await request.post_form(f"{url}/answerCallbackQuery", fields) == 200
        assert tiny.seen[-1] == ("answerCallbackQuery", "application/x-www-form-urlencoded", fields)
        assert await request.post_form(f"{url}/status429", fields) == 429
        assert await request.post_form(f"{url}/drop", fields) == 0
        assert await request.post_form(f"{url}/slow", fields) == 0  # timed out, not hung
        assert await request.post_form(f"http://127.0.0.1:{closed_port()}/bot{TOKEN}/x", fields) == 0


async def test_the_pool_holds_at_most_its_size_and_a_full_pool_times_out_unsent(api):
    tiny, url = api
    async with AiohttpRequest(connection_pool_size=2, pool_timeout=0.1, connect_timeout=0.1) as request:
        assert request.connection_pool_size == 2
        held = [asyncio.ensure_future(request.post(f"{url}/held", read_timeout=5)) for _ in range(2)]
        while tiny.in_flight < 2:
            await asyncio.sleep(0.01)
        with pytest.raises(TimedOut):
            await request.post(f"{url}/getMe")
        assert [m for m, _, _ in tiny.seen].count("getMe") == 0  # never sent
        tiny.release.clear()
        queued = [asyncio.ensure_future(request.post(f"{url}/held", pool_timeout=5)) for _ in range(3)]
        await asyncio.sleep(0.1)
        tiny.release.set()
        assert await asyncio.gather(*held, *queued) == [True] * 5
    assert tiny.most_in_flight == 2


async def test_requests_go_through_the_proxy(api):
    tiny, proxy_url = api
    proxy = proxy_url.split("/bot")[0]
    target = f"http://127.0.0.1:{closed_port()}/bot{TOKEN}/getMe"  # nothing listens: only the proxy answers
    async with AiohttpRequest(proxy=proxy) as request:
        assert request.proxy == proxy
        assert await request.post(target) == ME
    assert tiny.targets == [target]  # the absolute form a proxy receives


async def test_not_initialized_and_shut_down_twice(api):
    _, url = api
    request = AiohttpRequest()
    with pytest.raises(NetworkError, match="not initialized"):  # BaseRequest wraps it, as for httpx
        await request.post(f"{url}/getMe")
    await request.initialize()
    await request.shutdown()
    await request.shutdown()
    await request.initialize()  # PTB may initialize a bot again after a shutdown
    assert await request.post(f"{url}/getMe") == ME
    await request.shutdown()


def test_the_application_uses_aiohttp_unless_told_httpx():
    default = build_application(TOKEN, "http://127.0.0.1:1/bot")
    general, updates = default.bot._request[1], default.bot._request[0]
    assert isinstance(general, AiohttpRequest) and isinstance(updates, UpdatesRequest)
    assert isinstance(updates.inner, AiohttpRequest) and updates.inner.connection_pool_size == 1
    assert general.connection_pool_size >= default.update_processor.max_concurrent_updates
    httpx = build_application(TOKEN, "http://127.0.0.1:1/bot", http="httpx", proxy="http://127.0.0.1:3128")
    assert isinstance(httpx.bot._request[1], HTTPXRequest) and isinstance(httpx.bot._request[0].inner, HTTPXRequest)
    proxied = build_application(TOKEN, "http://127.0.0.1:1/bot", proxy="http://127.0.0.1:3128")
    assert proxied.bot._request[1].proxy == "http://127.0.0.1:3128"
    assert proxied.bot._request[0].inner.proxy == "http://127.0.0.1:3128"
    with pytest.raises(ValueError):
        build_application(TOKEN, "http://127.0.0.1:1/bot", http="requests")


# presses taken out of getUpdates ---------------------------------------------------------

GROUP = {"id": -1001, "type": "supergroup", "title": "Quiz <group>"}
ANN = {"id": 61, "is_bot": False, "first_name": "Ann", "last_name": "Lee", "language_code": "ur"}


def callback(query_id: str, data: str, message: dict | None) -> dict:
    query = {"id": query_id, "from": ANN, "chat_instance": "ci", "data": data}
    if message is not None:
        query["message"] = message
    return query


QUERIES = [
    callback(
        "1",
        "qa:1:0:2",
        {
            "message_id": 5,
            "date": 1,
            "chat": GROUP,
            "text": "Question 1/3",
            "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": "qa:1:0:0"}]]},
        },
    ),
    callback("2", "ql:ur", {"message_id": 6, "date": 0, "chat": GROUP}),  # no longer accessible
    callback("3", "qp:tiny", {"message_id": 7, "date": 1, "chat": {"id": 61, "type": "private", "first_name": "Ann"}}),
    callback("4", "qa:1:0:1", None),  # on an inline message: no chat
]


@pytest.mark.parametrize("query", QUERIES, ids=["group", "inaccessible", "private", "inline"])
def test_a_press_reads_the_same_from_json_as_from_ptb(query):
    parsed = CallbackQuery.de_json(json.loads(json.dumps(query)), Bot(TOKEN))
    assert press_from_json(query) == press_of(parsed)


def test_what_is_not_a_press_is_left_alone():
    assert press_from_json({"id": "9", "data": "qa:1:0:0"}) is None  # nobody pressed it
    assert press_from_json("cb9") is None


@pytest.mark.parametrize("inner", [AiohttpRequest, HTTPXRequest])
async def test_get_updates_hands_presses_over_and_leaves_ptb_their_ids(inner):
    taken = []
    request = UpdatesRequest(inner(connection_pool_size=1))
    message = {"update_id": 7, "message": {"message_id": 1, "date": 1, "chat": GROUP, "text": "/quiz"}}
    answer = {"ok": True, "result": [message, {"update_id": 8, "callback_query": QUERIES[0]}]}
    payload = json.dumps(answer).encode()
    assert request.parse_json_payload(payload) == answer  # nobody listening yet: PTB gets everything
    request.on_press = lambda update_id, query: taken.append(query)
    parsed = request.parse_json_payload(payload)
    assert parsed["result"] == [message, {"update_id": 8}] and taken == [QUERIES[0]]  # 8: the offset moves on
    answer["result"] = [{"update_id": 9, "callback_query": QUERIES[1]}, message | {"update_id": 10}]
    assert request.parse_json_payload(json.dumps(answer).encode())["result"] == [message | {"update_id": 10}]
    assert taken == [QUERIES[0], QUERIES[1]]
    error = {"ok": False, "error_code": 409, "description": "Conflict: terminated by other getUpdates request"}
    assert request.parse_json_payload(json.dumps(error).encode()) == error
    assert request.read_timeout == inner().read_timeout


def test_the_http_settings_are_checked_and_a_proxy_is_never_echoed():
    settings = load_settings(
        env_file=None,
        telegram_http=" HTTPX ",
        telegram_webhook_answers="Reply",
        telegram_proxy="http://user:pw@proxy.example:3128",
    )
    assert (settings.telegram_http, settings.telegram_webhook_answers) == ("httpx", "reply")
    with pytest.raises(SettingsError, match="TELEGRAM_HTTP") as wrong:
        load_settings(env_file=None, telegram_http="requests")
    assert "requests" in str(wrong.value)
    with pytest.raises(SettingsError, match="TELEGRAM_PROXY") as wrong:
        load_settings(env_file=None, telegram_proxy="socks5://user:s3cret@proxy.example:1080")
    assert "s3cret" not in str(wrong.value)
