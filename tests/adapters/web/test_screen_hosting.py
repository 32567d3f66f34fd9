"""A hosted game paced from the big screen: the host's link shows the controls, each form post
(with the page's CSRF token) is the engine's host action, and every viewer's stream shows what it
did: the question, the pause with the time it kept, the resume, the hint, the close, the podium."""

from __future__ import annotations

import re

import aiohttp

from bot.commands.core import Caller
from bot.testing.fakes import group
from tests.adapters.web.test_screen_pages import screen
from tests.engine.test_hosting import HOST, engine_on, say
from tests.support.screen_stream import Stream, following, seen
from tests.support.web_harness import serving


async def pressed(http: aiohttp.ClientSession, host: str, csrf: str, action: str) -> str:
    async with http.post(f"{host}host", data={"action": action, "csrf": csrf}) as response:
        assert response.status == 200
        said = re.search(r'<p class="said" role="status">(.*?)</p>', await response.text())
        assert said is not None
        return said.group(1)


def kinds(stream: Stream) -> list[str]:
    return [e.kind for e in stream.events if e.kind != "answered"]


async def test_the_host_paces_the_game_from_the_screen_and_viewers_see_each_step(store, clock, adapter):
    engine = engine_on(store, clock, adapter)
    async with serving(engine) as site:
        _, (watch, host) = await screen(site, Caller(group(), HOST, True))
        await say(engine, "host", args="demo 30s")  # a time limit the host gives: the pause keeps what is left
        async with following(f"{watch}events") as stream, aiohttp.ClientSession() as http:
            async with http.get(host) as response:
                found = re.search(r'name="csrf" value="([^"]+)"', await response.text())
            assert found is not None
            csrf = found.group(1)

            assert "Next" in await pressed(http, host, csrf, "next")
            await engine.run_due()
            (asked,) = await seen(stream, "question", 1)
            clock.advance(10)
            await pressed(http, host, csrf, "pause")
            (paused,) = await seen(stream, "paused", 1)
            assert paused.data["left"] == asked.data["deadline"] - clock.now() == 20
            clock.advance(300)  # a long pause costs the question nothing
            await pressed(http, host, csrf, "resume")
            (resumed,) = await seen(stream, "resumed", 1)
            assert resumed.data["deadline"] == clock.now() + 20
            await pressed(http, host, csrf, "hint")
            (hint,) = await seen(stream, "hint", 1)
            assert hint.data["hint"].startswith("Think of")
            assert "right_letter" not in stream.raw, "the hint gives nothing of the split away"
            await pressed(http, host, csrf, "next")
            await engine.run_due()
            await seen(stream, "closed", 1)
            await pressed(http, host, csrf, "end")
            await engine.run_due()
            await seen(stream, "podium", 1)
    assert kinds(stream) == ["question", "paused", "resumed", "hint", "closed", "podium"]
    ids = [e.id for e in stream.events]
    assert ids == sorted(set(ids))
