"""A run's report, the downloads and the pages' polish in a real browser (the system's Chromium,
as tests/adapters/web/test_web_browser.py drives it), in English and in Urdu (right to left),
over a database filled by playing a shipped quiz through the engine.

Screenshots go to $SCREENSHOTS_DIR (else a folder under the test's tmp_path): run-report-en.png
and run-report-ur.png among them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import openpyxl
import pytest
from playwright.async_api import Browser, Page, expect

from bot.adapters.web import texts
from bot.commands.weblinks import Scope
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import ChatRef
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_browser import browser, phone_page, shots  # noqa: F401 (fixtures)
from tests.adapters.web.test_web_reports import crowd, stopped_run
from tests.support.house import build, house_of
from tests.support.web_harness import Site, play, serving

ANN, BOB, CY = player(1, "Ann"), player(2, "=SUM(1+1)"), player(3, "Chipo")
DEE = player(4, "Dee")
LANGS = ["en", "ur"]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """A whole run of a shipped quiz and a stopped one, in a group whose clock is Karachi's."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    catalog = Catalog.load(default_quiz_folders())
    engine = build(catalog, store, FakeClock(), EngineSettings(question_seconds=30, pause_seconds=5)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    quiz = catalog.get("pipeline")
    assert quiz is not None
    n = len(quiz.questions)
    rights = {ANN: [True] * n, BOB: [i % 2 == 0 for i in range(n)], CY: [i % 3 == 0 for i in range(n)]}
    await play(engine, adapter, group(), quiz, rights)
    await stopped_run(engine, adapter, group(), DEE, quiz)
    await house_of(engine).chats.update(group(), time_zone="Asia/Karachi")
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def text_of(page: Page, selector: str) -> str:
    return strip(" ".join(await page.locator(selector).all_inner_texts()))


def sums(rows: list[dict]) -> dict[str, int]:
    found: dict[str, int] = {}
    for row in rows:
        found[str(row["player_id"])] = found.get(str(row["player_id"]), 0) + int(row["points"])
    return found


async def downloaded(page: Page, name: str, keep: Path) -> list[dict]:
    """Click the link or button `name`, and the rows of the file the browser downloads (a copy
    of it is kept in the folder `keep`, for a person to open)."""
    async with page.expect_download() as info:
        await page.get_by_role("link", name=name, exact=True).or_(page.get_by_role("button", name=name)).click()
    download = await info.value
    data = Path(await download.path()).read_bytes()
    keep.mkdir(exist_ok=True)
    (keep / download.suggested_filename).write_bytes(data)
    if name == "CSV":
        assert download.suggested_filename.endswith(".csv")
        return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert download.suggested_filename.endswith(".xlsx")
    headings, *rows = [
        [c.value for c in row] for row in openpyxl.load_workbook(io.BytesIO(data))["Answers"].iter_rows()
    ]
    return [dict(zip([str(h).split(" (")[0] for h in headings], row, strict=True)) for row in rows]


@pytest.mark.parametrize("lang", LANGS)
async def test_an_admin_opens_a_run_report_and_downloads_it(site: Site, browser: Browser, shots: Path, lang: str):
    engine, store = site.engine, house_of(site.engine).store
    await house_of(engine).chats.update(group(), language=lang)
    L, R, P = texts.common(lang), texts.runs(lang), texts.report(lang)
    page = await phone_page(browser)
    await page.goto(site.link(group()))
    await expect(page.locator(".chat-name")).to_have_text("Group")
    rows = page.locator("table.board tbody tr")
    await expect(rows).to_have_count(3)
    for n, medal in enumerate("🥇🥈🥉"):
        await expect(rows.nth(n).locator("td").first).to_contain_text(medal)
    top = (await store.leaderboard(group().key))[0]
    await expect(rows.nth(0)).to_contain_text(f"{top.points:,}")  # grouped: both languages write 1,234

    await page.get_by_role("navigation").get_by_role("link", name=strip(L["runs"])).click()
    await expect(page.locator("tbody tr")).to_have_count(2)
    assert "PKT" in await text_of(page, "tbody"), "times in the chat's zone"
    await page.get_by_role("link", name=strip(R["report"])).nth(1).click()  # the older run: played to the end
    await expect(page.locator("h1")).to_contain_text(strip(P["title"]))
    assert strip(P["finished"]) in await text_of(page, ".run-facts")
    await expect(page.locator(".run-podium li")).to_have_count(3)
    await expect(page.locator("table.answers tbody tr")).to_have_count(3)
    await expect(page.locator("section.question").first.locator("svg title")).to_contain_text(
        strip(texts.questions(lang)["right_option"])
    )
    if lang == "ur":
        rank, name = [await page.locator("table.answers thead th").nth(i).bounding_box() for i in (0, 1)]
        assert rank and name and rank["x"] > name["x"], "right to left: the rank column is on the right"
    await page.screenshot(path=shots / f"run-report-{lang}.png", full_page=True)

    finished = (await store.chat_runs(group().key))[1].run_id
    standings = {s.player_key: s.points for s in await store.run_standings(finished)}
    for kind in ("CSV", "XLSX"):
        rows_of_run = await downloaded(page, kind, shots / lang)
        assert sums(rows_of_run) == standings
        assert "'=SUM(1+1)" in {r["player"] for r in rows_of_run}, "a formula in a name stays text"

    await page.get_by_role("navigation").get_by_role("link", name=strip(L["runs"])).click()
    board = {s.player_key: s.points for s in await store.leaderboard(group().key)}
    for kind in ("CSV", "Excel (.xlsx)"):
        assert sums(await downloaded(page, kind, shots / lang)) == board


async def test_a_stopped_run_names_who_stopped_it(site: Site, browser: Browser):
    page = await phone_page(browser)
    await page.goto(site.link(group()) + "runs")
    await page.get_by_role("link", name="Report").first.click()
    await expect(page.locator(".stopped-by")).to_have_text("Dee")
    await expect(page.locator(".status")).to_have_text("Stopped")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_pages_polish(site: Site, browser: Browser, shots: Path, lang: str):
    engine = site.engine
    await house_of(engine).chats.update(group(), language=lang)
    big = ChatRef("test", "big", title="Big group")
    await crowd(house_of(engine).store, big, players=150)
    await house_of(engine).chats.update(big, language=lang)
    page = await phone_page(browser)

    await page.goto(site.link(big))
    await expect(page.locator("table.board tbody tr")).to_have_count(100)
    assert "1–100" in await text_of(page, ".rows-shown") and "150" in await text_of(page, ".rows-shown")
    await page.get_by_role("link", name=strip(texts.common(lang)["next"])).click()
    await expect(page.locator("table.board tbody tr")).to_have_count(50)
    assert "101–150" in await text_of(page, ".rows-shown")
    await expect(page.locator("table.board tbody tr").first).to_contain_text("10,049")  # grouped
    await page.screenshot(path=shots / f"board-page-2-{lang}.png", full_page=True)

    missing = await page.goto(site.link(group()) + "nowhere")
    assert missing is not None and missing.status == 404
    await expect(page.locator("h1")).to_contain_text(strip(texts.not_found(lang)["title"]))
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ur" else "ltr")
    await page.screenshot(path=shots / f"not-found-{lang}.png", full_page=True)

    await page.goto(site.link(group()) + "quizzes")
    await page.locator("ul.quizzes a").first.click()
    note = texts.questions(lang)
    assert strip(note["about_discrimination"])[:20] in await text_of(page, ".about")
    await expect(page.locator(".about")).to_be_visible()
    await expect(page.locator(".few").first).to_be_visible()  # three players: no flags

    assert "/dashboard" in await text_of(page, "footer")
    await house_of(engine).store.set_board_public(group().key, True)
    await page.goto(site.link(group(), Scope.BOARD))
    assert "/dashboard" not in await text_of(page, "footer")
    assert strip(texts.common(lang)["footer_board"])[:15] in await text_of(page, "footer")
    await page.screenshot(path=shots / f"public-board-{lang}.png", full_page=True)
