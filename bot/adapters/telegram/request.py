"""PTB's transport on an aiohttp session instead of httpx.

Every button press costs one Bot API call (answerCallbackQuery), so this class decides how
many presses one process can answer. On a loopback fake Bot API, PTB's httpx class managed
about 220 calls a second on two cores and this one over ten times that (see
docs/PERFORMANCE.md). PTB documents custom request classes as supported
(`ApplicationBuilder().request(...)` and `.get_updates_request(...)`), and aiohttp is already
installed with discord.py.

Only the transport is here: status codes, `RetryAfter`, `BadRequest` and the other API errors
stay with `BaseRequest._request_wrapper`, exactly as for PTB's own class.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import quote_plus

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.adapters.keepalive import KeepAlivePoster
from bot.adapters.platform_watch import CallWatch
from bot.adapters.telegram.updates import UpdateGate

# A timeout argument of `do_request`: seconds, None (no limit) or `BaseRequest.DEFAULT_NONE`
# ("not given": this class's own). PTB's name for the type (ODVInput) lives in a private
# module, so the alias is our own, as loose as the values PTB may pass.
TimeoutArg = Any
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
_quoted = lru_cache(maxsize=4096)(quote_plus)
DEFAULT_POOL_SIZE = 256  # what PTB 22.4+ gives its own class: one connection per concurrent update


class AiohttpRequest(BaseRequest):
    """`telegram.request.BaseRequest` on one `aiohttp.ClientSession` (made in `initialize`).

    The timeouts mean what they mean for `HTTPXRequest`: `read_timeout` between bytes of the
    answer, `connect_timeout` to open a connection, `pool_timeout` to wait for a free one of the
    `connection_pool_size` connections. aiohttp has no separate write timeout: a request body
    here is a few hundred bytes written at once, and `write_timeout` is kept only so the two
    classes take the same arguments. `proxy` is an http(s) proxy URL; `watch` is told every
    call's status or network failure (/healthz and /metrics).
    """

    __slots__ = (
        "_connect_timeout",
        "_pool_size",
        "_pool_timeout",
        "_poster",
        "_proxy",
        "_read_timeout",
        "_session",
        "_timeouts",
        "_watch",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = DEFAULT_POOL_SIZE,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        proxy: str | None = None,
        watch: CallWatch | None = None,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout, self._write_timeout = read_timeout, write_timeout
        self._connect_timeout, self._pool_timeout = connect_timeout, pool_timeout
        self._proxy = proxy or None
        self._watch = watch
        self._session: aiohttp.ClientSession | None = None
        self._poster: KeepAlivePoster | None = None  # the presses' answers, when no proxy is in the way
        # getUpdates asks for its own read timeout every call: build each ClientTimeout once
        self._timeouts: dict[tuple[float | None, float | None, float | None], aiohttp.ClientTimeout] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    @property
    def connection_pool_size(self) -> int:
        return self._pool_size

    @property
    def proxy(self) -> str | None:
        return self._proxy

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            # limit_per_host=0: the pool is for one host (the Bot API) and the whole limit is its
            connector = aiohttp.TCPConnector(limit=self._pool_size, limit_per_host=0, enable_cleanup_closed=True)
            self._session = aiohttp.ClientSession(
                connector=connector,
                headers={"User-Agent": self.USER_AGENT},
                timeout=aiohttp.ClientTimeout(total=None),
                auto_decompress=True,
                trust_env=False,
            )
        if self._poster is None and self._proxy is None:
            self._poster = KeepAlivePoster(self._pool_size, self._read_timeout, self.USER_AGENT)

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None
        if self._poster is not None:
            await self._poster.close()
            self._poster = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        write_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        connect_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        pool_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        timeout = self._timeout(read_timeout, connect_timeout, pool_timeout)
        body, headers = _body(request_data)
        try:
            async with session.request(
                method, url, data=body, headers=headers, timeout=timeout, proxy=self._proxy
            ) as response:
                status, payload = response.status, await response.read()
        except TimeoutError as exc:  # aiohttp's ServerTimeoutError is one too
            self._unreachable(exc)
            raise TimedOut(f"aiohttp.{type(exc).__name__}: {exc}" if str(exc) else None) from exc
        except aiohttp.ClientError as exc:
            self._unreachable(exc)
            # the class name, for an error whose message is empty (as PTB's httpx class does)
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {exc}") from exc
        if self._watch is not None:
            self._watch.answered(status)
        return status, payload

    def _unreachable(self, exc: BaseException) -> None:
        if self._watch is not None:
            self._watch.unreachable(exc)

    async def post_form(self, url: str, fields: dict[str, str]) -> int:
        """POST a small form and return only the status (0 when the network failed).

        The fast path for answering presses: the caller takes any other status than 200 back
        to PTB's ordinary path, which maps errors to its exceptions. Without a proxy it goes on
        connections of its own (bot/adapters/keepalive.py), not through aiohttp's client.
        """
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        form = "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in fields.items()).encode()
        if self._poster is not None:
            status = await self._poster.post(url, form)
            if status and self._watch is not None:  # 0: the caller's PTB call reports what failed
                self._watch.answered(status)
            return status
        default = BaseRequest.DEFAULT_NONE
        timeout = self._timeout(default, default, default)
        try:
            async with session.post(url, data=form, headers=FORM, timeout=timeout, proxy=self._proxy) as response:
                await response.read()
                status = response.status
        except (TimeoutError, aiohttp.ClientError) as exc:
            self._unreachable(exc)
            return 0
        if self._watch is not None:
            self._watch.answered(status)
        return status

    def _timeout(self, read_arg: TimeoutArg, connect_arg: TimeoutArg, pool_arg: TimeoutArg) -> aiohttp.ClientTimeout:
        read = _seconds(read_arg, self._read_timeout)
        connect = _seconds(connect_arg, self._connect_timeout)
        pool = _seconds(pool_arg, self._pool_timeout)
        key = (read, connect, pool)
        timeout = self._timeouts.get(key)
        if timeout is None:
            # aiohttp's `connect` covers waiting for a pooled connection and opening a new one;
            # `sock_connect` only the opening
            acquire = None if connect is None or pool is None else connect + pool
            timeout = aiohttp.ClientTimeout(total=None, connect=acquire, sock_connect=connect, sock_read=read)
            if len(self._timeouts) < 64:
                self._timeouts[key] = timeout
        return timeout


def _seconds(given: TimeoutArg, default: float | None) -> float | None:
    """A timeout the caller gave, else ours: anything but a number or None (PTB's DEFAULT_NONE
    or another of its default markers) means "not given", as for PTB's own class."""
    if given is None or (isinstance(given, (int, float)) and not isinstance(given, bool)):
        return given
    return default


def _body(request_data: RequestData | None) -> tuple[bytes | aiohttp.FormData | None, dict[str, str] | None]:
    """Form-encoded parameters, as PTB's httpx class sends them; multipart when there are files.

    The form is encoded here: handed a dict, aiohttp builds a multipart writer (and a uuid4
    boundary) for every request before deciding it is not needed, a fifth of its time per call.
    Values repeat (every press gets one of a few answers): each is quoted once.
    """
    if request_data is None:
        return None, None
    if not request_data.contains_files:
        form = "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in request_data.json_parameters.items())
        return form.encode(), FORM
    multipart = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        multipart.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        multipart.add_field(name, content, filename=filename or name, content_type=mimetype)
    return multipart, None


class UpdatesRequest(BaseRequest):
    """The getUpdates transport: any request class inside, and button presses taken out early.

    PTB would build its objects for every callback query it fetches (about 140 µs each, their
    messages come whole); the adapter needs five fields of one. So the answer to getUpdates is
    parsed here (`parse_json_payload` is PTB's documented hook for that), every callback query
    goes to `on_press` as Telegram sent it, and PTB is left the other updates. When the last one
    was a press, PTB gets its id alone (an empty update): the updater confirms the offset from
    the last update it is given, so the next call starts after the same one as before.
    """

    __slots__ = ("gate", "inner", "on_press")

    def __init__(self, inner: BaseRequest) -> None:
        self.inner = inner
        # set by the adapter once it serves: (update id, callback query as Telegram sent it)
        self.on_press: Callable[[int, dict], None] | None = None
        self.gate = UpdateGate()  # each update once; one that cannot be read does not stop the rest

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        write_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        connect_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
        pool_timeout: TimeoutArg = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        return await self.inner.do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )

    # PTB declares it static and calls it on the instance; this one needs the instance's on_press
    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        data = self.inner.parse_json_payload(payload)
        on_press, updates = self.on_press, data.get("result")
        if on_press is None or not data.get("ok") or not isinstance(updates, list):
            return data
        data["result"] = self.gate.sift(updates, on_press)
        return data
