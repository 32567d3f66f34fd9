"""The big screen as an outsider tries it: headers and forms a browser would never send."""

from __future__ import annotations

import contextlib
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web import screen as screen_pages
from bot.commands.core import Caller
from bot.commands.weblinks import signer_for
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from tests.adapters.web.test_screen_pages import ANN, screen
from tests.support.screen_stream import following, seen
from tests.support.web_harness import serving, shipped_engine


@pytest.mark.parametrize("last_id", ["\u00b2", "\u0661\u0662", "-1", "1e3", " ", "9" * 40])
async def test_a_last_event_id_that_is_no_id_of_ours_starts_a_new_viewer(tmp_path: Path, last_id: str):
    """Digits int() refuses (a superscript) or reads (Arabic-Indic), signs, exponents, 10^40:
    the viewer gets the open question as a new viewer does, never a stream that died at once."""
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    try:
        assert (await engine.start(group(), "pipeline", player(1, "Ann"))).status is StartStatus.STARTED
        clock.advance(5)
        await engine.run_due()
        async with serving(engine) as site:
            page = (await signer_for(store)).at(site.base).screen_url(group().key, False, clock.now())
            async with following(f"{page}events", raw_last_id=last_id) as stream:
                (shown,) = await seen(stream, "question", 1)
                assert shown.data["prompt"] == adapter.questions[-1].prompt
    finally:
        await store.close()


async def test_a_viewer_link_opened_until_the_screen_is_full_leaves_the_host_room(tmp_path: Path, monkeypatch):
    """Any member gets a viewer's link: one of them opening streams until the chat's are all
    taken must not lock the host's own screen out of the game it runs."""
    monkeypatch.setattr(screen_pages, "MAX_VIEWERS", 3)
    store, _, engine, _ = await shipped_engine(tmp_path / "quizhost.db")
    try:
        async with serving(engine) as site:
            _, (watch, host) = await screen(site, Caller(group(), ANN, True))
            async with contextlib.AsyncExitStack() as streams, aiohttp.ClientSession() as http:
                for _ in range(3):
                    await streams.enter_async_context(following(f"{watch}events"))
                async with http.get(f"{watch}events") as refused:
                    assert refused.status == 503 and refused.headers["Retry-After"] == "60"
                async with http.get(f"{host}events") as hosts:
                    assert hosts.status == 200 and hosts.headers["Content-Type"] == "text/event-stream"
    finally:
        await store.close()
