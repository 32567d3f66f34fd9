"""The kinds tour's question page in Chromium, after a group played it: the picture beside the
quiz shown inline, and each kind's chart: several right options marked, the most common typed
and numeric answers with the right ones marked, a poll's split with none marked, and the steps
put in order: per place, how many put its option there, beside the share of places right."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from bot.domain.model import Player, QuestionCard
from bot.engine.core import Engine, StartStatus
from bot.testing.fakes import group, player
from tests.adapters.web.test_web_browser import browser, phone_page, shots  # noqa: F401 (the fixtures)
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.support.house import house_of
from tests.support.web_harness import Site, serving, shipped_engine

ANN, BOB, CY = player(1, "Ann"), player(2, "Bob"), player(3, "Cy")
STEPS = [  # the ordering question's options, in the right order
    "The forward pass computes the loss on this GPU's micro-batch",
    "The backward pass computes this GPU's gradients",
    "An all-reduce averages the gradients across the GPUs",
    "The optimizer updates the weights with the averaged gradients",
]
# what each player answers, question by question: option texts (pressed in turn), or what they type
PLAYED: dict[Player, list[list[str] | str]] = {
    ANN: [
        ["3/7"],
        ["Tensor parallelism", "Pipeline parallelism", "Fully sharded data parallelism (FSDP / ZeRO-3)"],
        ["True"],
        "allreduce",
        "14",
        ["FSDP / ZeRO-3"],
        STEPS,
    ],
    BOB: [
        ["1/4"],
        ["Tensor parallelism", "Plain data parallelism (DDP)"],
        ["False"],
        "All-Reduce",
        "14,2",
        ["Tensor parallelism"],
        [STEPS[0], STEPS[1], STEPS[3], STEPS[2]],
    ],
    CY: [["3/7"], ["Gradient accumulation"], ["True"], "broadcast", "28", ["FSDP / ZeRO-3"], STEPS[::-1]],
}
CARDS: list[QuestionCard] = []  # the cards the players saw in the site's run, each run shuffling the options


async def answer(engine: Engine, card: QuestionCard, who: Player, given: list[str] | str) -> None:
    if isinstance(given, str):
        ack = await engine.answer_text(group(), who, given)
        assert ack is not None and ack.accepted, ack
        return
    for text in given:
        token = next(o.token for o in card.options if o.text == text)
        assert (await engine.answer(token, who, group())).accepted


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    assert (await engine.start(group(), "kinds-tour", ANN, None)).status is StartStatus.STARTED
    CARDS.clear()
    for index in range(len(PLAYED[ANN])):
        clock.advance(5)
        await engine.run_due()
        card = adapter.questions[-1]
        CARDS.append(card)
        for who, answers in PLAYED.items():
            await answer(engine, card, who, answers[index])
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


async def test_the_tour_page_shows_its_picture_and_a_chart_for_each_kind(site: Site, browser: Browser, shots: Path):
    page = await phone_page(browser)
    pictures = []
    page.on(
        "response", lambda r: pictures.append((r.status, r.headers.get("content-type"))) if "/media/" in r.url else None
    )
    await page.goto(site.link(group()).rstrip("/") + "/quizzes/kinds-tour")
    sections = page.locator("section.question")
    await expect(sections).to_have_count(7)

    picture = sections.nth(0).locator("figure.medium img")
    await expect(picture).to_be_visible()
    box = await picture.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100, "the picture itself, not a broken icon"
    assert pictures == [(200, "image/png")]

    multi = sections.nth(1)
    await expect(multi.locator("svg g.bar.right")).to_have_count(3)
    # each pick counts for its option, as a share of the three players (not of the six picks)
    split = "A 2 (67%) right answer, B 1 (33%) right answer, C 1 (33%) right answer, D 1 (33%), E 1 (33%)"
    await expect(multi.locator("svg title")).to_contain_text(split)
    # share right from what each answer was worth: Ann all three right (1), Bob one right and one
    # wrong (0), Cy a wrong one (0); typed and numeric: two of three right
    right = {n: sections.nth(n).locator("dl.figures > div").nth(1) for n in range(7)}
    for n, share in ((1, "33%"), (3, "67%"), (4, "67%"), (5, "–")):  # a poll: nothing is right
        await expect(right[n].locator("dt")).to_have_text("Right")
        await expect(right[n].locator("dd")).to_have_text(share)
    truefalse = sections.nth(2)
    await expect(truefalse.locator("ol.options li.right")).to_have_text("True ✓ right answer")
    typed = sections.nth(3)
    await expect(typed.locator("ol.options")).to_have_attribute("type", "1")
    await expect(typed.locator("ol.options li").first).to_contain_text("all-reduce")
    await expect(typed.locator("ol.options li.right")).to_have_count(2)  # "allreduce" and "all-reduce"
    numeric = sections.nth(4)
    await expect(numeric.locator("ol.options li.right")).to_have_count(2)  # 14 and 14.2; 28 is wrong
    poll = sections.nth(5)
    await expect(poll.locator("svg g.bar")).to_have_count(4)
    await expect(poll.locator("svg g.bar.right")).to_have_count(0)
    ordering = sections.nth(6)
    await expect(ordering.locator("ol.options")).to_have_attribute("type", "1")
    await expect(ordering.locator("ol.options li").first).to_contain_text(STEPS[0])  # the right order
    # Ann all four places, Bob the first two, Cy none: 6 of 12 places right, one order of three
    places = "1 2 (67%) right answer, 2 2 (67%) right answer, 3 1 (33%) right answer, 4 1 (33%) right answer"
    await expect(ordering.locator("svg title")).to_contain_text(places)
    # partial credit: Ann 1, Bob two places of four, Cy none; the whole order right: Ann alone
    figures = ordering.locator("dl.figures > div")
    for n, (name, share) in enumerate((("Right", "50%"), ("Places right", "50%"), ("Whole order right", "33%")), 1):
        await expect(figures.nth(n).locator("dt")).to_have_text(name)
        await expect(figures.nth(n).locator("dd")).to_have_text(share)
    await page.screenshot(path=shots / "kinds-tour-en.png", full_page=True)
    for n in range(7):
        await sections.nth(n).screenshot(path=shots / f"kinds-tour-q{n + 1}.png")


async def test_the_run_report_lists_each_order_as_placed_and_charts_the_places_right(site: Site):
    (run,) = await house_of(site.engine).store.chat_runs(group().key)
    status, html, _ = await fetch(site.link(group()) + f"runs/{run.run_id}")
    assert status == 200
    # the letters the players saw (the run shuffles the steps): Ann's order right, Bob's last two
    # swapped, Cy's reversed
    table = html[html.index('class="answers"') : html.index("</table>", html.index('class="answers"'))]
    orders = [re.findall(r"[A-D] → [A-D] → [A-D] → [A-D]", text_of(row)) for row in table.split("<tr>")[2:]]
    ann, bob, cy = (found[0].split(" → ") for found in orders)
    assert bob == [*ann[:2], ann[3], ann[2]] and cy == ann[::-1], orders
    words = text_of(html)
    # the report's letters are those on the card the players saw
    letter = {o.text: o.letter for o in CARDS[6].options}
    for placed in (STEPS, [STEPS[0], STEPS[1], STEPS[3], STEPS[2]], STEPS[::-1]):
        assert " → ".join(letter[step] for step in placed) in words
    # per option, the answers that put it in its right place: Ann all four, Bob the first two
    # drawn as the quiz page draws it: the places in the right order (the listed options)
    places = "1 2 (67%) right answer, 2 2 (67%) right answer, 3 1 (33%) right answer, 4 1 (33%) right answer"
    assert f"How the answers split: {places}</title>" in html
