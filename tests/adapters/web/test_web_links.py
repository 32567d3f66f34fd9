"""The links `quizhost web` prints point where users reach the pages (QUIZHOST_WEB_URL), and
pages served on a non-loopback address over plain HTTP are warned about at start-up."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.app.settings import load_settings
from bot.app.web import public_address
from tests.adapters.web.test_web_serving import get

NOT_SET = "QUIZHOST_WEB_URL is not set"
PLAIN = "over plain HTTP"


async def start_web(tmp_path: Path, listen: str, url: str = "") -> tuple[str, str, str, asyncio.subprocess.Process]:
    """`quizhost web --listen`: (address it serves on, the link it printed, what it warned) and the process."""
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "web.db"), "QUIZHOST_WEB_URL": url}
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", "--listen", listen,
        env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert server.stdout is not None and server.stderr is not None
    address = (await server.stdout.readline()).decode().split(" on ")[1].split(" ")[0]
    link = (await server.stdout.readline()).decode().rsplit(" ", 1)[1].strip()
    warned = b""
    while not warned.endswith(b"\n\n") and not server.stderr.at_eof():  # the warnings come before the link
        try:
            warned += await asyncio.wait_for(server.stderr.readline(), 0.5)
        except TimeoutError:
            break
    return address, link, warned.decode(), server


async def stopped(server: asyncio.subprocess.Process) -> None:
    server.terminate()
    await asyncio.wait_for(server.wait(), 10)


async def test_the_printed_link_is_at_quizhost_web_url_and_opens_the_page_served(tmp_path):
    address, link, warned, server = await start_web(tmp_path, "127.0.0.1:0", "https://quiz.example.org/")
    try:
        assert link.startswith("https://quiz.example.org/c/")
        assert warned == ""
        status, html = await get(address + link.removeprefix("https://quiz.example.org"))
        assert status == 200 and "Leaderboard" in html  # the address users reach, the same page
    finally:
        await stopped(server)


async def test_listening_on_every_address_without_a_url_warns_twice(tmp_path):
    address, link, warned, server = await start_web(tmp_path, "0.0.0.0:0")
    try:
        assert link.startswith(address + "/c/")  # the listen address, for want of a better one
        assert NOT_SET in warned and PLAIN in warned and "set QUIZHOST_WEB_URL" in warned
    finally:
        await stopped(server)


@pytest.mark.parametrize(
    ("listen", "url", "warnings"),
    [
        ("127.0.0.1:8080", "", []),
        ("localhost:8080", "", []),
        ("[::1]:8080", "http://[::1]:8080", []),
        ("0.0.0.0:8091", "", [NOT_SET, PLAIN]),
        ("192.168.1.5:8091", "http://quiz.lan:8091", [PLAIN]),
        ("0.0.0.0:8091", "https://quiz.example.org", []),  # behind a proxy that speaks HTTPS
    ],
)
def test_which_listen_addresses_and_urls_are_warned_about(listen, url, warnings):
    settings = load_settings(None, quizhost_web_listen=listen, quizhost_web_url=url)
    shown, said = public_address(settings, "http://listened:1")
    assert shown == (url or "http://listened:1")
    assert [next(w for w in warnings if w in line) for line in said] == warnings


def test_pages_on_the_webhooks_server_are_warned_about_by_its_address_too():
    settings = load_settings(None, quizhost_web_listen="127.0.0.1:8080", quizhost_web_url="http://quiz.lan:8443")
    assert public_address(settings, "http://127.0.0.1:8080")[1] == []
    (said,) = public_address(settings, "http://127.0.0.1:8080", ["0.0.0.0:8443"])[1]
    assert PLAIN in said and "0.0.0.0" in said
