"""Words no line can break (a name of 64 letters, a typed answer of 200, a number of 150 digits)
on a phone: the run report with its summary, the run history, the board, the quiz page and an
assignment's page with its summary stay within the screen, in English and in Urdu."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser

from bot.commands.core import Caller
from bot.domain.model import ChatRef
from bot.engine.core import Engine, StartStatus
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401 (the fixtures)
from tests.adapters.web.test_web_kinds_browser import answer
from tests.adapters.web.test_web_layout_browser import OUTSIDE, page_at
from tests.support.house import house_of
from tests.support.web_harness import Site, serving, shipped_engine

LONG = player(7, "W" * 64)
TYPED = "x" * 200
PLAYED: list[list[str] | str | None] = [["1/4"], ["Gradient accumulation"], ["True"], TYPED, "1" * 150, None, None]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    store, clock, engine, adapter = await shipped_engine(tmp_path / "quizhost.db")
    assert (await engine.start(group(), "kinds-tour", LONG, None)).status is StartStatus.STARTED
    for given in PLAYED:
        clock.advance(5)
        await engine.run_due()
        if given is not None:
            await answer(engine, adapter.questions[-1], LONG, given)
        clock.advance(30)
        await engine.run_due()
    clock.advance(5)
    await engine.run_due()
    await let_the_assignment_run_out(engine, adapter, clock)
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def let_the_assignment_run_out(engine: Engine, adapter: RecordingAdapter, clock: FakeClock) -> None:
    """The same quiz as assignment 1, which the long-named member starts in private, answers the
    first question wrong and lets every other one's time run out: the summary names them."""
    commands = house_of(engine).commands
    assigned = await commands.handle("assign", "kinds-tour until tomorrow", Caller(group(), LONG, True))
    assert "#1" in assigned.text, assigned.text
    private = ChatRef("test", f"p{LONG.user_id}", is_private=True)
    assert "#1" in (await commands.handle("start", "assign_1", Caller(private, LONG))).text
    clock.advance(5)
    await engine.run_due()
    card = adapter.questions[-1]
    wrong = next(o.token for o in card.options if o.text != PLAYED[0][0])  # type: ignore[index]
    assert (await engine.answer(wrong, LONG, private)).accepted
    if card.done_token:
        assert (await engine.answer(card.done_token, LONG, private)).accepted
    for _ in range(len(PLAYED) + 1):
        clock.advance(40)
        await engine.run_due()
    assert engine.run_in(private) is None


@pytest.mark.parametrize("lang", ("en", "ur"))
async def test_words_no_line_can_break_stay_within_a_phones_screen(
    site: Site, browser: Browser, shots: Path, lang: str
):
    await house_of(site.engine).chats.update(group(), language=lang)
    run, *_ = await house_of(site.engine).store.chat_runs(group().key)
    admin = site.link(group())
    page = await page_at(browser, 390)
    pages = {"run": f"runs/{run.run_id}", "runs": "runs", "board": "", "quiz": "quizzes/kinds-tour"}
    pages["assignment"] = "assignments/1"
    for name, address in ((name, admin + path) for name, path in pages.items()):
        response = await page.goto(address)
        assert response is not None and response.status == 200, name
        measured: dict[str, Any] = await page.evaluate(OUTSIDE)
        await page.screenshot(path=shots / f"long-{name}-{lang}.png", full_page=True)
        assert measured["scroll"] <= 390, f"{name} ({lang}) is {measured['scroll']} px wide: {measured['out'][:8]}"
        assert measured["out"] == [], f"{name} ({lang}): {measured['out'][:5]}"
    await page.close()
