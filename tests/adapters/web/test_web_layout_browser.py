"""Every web page in Chromium, in English and in Urdu (right to left), on a phone (390 px) and on
a desktop (1280 px): nothing is wider than the screen, and no element sits outside it (a wide
table scrolls in its own box, and what is in it stays in it). Over a group that played the kinds
tour with players who answer right, partly right, wrong, vote, and skip.

Screenshots go to $SCREENSHOTS_DIR (else a folder under the test's tmp_path).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from bot.adapters.web import texts
from bot.commands.core import Caller
from bot.domain.model import Player
from bot.domain.worth import Verdict, Worth
from bot.engine.core import StartStatus
from bot.testing.fakes import group, player
from bot.texts.bidi import strip
from bot.texts.verdicts import verdict_text
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401 (the fixtures)
from tests.adapters.web.test_web_kinds_browser import PLAYED, answer
from tests.support.house import house_of
from tests.support.web_harness import Site, serving, shipped_engine

WIDTHS = (390, 1280)
STATUS = {"missing": 404, "refused": 403}  # the rest: 200
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
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
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
    assigned = await house_of(engine).commands.handle("assign", "kinds-tour until tomorrow", Caller(group(), ann, True))
    assert "#1" in assigned.text, assigned.text
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
    run, *_ = await house_of(site.engine).store.chat_runs(group().key)
    admin = site.link(group())
    return {
        "home": site.base + "/",
        "board": admin,
        "runs": admin + "runs",
        "run": admin + f"runs/{run.run_id}",
        "quizzes": admin + "quizzes",
        "quiz": admin + "quizzes/kinds-tour",
        "upload": admin + "upload",
        "assignment": admin + "assignments/1",
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
            response = await page.goto(address)
            assert response is not None and response.status == STATUS.get(name, 200), name
            measured: dict[str, Any] = await page.evaluate(OUTSIDE)
            where = f"{name} ({lang}, {width} px)"
            assert measured["scroll"] <= width, f"{where} is {measured['scroll']} px wide"
            assert measured["out"] == [], f"{where}: {measured['out'][:5]}"
            await page.screenshot(path=shots / f"layout-{name}-{lang}-{width}.png", full_page=True)
        await page.close()


def words(lang: str, verdict: Verdict, share: float = 0.0) -> str:
    return strip(verdict_text(lang, Worth(verdict, share)))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
async def test_the_run_report_says_what_each_answer_was_worth(
    site: Site, browser: Browser, shots: Path, lang: str, width: int
):
    await house_of(site.engine).chats.update(group(), language=lang)
    P, Q = texts.report(lang), texts.questions(lang)
    page = await page_at(browser, width)
    response = await page.goto((await addresses(site))["run"])
    assert response is not None and response.status == 200

    summary = page.locator("section.summary")
    hardest = summary.locator("table.hardest tbody tr")
    await expect(hardest).to_have_count(7)
    # the typed question (1 of 4 right: Ann, Bob) is not the hardest: the numeric one (14, 14,2 of 4)
    # ties it; Cy's reversed order and Dee's silence leave the ordering at (4 + 2) / 16 places
    await expect(hardest.last).to_contain_text(strip(P["poll"]))  # the poll, with no share, last
    players = summary.locator("table.players tbody tr")
    await expect(players).to_have_count(4)
    dee = players.filter(has_text="Dee")
    # four of the six asked since she joined not answered: she first answered the second
    await expect(dee.locator("td").nth(2)).to_have_text("4")
    # Bob (2.5 of 6 scored, a wrong pick costing his select-all), Cy (2 of 6) and Dee
    await expect(summary.locator(".needs-help li")).to_have_count(3)
    await expect(summary.locator(".needs-help")).to_contain_text("Dee")
    await expect(summary.locator(".unfinished li")).to_have_count(1)
    await expect(summary.locator(".unfinished")).to_contain_text("Dee")

    rows = page.locator("table.answers tbody tr")
    await expect(rows).to_have_count(4)
    dee_cells = rows.filter(has_text="Dee").locator("td.cell")
    await expect(dee_cells).to_have_count(7)
    await expect(dee_cells.nth(0)).to_contain_text(P["not_asked"])  # asked before she joined
    await expect(dee_cells.nth(2)).to_contain_text(words(lang, Verdict.UNANSWERED))
    await expect(dee_cells.nth(1)).to_contain_text(words(lang, Verdict.PARTIAL, 2 / 3))
    await expect(dee_cells.nth(1)).to_contain_text("◐")  # a mark and a word, not colour alone
    await expect(dee_cells.nth(5)).to_contain_text(words(lang, Verdict.VOTE))
    cy_cells = rows.filter(has_text="Cy").locator("td.cell")
    await expect(cy_cells.nth(0)).to_contain_text(words(lang, Verdict.RIGHT))
    await expect(cy_cells.nth(1)).to_contain_text(words(lang, Verdict.WRONG))
    await expect(cy_cells.nth(3)).to_contain_text("broadcast")  # what was typed

    sections = page.locator("section.question")
    await expect(sections).to_have_count(7)
    typed, numeric, multi = sections.nth(3), sections.nth(4), sections.nth(1)
    await expect(typed.locator("svg g.bar")).to_have_count(3)  # allreduce, all-reduce (both right), broadcast
    await expect(typed.locator("svg g.bar.right")).to_have_count(2)
    await expect(typed.locator("svg title")).to_contain_text("3 1 (33%)")  # each of the 3 who typed
    await expect(typed.locator(".accepted")).to_contain_text(strip(Q["accepted"]))
    await expect(typed.locator(".accepted")).to_contain_text("all-reduce")
    await expect(numeric.locator("svg g.bar.right")).to_have_count(2)
    await expect(numeric.locator(".accepted")).to_contain_text("14")
    # 3 of the 4 who answered chose tensor parallelism: 75% of the players, not of the picks
    await expect(multi.locator("svg title")).to_contain_text(re.compile(r"[A-E] 3 \(75%\)"))

    # the letters are those the players saw, in the cells and under the charts alike
    first = sections.nth(0).locator("ol.options li")
    right = [n for n, cls in enumerate([await li.get_attribute("class") for li in await first.all()]) if cls == "right"]
    assert len(right) == 1
    await expect(cy_cells.nth(0).locator("bdi")).to_have_text("ABCD"[right[0]])  # Cy chose the right one
    seen = " → ".join(strip(t).strip("()") for t in await sections.nth(6).locator(".seen").all_inner_texts())
    await expect(rows.filter(has_text="Ann").locator("td.cell").nth(6).locator("bdi")).to_have_text(seen)

    prompt = sections.nth(2).locator("h3 bdi")  # "DDP …": in Urdu it starts with a Latin word
    await expect(prompt).to_have_attribute("dir", "rtl" if lang == "ur" else "ltr")
    await expect(prompt).to_have_attribute("lang", lang)
    assert await prompt.evaluate("e => getComputedStyle(e).direction") == ("rtl" if lang == "ur" else "ltr")
    measured = await page.evaluate(OUTSIDE)
    assert measured["scroll"] <= width and measured["out"] == [], measured
    await page.screenshot(path=shots / f"run-report-{lang}-{width}.png", full_page=True)
    await page.screenshot(path=shots / f"run-report-top-{lang}-{width}.png")
    await summary.screenshot(path=shots / f"run-report-summary-{lang}-{width}.png")
    await page.locator(".table-wrap:has(table.answers)").screenshot(
        path=shots / f"run-report-answers-{lang}-{width}.png"
    )
    await sections.nth(3).screenshot(path=shots / f"run-report-typed-{lang}-{width}.png")
    await page.close()
