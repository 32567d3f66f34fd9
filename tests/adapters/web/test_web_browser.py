"""The web pages in a real browser: Playwright driving the system's Chromium (Debian's
`chromium`; .ci/run installs it; without one these tests are skipped, except under CI=true)
against the pages served on loopback over a database filled by playing the shipped quizzes through the engine.

Screenshots of every page go to $SCREENSHOTS_DIR, else to a folder under the test's tmp_path;
the test prints where, for a person to look at them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright, expect

from bot.commands.core import Caller
from bot.commands.weblinks import VALID_SECONDS
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of
from tests.support.web_harness import Site, play, serving

# the system's Chromium: Playwright never downloads a browser here
CHROMIUM = next(
    (
        found
        for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
        if (found := shutil.which(name))
    ),
    None,
)
# root needs --no-sandbox; the rest keep Chromium off the network (nothing but loopback is allowed)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 412, "height": 915}
ANN, BOB, CY = player(1, "Ann"), player(2, "Bob <script>alert(1)</script>"), player(3, "Chipo")
GIFT_BROKEN = (
    "::capital-fr:: What is the capital of France? {=Paris ~Lyon ~Nice}\n\n"
    "::capital-es:: What is the capital of Spain? {=Madrid ~Porto ~Sevilla\n"
)
GIFT_FIXED = GIFT_BROKEN.rstrip("\n") + "}\n"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of the web pages: {folder}")
    return folder


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if CHROMIUM is None:
        missing = "no Chromium on this machine (apt-get install chromium): the browser tests need one"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {missing}", pytrace=False)
        pytest.skip(missing)
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """Two runs of a shipped quiz in a group, played through the engine, served on loopback."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    catalog = Catalog.load(default_quiz_folders())
    engine = build(catalog, store, FakeClock(), EngineSettings(question_seconds=30, pause_seconds=5)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    quiz = catalog.get("pipeline")
    assert quiz is not None
    n = len(quiz.questions)
    await play(
        engine,
        adapter,
        group(),
        quiz,
        {ANN: [True] * n, BOB: [i % 2 == 0 for i in range(n)], CY: [i % 3 == 0 for i in range(n)]},
    )
    await play(engine, adapter, group(), quiz, {ANN: [i > 0 for i in range(n)], CY: [True] * n})
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def phone_page(browser: Browser) -> Page:
    return await browser.new_page(viewport=PHONE, java_script_enabled=False)  # the pages need none


async def test_an_admin_reads_the_board_a_chart_and_uploads_a_quiz(site: Site, browser: Browser, shots: Path):
    page = await phone_page(browser)
    await page.goto(site.link(group()))
    rows = page.locator("table.board tbody tr")
    await expect(rows).to_have_count(3)
    await expect(rows.nth(0).locator("th")).to_have_text("Ann")
    await expect(page.get_by_text("Bob <script>alert(1)</script>")).to_be_visible()  # a name, not markup
    await page.screenshot(path=shots / "leaderboard-en.png", full_page=True)

    await page.get_by_role("link", name="This week").click()
    await expect(page.get_by_role("link", name="This week")).to_have_attribute("aria-current", "true")
    await expect(page.locator("table.board caption")).to_contain_text("This week")
    await expect(rows).to_have_count(3)  # both runs were played this week
    await page.get_by_role("link", name="All time").click()
    await expect(page.locator("table.board caption")).to_contain_text("All time")

    await page.get_by_role("link", name="Quizzes and questions").click()
    await page.get_by_role("link", name="Model and Pipeline Parallelism").click()
    first = page.locator("section.question").first
    await expect(first.locator("svg title")).to_contain_text("right answer")
    await expect(first.locator("dl.figures")).to_contain_text("Answers")
    await first.screenshot(path=shots / "question-chart-en.png")
    await page.screenshot(path=shots / "questions-en.png", full_page=True)

    await page.get_by_role("link", name="Run history").click()
    await expect(page.locator("tbody tr")).to_have_count(2)
    await page.screenshot(path=shots / "runs-en.png", full_page=True)

    await page.get_by_role("link", name="Upload a quiz").click()
    await page.get_by_label("Quiz file").set_input_files(
        {"name": "capitals.gift", "mimeType": "text/plain", "buffer": GIFT_BROKEN.encode()}
    )
    await page.get_by_role("button", name="Check the file").click()
    await expect(page.locator(".skipped")).to_contain_text("line 3: '{' and '}' do not pair up")
    await page.screenshot(path=shots / "upload-problem-en.png", full_page=True)
    await page.get_by_label("Quiz file").set_input_files(
        {"name": "capitals.gift", "mimeType": "text/plain", "buffer": GIFT_FIXED.encode()}
    )
    await page.get_by_role("button", name="Check the file").click()
    await expect(page.locator(".preview-questions > li")).to_have_count(2)
    await expect(page.locator(".skipped")).to_have_count(0)
    await page.screenshot(path=shots / "upload-preview-en.png", full_page=True)
    await page.get_by_role("button", name="Save this quiz for the chat").click()
    await expect(page.get_by_role("status")).to_contain_text("Saved")
    await expect(page.get_by_role("link", name="capitals")).to_be_visible()
    await page.screenshot(path=shots / "quizzes-after-upload-en.png", full_page=True)

    reply = await house_of(site.engine).commands.handle("quizzes", "", Caller(group(), ANN, is_admin=True))
    assert "capitals" in reply.text + " ".join(b.label for b in reply.buttons)


async def test_altered_and_expired_links_are_refused(site: Site, browser: Browser, shots: Path):
    page = await phone_page(browser)
    link = site.link(group())
    altered = await page.goto(link.replace("/c/ey", "/c/eY"))
    assert altered is not None and altered.status == 403
    await expect(page.get_by_role("alert")).to_contain_text("not one this bot made")
    await page.screenshot(path=shots / "refused-altered-en.png", full_page=True)
    house_of(site.engine).clock.advance(VALID_SECONDS)
    expired = await page.goto(link)
    assert expired is not None and expired.status == 403
    await expect(page.get_by_role("alert")).to_contain_text("has expired")
    await page.screenshot(path=shots / "refused-expired-en.png", full_page=True)


async def test_an_urdu_chat_reads_right_to_left(site: Site, browser: Browser, shots: Path):
    await house_of(site.engine).chats.update(group(), language="ur")
    page = await phone_page(browser)
    await page.goto(site.link(group(), player_key=CY.key))
    await expect(page.locator("html")).to_have_attribute("dir", "rtl")
    rank = await page.locator("table.board thead th").nth(0).bounding_box()
    name = await page.locator("table.board thead th").nth(1).bounding_box()
    assert rank and name and rank["x"] > name["x"], "the first column (rank) is on the right"
    await expect(page.locator("h1")).to_contain_text("درجہ بندی")
    await page.screenshot(path=shots / "leaderboard-ur.png", full_page=True)
    await page.get_by_role("link", name="کوئز اور سوالات").click()
    await page.locator("ul.quizzes a").first.click()
    await page.locator("section.question").first.screenshot(path=shots / "question-chart-ur.png")
    await page.get_by_role("link", name="کوئز اپ لوڈ کریں").click()
    await page.get_by_label("کوئز فائل").set_input_files(
        {"name": "capitals.gift", "mimeType": "text/plain", "buffer": GIFT_BROKEN.encode()}
    )
    await page.get_by_role("button", name="فائل جانچیں").click()
    await expect(page.locator(".skipped")).to_contain_text("line 3")  # the file's own words, its place kept
    await page.screenshot(path=shots / "upload-ur.png", full_page=True)
