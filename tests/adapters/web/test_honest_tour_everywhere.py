"""Issue #48's proof, in one play: five members of a Telegram group play the kinds tour through
python-telegram-bot and the fake Bot API, answering right, partly right, wrong, voting and
skipping (tests/adapters/telegram/test_honest_numbers.py). Then, from the database they played
into, every place that says what an answer was worth says the same: the reveal, the podium and
the board (in the group), `quizhost stats --json`, the run report in Chromium (en and ur, 1280
and 390 px wide), the CSV and the .xlsx. Every question asked has a row for every player, and
each player's rows add up to their board points.

Screenshots of the report go to $SCREENSHOTS_DIR (else the test's folder): tour-report-*.png."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from playwright.async_api import Browser

from bot.cli import main
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import ChatRef
from bot.engine.core import EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import FakeBotApi
from storage.sqlite.store import SqliteStore
from tests.adapters.telegram.test_honest_exports import VERDICTS, by_player
from tests.adapters.telegram.test_honest_numbers import QUIZ, play_the_tour, podium_line
from tests.adapters.telegram.test_honest_stats import SHARES
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.terminal.test_results_cli import results
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401 (the fixtures)
from tests.support.house import build, house_of
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.web_harness import serving

GROUP = ChatRef("telegram", "-1481", title="Honest numbers")  # the group play_the_tour plays in
NAMES = tuple(VERDICTS)
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def board_points(board: str) -> dict[str, int]:
    return {name: int(m.group(1)) for name in NAMES if (m := re.search(rf"{name}: (\d+) pts", board))}


async def report_verdicts(browser: Browser, address: str, shots: Path, lang: str) -> dict[str, dict[str, list[str]]]:
    """Each player's cells of the report's answers table, as the page's classes mark them, at each
    width; no page wider than its screen."""
    found = {}
    for size, viewport in SIZES.items():
        page = await browser.new_page(viewport=viewport, java_script_enabled=False)
        response = await page.goto(address)
        assert response is not None and response.status == 200
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the {lang} report is {width} px wide on a {viewport['width']} px screen"
        rows = page.locator("table.answers tbody tr")
        cells = {}
        for name in NAMES:
            classes = await rows.filter(has_text=name).locator("td.cell").evaluate_all("cs => cs.map(c => c.className)")
            cells[name] = [c.removeprefix("cell ").strip() for c in classes]
        found[size] = cells
        await page.screenshot(path=shots / f"tour-report-{lang}-{viewport['width']}.png", full_page=True)
        await page.close()
    return found


async def test_every_place_says_the_same_worth_for_every_answer(
    fake: FakeBotApi, clock, tmp_path: Path, browser: Browser, shots: Path, capsys
):
    seen = await play_the_tour(fake, clock, tmp_path)
    board = board_points(seen["leaderboard"])
    for name in NAMES:
        assert podium_line(seen["podium"], name)[0] == board[name], "the podium's points are the board's"

    # quizhost stats --json: each question's share right is its answers' worth, the poll has none
    capsys.readouterr()
    db = str(tmp_path / "quizhost.db")
    assert await asyncio.to_thread(main, ["stats", "kinds-tour", "--chat", GROUP.key, "--json", "--db", db]) == 0
    (figures,) = json.loads(capsys.readouterr().out)["quizzes"]
    shares = {f["id"]: f["share_right"] for f in figures["questions"]}
    assert [shares[q.id] for q in QUIZ.questions] == [None if s is None else round(s, 4) for s in SHARES]

    # the downloads: a row per question asked of each player, its verdict, adding up to the board
    for kind in ("csv", "xlsx"):
        done = results(tmp_path, "--chat", GROUP.key, "--format", kind, "-o", f"tour.{kind}")
        assert done.returncode == 0, done.stderr
    csv_rows = assert_inert_csv((tmp_path / "tour.csv").read_bytes())
    xlsx_rows = assert_inert_xlsx((tmp_path / "tour.xlsx").read_bytes())
    for rows in (csv_rows, xlsx_rows):
        mine = by_player(rows)
        for name, verdicts in VERDICTS.items():
            assert [str(r["verdict"]) for r in mine[name]] == verdicts, name
            assert sum(int(r["points"]) for r in mine[name]) == board[name], f"{name}'s rows add up to the board"

    # the run report in a browser, in English and in Urdu, on a desktop and a phone
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    try:
        catalog = Catalog.load(default_quiz_folders())
        engine = build(catalog, store, FakeClock(clock.now()), EngineSettings()).engine
        (run,) = await store.chat_runs(GROUP.key)
        async with serving(engine) as site:
            for lang in ("en", "ur"):
                await house_of(engine).chats.update(GROUP, language=lang)
                shown = await report_verdicts(browser, site.link(GROUP) + f"runs/{run.run_id}", shots, lang)
                for size, cells in shown.items():
                    assert cells == VERDICTS, f"the {lang} report on a {size}"
    finally:
        await store.close()
