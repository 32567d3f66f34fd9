"""The big screen in a real browser (the system's Chromium through Playwright, as the other
browser tests): the page follows a run played through the engine and redraws itself without a
reload, in English and in Urdu (right to left). Screenshots before and after an event go to
$SCREENSHOTS_DIR, else under the test's tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from bot.commands.core import Caller
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.hosting import HostAction
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401 (the fixtures)
from tests.support.house import build, house_of
from tests.support.web_harness import Site, serving

ANN = player(1, "Ann")
PROJECTOR = {"width": 1280, "height": 720}
JOIN = "https://t.me/+QuizNightGroup"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[Site, RecordingAdapter]]:
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    engine = build(Catalog.load(default_quiz_folders()), store, FakeClock(), EngineSettings(30, 5)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    try:
        async with serving(engine) as served:
            yield served, adapter
    finally:
        await store.close()


def screen_link(site: Site) -> str:
    clock = house_of(site.engine).clock
    return site.signer.at(site.base).screen_url(group().key, False, clock.now(), join=JOIN)


async def opened(browser: Browser, url: str) -> Page:
    page = await browser.new_page(viewport=PROJECTOR)
    await page.goto(url)
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await page.evaluate("window.notReloaded = true")  # gone if the page were loaded again
    return page


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_the_screen_follows_a_question_and_its_close_without_a_reload(
    site: tuple[Site, RecordingAdapter], browser: Browser, shots: Path, lang: str
):
    served, adapter = site
    engine = served.engine
    house = house_of(engine)
    await house.commands.handle("language", lang, Caller(group(), ANN, True))
    page = await opened(browser, screen_link(served))
    assert await page.get_attribute("html", "dir") == ("rtl" if lang == "ur" else "ltr")
    await expect(page.locator(".qr svg")).to_be_visible()
    await page.screenshot(path=shots / f"screen-waiting-{lang}.png")

    quiz = house.catalog.get("pipeline")
    assert quiz is not None
    assert (await engine.start(group(), quiz.id, ANN)).status is StartStatus.STARTED
    house.clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    card = adapter.questions[-1]
    await expect(page.locator("#prompt")).to_have_text(card.prompt)
    await expect(page.locator("#options li")).to_have_count(len(card.options))
    await expect(page.locator("#options li.right")).to_have_count(0)
    await page.screenshot(path=shots / f"screen-question-{lang}.png")

    asked = next(q for q in quiz.questions if q.prompt.get(lang) == card.prompt)
    right = next(o.letter for o in card.options if o.text == asked.options[asked.answer].get(lang))
    assert (await engine.answer(adapter.token(right, card), ANN, group())).accepted
    await expect(page.locator("#answered")).to_contain_text("1")
    house.clock.advance(30)  # type: ignore[attr-defined]
    await engine.run_due()
    await expect(page.locator("#options li.right")).to_have_count(1)
    await expect(page.locator(f'#options li[data-letter="{right}"]')).to_have_class("right")
    await expect(page.locator("#rows li").first).to_contain_text("Ann")
    await page.screenshot(path=shots / f"screen-closed-{lang}.png", full_page=True)
    assert await page.evaluate("window.notReloaded === true"), "the page changed without a reload"
    await page.close()


async def test_a_hosted_question_without_a_time_limit_shows_no_countdown(
    site: tuple[Site, RecordingAdapter], browser: Browser
):
    """Open until its host closes it: no seconds left, no "Time is up"; paused, just "Paused"."""
    served, adapter = site
    engine = served.engine
    page = await opened(browser, screen_link(served))
    assert (await engine.start(group(), "pipeline", ANN, hosted=True)).status is StartStatus.STARTED
    await engine.host(group(), HostAction.NEXT, ANN, True)
    await engine.run_due()
    await expect(page.locator("#prompt")).to_have_text(adapter.questions[-1].prompt)
    house_of(engine).clock.advance(60)  # type: ignore[attr-defined]
    await page.wait_for_timeout(600)  # the page's clock ticks every 250 ms
    await expect(page.locator("#clock")).to_have_text("")
    await engine.host(group(), HostAction.PAUSE, ANN, True)
    await engine.run_due()
    await expect(page.locator("#clock")).to_have_text("Paused")
    await engine.host(group(), HostAction.RESUME, ANN, True)
    await engine.run_due()
    await expect(page.locator("#clock")).to_have_text("")
    await page.close()
