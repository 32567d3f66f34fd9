"""The trivia night's big screen in a real browser (the system's Chromium through Playwright):
`quizhost run` with its web pages (real PTB, the fake Bot API, a FakeClock), the group's
`/screen` link opened once, and the hosted game of two teams played in the group while the page
follows it without a reload: each question, "N of M answered", the split after a close, the
standings between the rounds (the teams' beside the players'), a restart of the bot in the
middle (the page reconnects by itself), and the podium. In English and in Urdu (right to
left); screenshots go to $SCREENSHOTS_DIR, else under the test's tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz
from bot.testing.fake_telegram import FakeBotApi, Sent
from bot.texts.bidi import strip
from bot.texts.message import t
from tests.adapters.telegram.test_screen_telegram import settings_with_pages
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401  (fixtures)
from tests.adapters.telegram.test_telegram_teams import join_data
from tests.adapters.telegram.test_trivia_night_telegram import Night
from tests.adapters.web.test_web_browser import browser, shots  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th

PROJECTOR = {"width": 1280, "height": 720}


async def opened(browser: Browser, url: str) -> Page:
    page = await browser.new_page(viewport=PROJECTOR)
    await page.goto(url)
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await page.evaluate("window.notReloaded = true")  # gone if the page were loaded again
    return page


def shown_as(text: str) -> re.Pattern[str]:
    """`text` as the page shows it: the page marks numbers off for the text's direction as the
    browser needs (its own isolates, maybe not Python's), so only the letters are compared."""
    marks = "[\u200e\u200f\u2066-\u2069]*"
    return re.compile(marks + marks.join(re.escape(c) for c in strip(text)) + marks)


def lineup(fake: FakeBotApi, group: dict) -> Sent | None:
    """The teams message, in any language: the one with the join buttons."""
    joins = (m for m in fake.sent_to(group) if any(b["callback_data"].startswith("tj:") for b in m.buttons()))
    return next(joins, None)


def asked(quiz: Quiz, question: Sent, lang: str):
    shown = th.strip(question.text)
    return next(q for q in quiz.questions if q.prompt.get(lang) in shown)


@pytest.mark.parametrize("lang", ["en", "ur"])
async def test_the_big_screen_follows_a_hosted_trivia_night_without_a_reload(
    fake, clock, tmp_path, monkeypatch, unused_tcp_port, browser: Browser, shots: Path, lang: str
):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # a night's worth in seconds
    quiz = Catalog.load(default_quiz_folders()).get("trivia-night")
    assert quiz is not None
    night = Night(fake, clock)
    group, tess, players = night.group, night.tess, night.players
    ann, bob, cy, dee = players
    settings = settings_with_pages(fake, tmp_path, unused_tcp_port)

    def right(question: Sent) -> str:
        return th.right_letter(question, quiz, lang)

    async with th.running_bot(fake, settings, clock):
        await night.says(tess, f"/language {lang}")
        await night.says(tess, "/teams Owls Foxes")
        teams = await fake.wait_for(lambda: lineup(fake, group), what="the teams message")
        for member, team in zip(players, (1, 1, 2, 2), strict=True):
            await member.presses_data(teams.message_id, join_data(teams, team))
        link = (await night.says(tess, "/screen")).split()[-1]
        page = await opened(browser, link)
        assert await page.get_attribute("html", "dir") == ("rtl" if lang == "ur" else "ltr")
        await night.says(tess, "/host trivia-night 30s")

        await night.says(tess, "/next")
        q1 = await th.next_question(fake, group, 1)
        await expect(page.locator("#prompt")).to_have_text(asked(quiz, q1, lang).prompt.get(lang))
        await expect(page.locator("#options li")).to_have_count(4)
        await expect(page.locator("#options li.right")).to_have_count(0)
        for member in (ann, bob, cy):
            await member.presses(q1, right(q1))
        await night.says(tess, "/next")  # Dee has not answered: the host closes it
        await th.reveal_of(fake, group, q1)
        await expect(page.locator(f'#options li[data-letter="{right(q1)}"]')).to_have_class("right")
        await expect(page.locator("#options li .count").first).not_to_have_text("")  # the split
        await expect(page.locator("#rows li")).to_have_count(3)  # the top five: who played

        await night.says(tess, "/next")
        q2 = await th.next_question(fake, group, 2)
        await expect(page.locator("#prompt")).to_have_text(asked(quiz, q2, lang).prompt.get(lang))
        await expect(page.locator("#options li.right")).to_have_count(0)
        for member in (dee, ann, bob):
            clock.advance(1)  # the screen's count is sent a few times a second, not at each press
            await member.presses(q2, right(q2))
        await expect(page.locator("#answered")).to_have_text(shown_as(t(lang, "{n} of {m} answered", n=3, m=4)))
        await page.screenshot(path=shots / f"night-question-{lang}.png")
        await cy.presses(q2, right(q2))  # the fourth: it closes by itself
        await th.reveal_of(fake, group, q2)
        await expect(page.locator(f'#options li[data-letter="{right(q2)}"]')).to_have_class("right")
        await page.screenshot(path=shots / f"night-split-{lang}.png", full_page=True)

        for number in (3, 4):
            await night.says(tess, "/next")
            q = await th.next_question(fake, group, number)
            for member in players:
                await member.presses(q, right(q))
            await th.reveal_of(fake, group, q)
        round_name = quiz.rounds[0].name.get(lang)
        await expect(page.locator("#board-title")).to_contain_text(round_name)
        await expect(page.locator("#rows li")).to_have_count(4)
        await expect(page.locator("#team-rows li")).to_have_count(2)  # the teams beside the players
        await page.screenshot(path=shots / f"night-round-{lang}.png", full_page=True)

        await night.says(tess, "/next")
        q5 = await th.next_question(fake, group, 5)
        await expect(page.locator("#prompt")).to_have_text(asked(quiz, q5, lang).prompt.get(lang))

    async with th.running_bot(fake, settings, clock):  # a deploy in the middle: the page reconnects
        await expect(page.locator("#status")).to_have_attribute("data-state", "live", timeout=15_000)
        for member in players:
            await member.presses(q5, right(q5))
        await th.reveal_of(fake, group, q5)
        await expect(page.locator(f'#options li[data-letter="{right(q5)}"]')).to_have_class("right")
        for number in (6, 7, 8):
            await night.says(tess, "/next")
            q = await th.next_question(fake, group, number)
            await expect(page.locator("#prompt")).to_have_text(asked(quiz, q, lang).prompt.get(lang))
            for member in players:
                await member.presses(q, right(q))
            await th.reveal_of(fake, group, q)
        await expect(page.locator("#heading")).to_have_text(shown_as(t(lang, "Final standings")))
        await expect(page.locator("#team-rows li").first).to_contain_text("Owls")  # Ann and Bob's
        await expect(page.locator("#rows li").first).to_contain_text("Ann")
        await page.screenshot(path=shots / f"night-podium-{lang}.png", full_page=True)
        assert await page.evaluate("window.notReloaded === true"), "the page changed without a reload"
        await page.close()
