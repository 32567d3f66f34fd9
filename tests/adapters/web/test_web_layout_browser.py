"""Every web page in Chromium, in English and in Urdu (right to left), on a phone (390 px) and on
a desktop (1280 px): nothing is wider than the screen, and no element sits outside it (a wide
table scrolls in its own box, and what is in it stays in it). Over a group that played the kinds
tour with players who answer right, partly right, wrong, vote, and skip.

Screenshots go to $SCREENSHOTS_DIR (else a folder under the test's tmp_path).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Player
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401 (the fixtures)
from tests.adapters.web.test_web_kinds_browser import PLAYED, answer
from tests.support.house import build, house_of
from tests.support.web_harness import Site, serving

WIDTHS = (390, 1280)
LANGS = ("en", "ur")
DEE = player(4, "دیا Dee")
# Dee: two of the three right parallelisms (partly right), a vote, and nothing else (not answered)
SKIPPING: list[list[str] | str | None] = [
    None,
    ["Tensor parallelism", "Pipeline parallelism"],
    None,
    None,
    None,
    ["Pipeline parallelism"],
    None,
]

# Every element with a box: outside the viewport, or (inside a table that scrolls) before the start
# of its scrolling box, where no scrolling reaches it.
OUTSIDE = """() => {
  const width = document.documentElement.clientWidth;
  const rtl = getComputedStyle(document.documentElement).direction === "rtl";
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    const wrap = el.parentElement && el.parentElement.closest(".table-wrap");
    const name = `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || "").trim().slice(0, 30)}"`;
    if (wrap) {
      const room = wrap.getBoundingClientRect();
      if (rtl ? box.right > room.right + 1 : box.left < room.left - 1) out.push(`${name} before its table's start`);
    } else if (box.left < -1 || box.right > width + 1) {
      out.push(`${name} at ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, width, out};
}"""


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """The kinds tour played to the end by Ann, Bob, Cy (tests/adapters/web/test_web_kinds_browser.py)
    and Dee, who skips most of it."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    clock = FakeClock()
    engine = build(
        Catalog.load(default_quiz_folders()), store, clock, EngineSettings(question_seconds=30, pause_seconds=5)
    ).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    ann = next(iter(PLAYED))
    assert (await engine.start(group(), "kinds-tour", ann, None)).status is StartStatus.STARTED
    played: dict[Player, list[list[str] | str | None]] = {**PLAYED, DEE: SKIPPING}
    for index in range(len(SKIPPING)):
        clock.advance(5)
        await engine.run_due()
        card = adapter.questions[-1]
        for who, answers in played.items():
            if (given := answers[index]) is not None:
                await answer(engine, card, who, given)
        clock.advance(30)
        await engine.run_due()
    clock.advance(5)
    await engine.run_due()
    assert engine.run_in(group()) is None
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def page_at(browser: Browser, width: int) -> Page:
    # script on, for the measuring only: the pages themselves have none
    return await browser.new_page(viewport={"width": width, "height": 900})


async def addresses(site: Site) -> dict[str, str]:
    """Every page a chat's links reach, by a name for its screenshot."""
    (run,) = await house_of(site.engine).store.chat_runs(group().key)
    admin = site.link(group())
    return {
        "home": site.base + "/",
        "board": admin,
        "runs": admin + "runs",
        "run": admin + f"runs/{run.run_id}",
        "quizzes": admin + "quizzes",
        "quiz": admin + "quizzes/kinds-tour",
        "upload": admin + "upload",
        "missing": admin + "nowhere",
        "refused": admin.replace("/c/ey", "/c/eY"),
    }


@pytest.mark.parametrize("lang", LANGS)
async def test_no_page_is_wider_than_the_screen(site: Site, browser: Browser, shots: Path, lang: str):
    await house_of(site.engine).chats.update(group(), language=lang)
    await house_of(site.engine).store.set_board_public(group().key, True)
    pages = await addresses(site)
    for width in WIDTHS:
        page = await page_at(browser, width)
        for name, address in pages.items():
            await page.goto(address)
            measured: dict[str, Any] = await page.evaluate(OUTSIDE)
            where = f"{name} ({lang}, {width} px)"
            assert measured["scroll"] <= width, f"{where} is {measured['scroll']} px wide"
            assert measured["out"] == [], f"{where}: {measured['out'][:5]}"
            await page.screenshot(path=shots / f"layout-{name}-{lang}-{width}.png", full_page=True)
        await page.close()
