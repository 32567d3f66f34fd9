"""Every web page the bot serves, audited with axe-core in the system's Chromium (tests/support/audit.py),
in English and in Urdu, over real content: the leaderboard, the run history, the quizzes, the
kinds tour's question page (a picture, every kind's chart), a team game's report with every kind
of question, an assignment and an attempt's report, the upload form with a broken file and a
preview, the refusals and the missing page, and the big screen waiting, with a live question, at
its close with the teams ranked, for the host, and at the podium. No page may have a serious or
critical violation; the rest are printed.

Screenshots of a few go to $SCREENSHOTS_DIR (else a folder under the test's tmp_path).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from bot.adapters.web import texts
from bot.commands.core import Caller
from bot.commands.weblinks import VALID_SECONDS
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.teams import TeamScoring
from bot.domain.worth import RIGHT, VOTED, Verdict, Worth
from bot.engine.core import EngineSettings, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.adapters.web import test_web_assignment_browser as assignment
from tests.adapters.web.test_web_browser import GIFT_BROKEN, GIFT_FIXED, browser, shots  # noqa: F401 (fixtures)
from tests.adapters.web.test_web_kinds_browser import PLAYED, answer
from tests.engine.test_question_kinds import kinds_quiz
from tests.support.audit import audited
from tests.support.house import build, house_of
from tests.support.web_harness import Site, serving

ADMIN, ANN, BOB, CY = assignment.ADMIN, assignment.ANN, assignment.BOB, assignment.CY
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
JOIN = "https://t.me/+QuizNightGroup"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[Site, RecordingAdapter, int]]:
    """A group with two teams plays the kinds tour (every kind of question, a picture), then an
    assignment of each scored kind and a poll that Ann and Dee finish and Bob stops."""
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    shipped = Catalog.load(default_quiz_folders()).quizzes.values()
    catalog = Catalog.from_quizzes([*shipped, kinds_quiz(*assignment.QUESTIONS)])  # type: ignore[list-item]
    engine = build(catalog, store, FakeClock(), EngineSettings(question_seconds=30)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    house = house_of(engine)
    clock = house.clock
    await teams_of(store, clock.now())
    assert (await engine.start(group(), "kinds-tour", ANN, None)).status is StartStatus.STARTED
    run = engine.run_in(group())
    assert run is not None
    for answers in zip(*PLAYED.values(), strict=True):
        clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        for who, given in zip((ANN, BOB, CY), answers, strict=True):
            await answer(engine, card, who, given)
        clock.advance(30)  # type: ignore[attr-defined]
        await engine.run_due()
    clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(group()) is None
    created = await house.commands.handle("assign", "kinds until tomorrow 18:00", Caller(group(), ADMIN, True))
    assert "Assignment #1 is open" in created.text, created.text
    await assignment.played(engine, adapter, ANN, assignment.ANN_PRESSES)
    await assignment.played(engine, adapter, assignment.DEE, assignment.DEE_PRESSES)
    await assignment.played(engine, adapter, BOB, assignment.BOB_PRESSES)
    try:
        async with serving(engine) as served:
            yield served, adapter, run.id
    finally:
        await store.close()


async def teams_of(store: SqliteStore, now: float) -> None:
    """The group's next game is played in two teams: the Owls (Ann, Cy) and the Foxes (Bob)."""
    lineup = await store.new_lineup(group().key, ("Owls", "Foxes"), TeamScoring.MEAN, now)
    for who, team in ((ANN, 1), (BOB, 2), (CY, 1)):
        await store.join_team(lineup, who.key, who.name, team, False, now)


async def opened(browser: Browser, url: str, status: int = 200) -> Page:
    """The page in a new tab, scripts on for the audit alone (the pages themselves run none but
    the screen's; their Content-Security-Policy would refuse axe)."""
    context = await browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = await context.new_page()
    response = await page.goto(url)
    assert response is not None and response.status == status, (url, response and response.status)
    return page


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_every_page_has_no_serious_violation(
    site: tuple[Site, RecordingAdapter, int], browser: Browser, shots: Path, lang: str
):
    served, adapter, run_id = site
    house = house_of(served.engine)
    await house.chats.update(group(), language=lang)
    link = served.link(group())
    pages = {
        "home": served.base + "/",
        "board": link,
        "board-mine": served.link(group(), player_key=ANN.key) + "?period=week",
        "runs": link + "runs",
        "quizzes": link + "quizzes",
        "quiz-kinds-tour": link + "quizzes/kinds-tour",
        "report-teams-kinds": link + f"runs/{run_id}",
        "assignment": link + "assignments/1",
        "upload": link + "upload",
    }
    for name, url in pages.items():
        page = await opened(browser, url)
        await audited(page, f"{name}-{lang}")
        await speaks(page, "en" if name == "home" else lang)  # the home page is no chat's: the bot's language
        if name in ("report-teams-kinds", "quiz-kinds-tour", "assignment"):
            await page.screenshot(path=shots / f"{name}-{lang}.png", full_page=True)
            await page.set_viewport_size(PHONE)  # its tables scroll in their own boxes here
            await audited(page, f"{name}-phone-{lang}")
        await page.context.close()

    page = await opened(browser, link + "assignments/1")
    await page.locator("#finished tbody tr").filter(has_text="Dee").locator("a").click()
    await expect(page.locator("table.answers")).to_be_visible()
    await audited(page, f"report-attempt-{lang}")
    await page.goto(link + "upload")
    for gift, shown in ((GIFT_BROKEN, ".skipped"), (GIFT_FIXED, ".preview-questions")):
        await page.locator("#file").set_input_files(
            {"name": "capitals.gift", "mimeType": "text/plain", "buffer": gift.encode()}
        )
        await page.locator("form.upload button").click()
        await expect(page.locator(shown)).to_be_visible()
        await audited(page, f"upload-{shown[1:]}-{lang}")
    await page.context.close()

    token = link.rstrip("/").rsplit("/", 1)[1]
    page = await opened(browser, link.replace(token, token[:-2] + ("zz" if not token.endswith("zz") else "yy")), 403)
    await audited(page, f"refused-altered-{lang}")
    await speaks(page, "en")  # whose chat is not known: the bot's own language
    await page.goto(link + "no-such-page")
    await audited(page, f"missing-{lang}")
    await speaks(page, lang)
    # the downloads' refusal (a date that is none); a busy download's page is this one in other words
    refused = await page.goto(link + "results.csv?since=2026-13-45")
    assert refused is not None and refused.status == 400
    await audited(page, f"download-refused-{lang}")
    await speaks(page, lang)

    await the_screen_audited(served, adapter, browser, shots, lang)

    house.clock.advance(VALID_SECONDS)  # type: ignore[attr-defined]
    await page.goto(link)
    await audited(page, f"refused-expired-{lang}")
    await speaks(page, lang)
    await page.context.close()


async def speaks(page: Page, lang: str) -> None:
    """The page says its language and, from it, its direction."""
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ur" else "ltr")


async def the_screen_audited(served: Site, adapter: RecordingAdapter, browser: Browser, shots: Path, lang: str):
    """The big screen of a team game, its host's page beside it: waiting, a live question, its
    close with the teams ranked, the podium."""
    house = house_of(served.engine)
    at = served.signer.at(served.base)
    screen = await opened(browser, at.screen_url(group().key, False, house.clock.now(), join=JOIN))
    host = await opened(browser, at.screen_url(group().key, True, house.clock.now(), ADMIN.key))
    for page in (screen, host):
        await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await audited(screen, f"screen-waiting-{lang}")
    await audited(host, f"screen-host-{lang}")

    engine = served.engine
    await teams_of(house.store, house.clock.now())
    assert (await engine.start(group(), "pipeline", ANN, count=2)).status is StartStatus.STARTED
    quiz = engine.run_in(group()).quiz  # type: ignore[union-attr]
    house.clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    card = adapter.questions[-1]
    await expect(screen.locator("#options li")).to_have_count(len(card.options))
    await audited(screen, f"screen-question-{lang}")
    asked = next(q for q in quiz.questions if q.prompt.get(lang) == card.prompt)
    right = next(o.letter for o in card.options if o.text == asked.options[asked.answer].get(lang))
    wrong = next(o.letter for o in card.options if o.letter != right)
    assert (await engine.answer(adapter.token(right, card), ANN, group())).accepted
    assert (await engine.answer(adapter.token(wrong, card), BOB, group())).accepted
    house.clock.advance(30)  # type: ignore[attr-defined]
    await engine.run_due()
    await expect(screen.locator("#team-rows li")).to_have_count(2)
    marked = screen.locator("#options li .mark")
    await expect(marked).to_have_count(1)  # the right option says so, not by its colour alone
    await expect(screen.locator(f'#options li[data-letter="{right}"] .mark')).to_have_text(
        "✓ " + texts.screen(lang)["right_mark"]
    )
    await expect(screen.locator("#prompt")).to_have_attribute("lang", lang)  # the question's own language
    await expect(screen.locator("#options bdi").first).to_have_attribute("lang", lang)
    await audited(screen, f"screen-closed-{lang}")
    await screen.screenshot(path=shots / f"screen-closed-{lang}.png", full_page=True)
    await audited(host, f"screen-host-closed-{lang}")

    house.clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    house.clock.advance(30)  # type: ignore[attr-defined]
    await engine.run_due()
    house.clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    await expect(screen.locator("#heading")).to_have_text(texts.screen(lang)["podium"])
    await audited(screen, f"screen-podium-{lang}")
    await screen.context.close()
    await host.context.close()


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_each_chart_has_its_figures_as_a_table_and_right_is_said_in_words(
    site: tuple[Site, RecordingAdapter, int], browser: Browser, shots: Path, lang: str
):
    """Beside each chart's bars, folded, a table of the same figures: an option (in the language it
    is written in) per bar, its answers and share, the right ones marked by a tick and the words.
    The answers table says each answer's verdict in a word; the upload preview its right options."""
    served = site[0]
    await house_of(served.engine).chats.update(group(), language=lang)
    Q = texts.questions(lang)
    link = served.link(group())
    page = await opened(browser, link + "quizzes/kinds-tour")
    charts = page.locator("figure.chart")
    assert await charts.count() == 7, "the tour's seven questions"
    for i in range(await charts.count()):
        await the_table_says_what_the_bars_show(charts.nth(i), Q)
    await charts.nth(0).locator("summary").click()
    await charts.nth(0).screenshot(path=shots / f"chart-table-{lang}.png")

    page = await opened(browser, link + "assignments/1")
    await page.locator("#finished tbody tr").filter(has_text="Dee").locator("a").click()
    capital = page.locator("section.question").filter(has_text="Capital of France?").locator("figure.chart")
    await the_table_says_what_the_bars_show(capital, Q)
    paris = capital.locator("details tbody tr.right bdi")
    await expect(paris).to_have_text("Paris")
    await expect(paris).to_have_attribute("lang", "en")  # an English quiz in any page: its own language
    await expect(paris).to_have_attribute("dir", "ltr")
    cells = [strip(c) for c in await page.locator("table.answers td.cell .verdict").all_inner_texts()]
    dee = (Worth(Verdict.PARTIAL, 0.5), VOTED, Worth(Verdict.WRONG, 0.0), RIGHT)  # a mark and a word, not colour
    assert cells == [strip(texts.verdict(lang, worth)) for worth in dee]

    await page.goto(link + "upload")
    await page.locator("#file").set_input_files(
        {"name": "capitals.gift", "mimeType": "text/plain", "buffer": GIFT_FIXED.encode()}
    )
    await page.locator("form.upload button").click()
    right = page.locator(".preview-questions li.right")
    await expect(right).to_have_count(2)
    await expect(right.first.locator(".sr")).to_have_text(texts.upload(lang)["right"])


async def the_table_says_what_the_bars_show(chart: Locator, Q: dict[str, str]) -> None:
    bars, rows = chart.locator("svg g.bar"), chart.locator("details.chart-table tbody tr")
    await expect(rows).to_have_count(await bars.count())
    await expect(chart.locator("details.chart-table")).not_to_have_attribute("open", "")  # folded: the bars unchanged
    shown = [strip(t) for t in await chart.locator("svg text.count").all_text_contents()]
    for i, figures in enumerate(shown):
        count, share = figures.split(" · ")
        cells = [strip(c) for c in await rows.nth(i).locator("td").all_text_contents()]
        assert cells == [count, share], (i, cells, figures)
        right = "right" in (await bars.nth(i).get_attribute("class") or "")
        said = strip(await rows.nth(i).locator("th").text_content() or "")
        assert said.endswith(f"✓ {strip(Q['right_option'])}") == right, (i, said)


async def test_the_audit_fails_a_page_with_a_serious_violation(browser: Browser):
    """The audit is not blind: a picture without a text alternative and grey on white fail it."""
    page = await browser.new_page()
    await page.set_content(
        '<html lang="en"><title>t</title><main><h1>t</h1><img src="x.png">'
        '<p style="color:#bbb">too pale</p></main></html>'
    )
    with pytest.raises(AssertionError, match=r"(?s)color-contrast \(serious\).*image-alt \(critical\)"):
        await audited(page, "broken")
    await page.close()


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_the_keyboard_reaches_every_link_in_order_and_shows_where_it_is(
    site: tuple[Site, RecordingAdapter, int], browser: Browser, lang: str
):
    """Tab goes through the report's links, buttons and scroll boxes in the page's order (its
    reading order, right to left in Urdu), each drawn with a visible outline when focused."""
    served, _, run_id = site
    await house_of(served.engine).chats.update(group(), language=lang)
    page = await opened(browser, served.link(group()) + f"runs/{run_id}")
    focusable = "a[href], button, input:not([type=hidden]), summary, [tabindex='0']"
    expected = await page.locator(focusable).count()
    seen: list[str] = []
    for _ in range(expected):
        await page.keyboard.press("Tab")
        seen.append(await page.evaluate(FOCUSED))
    order = await page.evaluate(f"[...document.querySelectorAll({focusable!r})].map(e => e.outerHTML.slice(0, 80))")
    assert [s.split("|", 1)[1] for s in seen] == order, "the keyboard follows the page's order"
    thin = [s for s in seen if float(s.split("|", 1)[0]) < 2]
    assert not thin, f"no visible focus on {thin[:3]}"


# what has the focus, and how wide its outline is drawn: "width|the element's start"
FOCUSED = """() => {
  const e = document.activeElement;
  return parseFloat(getComputedStyle(e).outlineWidth) * (getComputedStyle(e).outlineStyle === "none" ? 0 : 1)
    + "|" + e.outerHTML.slice(0, 80);
}"""


async def test_the_bars_and_the_focus_outline_stand_out_from_the_page(
    site: tuple[Site, RecordingAdapter, int], browser: Browser
):
    """What axe does not measure: the contrast of things that are not text (WCAG 1.4.11, at least
    3:1 against the page): a chart's bars, right or not, and the focus outline."""
    served = site[0]
    page = await opened(browser, served.link(group()) + "quizzes/kinds-tour")
    paper = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    fills = await page.locator("figure.chart svg rect").evaluate_all("rs => rs.map(r => getComputedStyle(r).fill)")
    await page.keyboard.press("Tab")
    outline = await page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert len(set(fills)) == 2, fills  # the right answers' bars and the others'
    for colour in {*fills, outline}:
        assert contrast(colour, paper) >= 3, (colour, paper, contrast(colour, paper))


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS colours as the browser computes them ("rgb(r, g, b)")."""

    def luminance(css: str) -> float:
        channels = [int(c) / 255 for c in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


URDU_QUIZ = """
id: urdu-capitals
language: ur
title: "دارالحکومت"
description: "یورپ کے دارالحکومت"
questions:
  - {id: fr, prompt: "فرانس کا دارالحکومت کیا ہے؟", options: ["پیرس", "لیون"], answer: 0}
"""


async def test_an_urdu_quiz_in_an_english_page_says_its_language(
    site: tuple[Site, RecordingAdapter, int], browser: Browser
):
    """A quiz written in Urdu, uploaded to an English chat: its text on the English page carries
    lang="ur" dir="rtl", and the page passes the audit."""
    served = site[0]
    link = served.link(group())
    page = await opened(browser, link + "upload")
    await page.locator("#file").set_input_files(
        {"name": "urdu.yaml", "mimeType": "text/yaml", "buffer": URDU_QUIZ.encode()}
    )
    await page.locator("form.upload button").click()
    await page.get_by_role("button", name="Save this quiz for the chat").click()
    await expect(page.get_by_role("status")).to_contain_text("Saved")
    await page.goto(link + "quizzes/urdu-capitals")
    await speaks(page, "en")
    for quiz_text in (page.locator("h1 bdi"), page.locator("section.question h2 bdi"), page.locator("ol.options bdi")):
        await expect(quiz_text.first).to_have_attribute("lang", "ur")
        await expect(quiz_text.first).to_have_attribute("dir", "rtl")
    await audited(page, "quiz-urdu-in-en")
