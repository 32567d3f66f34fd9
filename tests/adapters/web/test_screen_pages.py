"""The big screen's links and page without a browser: /screen gives a viewer's link (and an
admin the host's as well, privately), the page alone may run its script, and the host's forms
are refused without the token only a page of the host's link has."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.listener.headers import CSP
from bot.commands.core import Caller
from bot.testing.fakes import group, player
from tests.support.house import house_of
from tests.support.web_harness import Site, serving, shipped_engine

ANN, BOB = player(1, "Ann"), player(2, "Bob")


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    store, _, engine, _ = await shipped_engine(tmp_path / "quizhost.db")
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def screen(site: Site, caller: Caller, words: str = "") -> tuple[str, list[str]]:
    reply = await house_of(site.engine).commands.handle("screen", words, caller)
    links = [site.base + link[link.index("/s/") :] for link in re.findall(r"\S+/s/\S+", reply.text)]
    return reply.text, links


async def test_a_player_gets_the_screen_and_an_admin_the_host_link_too(site: Site):
    text, links = await screen(site, Caller(group(), BOB, False))
    assert "big screen" in text and len(links) == 1
    reply = await house_of(site.engine).commands.handle("screen", "", Caller(group(), ANN, True))
    assert reply.private and reply.kind == "link" and reply.text.count("/s/") == 2
    bad = await house_of(site.engine).commands.handle("screen", "javascript:alert(1)", Caller(group(), ANN, True))
    assert bad.kind == "error" and "/s/" not in bad.text


async def test_only_the_screen_may_run_its_script_and_it_draws_the_join_code(site: Site):
    _, (watch,) = await screen(site, Caller(group(), BOB, False), "https://t.me/+Quiz_Night")
    async with aiohttp.ClientSession() as http:
        async with http.get(watch) as response:
            html = await response.text()
            assert response.status == 200
            assert "script-src 'self'" in response.headers["Content-Security-Policy"]
            assert html.count("<script") == 1 and '<script src="/static/screen.js" defer>' in html
            assert "<svg" in html and "https://t.me/+Quiz_Night" in html and "<form" not in html
        async with http.get(site.link(group())) as response:  # every other page runs no script
            assert response.headers["Content-Security-Policy"] == CSP and "script-src" not in CSP


async def test_the_host_controls_are_refused_without_the_pages_token(site: Site):
    _, (watch, host) = await screen(site, Caller(group(), ANN, True))
    async with aiohttp.ClientSession() as http:
        async with http.get(host) as response:
            html = await response.text()
        token = re.search(r'name="csrf" value="([^"]+)"', html)
        assert token is not None and "<form" in html
        for form in ({"action": "next"}, {"action": "next", "csrf": "forged"}):
            async with http.post(f"{host}host", data=form) as response:
                assert response.status == 403
        async with http.post(f"{watch}host", data={"action": "next", "csrf": token.group(1)}) as response:
            assert response.status == 403, "a viewer's link has no controls, whatever token it sends"
        async with http.post(f"{host}host", data={"action": "next", "csrf": token.group(1)}) as response:
            assert response.status == 200
            assert "controls" in await response.text()
