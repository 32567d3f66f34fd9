"""An assignment's page in a real browser (the system's Chromium, as test_web_browser.py drives it),
in English and in Urdu, on a phone and a desktop screen, over a database filled by playing it.

A group in Karachi's zone plays a quiz of every scored kind and a poll as an assignment, each member
in private: Ann finishes it all right, Dee finishes it with a select-all question partly right
(half its credit) and a true-or-false wrong, Bob answers the first question wrong and stops; Cy and
Eve, seen in the group (they played a quiz there), never start. The run history shows the
assignment as one line that leads to its page.

Screenshots go to $SCREENSHOTS_DIR (else a folder under the test's tmp_path): assignment-en.png,
assignment-ur.png, assignment-phone-ur.png among them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import Browser, Page, expect

from bot.adapters.web import texts
from bot.commands.core import Caller
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player, QuestionCard
from bot.engine.core import Engine, EngineSettings
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_browser import browser, phone_page, shots  # noqa: F401 (fixtures)
from tests.engine.test_question_kinds import kinds_quiz
from tests.support.house import build, house_of
from tests.support.web_harness import Site, play, serving

ADMIN, ANN, BOB, CY, DEE, EVE = (
    player(n, name) for n, name in enumerate(("Admin", "Ann", "Bob", "Cy", "Dee", "Eve"), start=1)
)
QUESTIONS = (
    {"id": "primes", "kind": "multi", "prompt": "Which are prime?", "options": ["2", "4", "5", "9"]}
    | {"answer": [0, 2], "scoring": "partial"},
    {"id": "tabs", "kind": "poll", "prompt": "Tabs or spaces?", "options": ["Tabs", "Spaces"]},
    {"id": "boil", "kind": "truefalse", "prompt": "Water boils at 100 °C at sea level.", "answer": True},
    {"id": "capital", "prompt": "Capital of France?", "options": ["Paris", "Lyon", "Nice"], "answer": 0},
)
# what each member presses, question by question (a select-all question ends with Done)
ANN_PRESSES = (("2", "5", "done"), ("Tabs",), ("True",), ("Paris",))
DEE_PRESSES = (("2", "done"), ("Spaces",), ("False",), ("Paris",))  # 0.5 + 0 + 1 of 3: 50%
BOB_PRESSES = (("4", "done"),)  # wrong, then /stop
KARACHI = ZoneInfo("Asia/Karachi")
DESKTOP = {"width": 1280, "height": 900}
PHONE_NARROW = {"width": 390, "height": 844}


async def played(engine: Engine, adapter: RecordingAdapter, who: Player, presses: Sequence[Sequence[str]]) -> None:
    """`who` starts assignment 1 in private and presses, question by question, the options of
    those texts; fewer presses than questions: /stop after them."""
    house = house_of(engine)
    chat = ChatRef("test", f"p{who.user_id}", is_private=True)
    started = await house.commands.handle("start", "assign_1", Caller(chat, who))
    assert "Assignment #1" in started.text, started.text
    for texts_pressed in presses:
        house.clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        assert card.chat == chat
        for text in texts_pressed:
            assert (await engine.answer(_token(card, text), who, chat)).accepted, (card.prompt, text)
        await engine.run_due()
    if len(presses) < len(QUESTIONS):
        await house.commands.handle("stop", "", Caller(chat, who))
    house.clock.advance(40)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(chat) is None


def _token(card: QuestionCard, text: str) -> str:
    if text == "done":
        assert card.done_token is not None, "a private chat's select-all question has Done"
        return card.done_token
    return next(o.token for o in card.options if o.text == text)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    kinds, demo = kinds_quiz(*QUESTIONS), make_quiz()
    engine = build(Catalog.from_quizzes([kinds, demo]), store, FakeClock(), EngineSettings(question_seconds=30)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    house = house_of(engine)
    await house.chats.update(group(), time_zone="Asia/Karachi")
    await play(engine, adapter, group(), demo, {CY: [True] * 4, EVE: [False] * 4, ADMIN: [True] * 4})
    created = await house.commands.handle("assign", "kinds until tomorrow 18:00", Caller(group(), ADMIN, True))
    assert "Assignment #1 is open" in created.text, created.text
    await played(engine, adapter, ANN, ANN_PRESSES)
    await played(engine, adapter, DEE, DEE_PRESSES)
    await played(engine, adapter, BOB, BOB_PRESSES)
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def names_in(page: Page, selector: str) -> list[str]:
    return [strip(n) for n in await page.locator(selector).all_inner_texts()]


async def row_of(page: Page, section: str, name: str) -> str:
    row = page.locator(f"#{section} tbody tr").filter(has_text=name)
    return strip(" ".join(await row.locator("td").all_inner_texts()))


async def fits(page: Page) -> None:
    """Nothing is wider than the screen: the page never scrolls sideways."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width} px wide at {page.viewport_size['width']} px"  # type: ignore[index]


async def the_class_summed_up(page: Page, lang: str) -> None:
    """The teacher's summary of the attempts as one class: each question over everyone it was
    asked of (Bob's stopped attempt asked only the first), the poll last, and who needs help."""
    summary = page.locator("section.summary")
    questions = [strip(q) for q in await summary.locator("table.hardest tbody tr").all_inner_texts()]
    assert [q.split("\t")[0] for q in questions] == [
        "1. Which are prime?",
        "3. Water boils at 100 °C at sea level.",
        "4. Capital of France?",
        "2. Tabs or spaces?",
    ], "hardest first, ties in the quiz's order, the poll last"
    shares = [q.split("\t")[1:3] for q in questions]
    assert shares[:3] == [["50%", "3/3"], ["50%", "2/2"], ["100%", "2/2"]]
    assert shares[3] == [strip(texts.report(lang)["poll"]), "2/2"]
    assert await names_in(page, "section.needs-help li") == ["Bob · 0%"]
    not_answered = strip(texts.report(lang)["not_answered"])
    assert await names_in(page, "section.unfinished li") == [f"Bob · {not_answered}: 0"], "stopped after one question"


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_the_assignment_page_in_a_browser(site: Site, browser: Browser, shots: Path, lang: str):
    await house_of(site.engine).chats.update(group(), language=lang)
    row = await house_of(site.engine).store.assignment(1)
    assert row is not None
    deadline = datetime.fromtimestamp(row.deadline, KARACHI).strftime("%Y-%m-%d 18:00 PKT")
    A = texts.assignment(lang)

    page = await browser.new_page(viewport=DESKTOP)
    await page.goto(site.link(group()) + "runs")
    lines = page.locator("tbody tr")
    await expect(lines).to_have_count(2)  # the assignment once, and the group's own run
    assert strip(await lines.nth(0).locator(".assignment-tag").inner_text()) == strip(A["tag"])
    attempts = lines.nth(0).locator("td.num a")
    assert strip(await attempts.inner_text()) == strip(texts.attempts(lang, 3))
    await expect(lines.nth(1).locator(".assignment-tag")).to_have_count(0)
    await page.screenshot(path=shots / f"runs-with-assignment-{lang}.png", full_page=True)
    await attempts.click()

    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ur" else "ltr")
    assert strip(await page.locator(".deadline").inner_text()) == deadline
    await expect(page.locator(".combined")).to_have_text("75%")  # (3 + 1.5) of 6 scored questions
    assert await names_in(page, "#finished tbody th") == ["Ann", "Dee"]
    assert (await row_of(page, "finished", "Ann")).startswith("100%")
    assert (await row_of(page, "finished", "Dee")).startswith("50%"), "half a select-all question's credit"
    assert await names_in(page, "#stopped tbody th") == ["Bob"]
    assert strip(A["stopped_state"]) in await row_of(page, "stopped", "Bob")
    assert "0%" in await row_of(page, "stopped", "Bob")
    assert await names_in(page, "#not-started li") == ["Cy", "Eve"], "seen in the group, not the admin"
    await the_class_summed_up(page, lang)
    await fits(page)
    await page.screenshot(path=shots / f"assignment-{lang}.png", full_page=True)

    await page.locator("#finished tbody tr").filter(has_text="Ann").locator("a").click()
    await expect(page.locator("h1")).to_contain_text(strip(texts.report(lang)["title"]))
    await expect(page.locator("table.answers tbody tr")).to_have_count(1)

    phone = await browser.new_page(viewport=PHONE_NARROW)
    await phone.goto(site.link(group()) + "assignments/1")
    await expect(phone.locator("#finished tbody tr")).to_have_count(2)
    await fits(phone)
    await phone.screenshot(path=shots / f"assignment-phone-{lang}.png", full_page=True)


async def test_a_link_of_another_chat_or_altered_is_refused(site: Site, browser: Browser):
    page = await phone_page(browser)
    other = group("g2")
    await house_of(site.engine).store.ensure_chat(other)
    response = await page.goto(site.link(other) + "assignments/1")
    assert response is not None and response.status == 404
    await expect(page.locator("body")).not_to_contain_text("Ann")
    link = site.link(group())
    token = link.rstrip("/").rsplit("/", 1)[1]
    response = await page.goto(
        link.replace(token, token[:-2] + ("zz" if not token.endswith("zz") else "yy")) + "assignments/1"
    )
    assert response is not None and response.status == 403
    await expect(page.locator("body")).not_to_contain_text("Ann")
