"""An assignment's runs on the web pages, over HTTP on loopback (no browser): members play them in
their private chats, and each run is the group's: listed on the group's run page with the
member's name, its report opened from the group's admin link; the private chat's pages do not
show it."""

from __future__ import annotations

import re

from bot.commands.core import Caller
from bot.domain.model import ChatRef, Player, Quiz
from bot.engine.core import Engine
from bot.testing.fakes import RecordingAdapter, group, player
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.support.house import house_of
from tests.support.web_harness import serving

ADMIN, ANN = player(1, "Admin"), player(2, "Ann")


async def played_in_private(engine: Engine, adapter: RecordingAdapter, quiz: Quiz, who: Player) -> ChatRef:
    """`who` presses Start on assignment 1 and answers every question of it right, in private."""
    chat = ChatRef("test", f"p{who.user_id}", is_private=True)
    started = await house_of(engine).commands.handle("start", "assign_1", Caller(chat, who))
    assert "Assignment #1" in started.text, started.text
    for _ in quiz.questions:
        house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        assert card.chat == chat
        assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), who, chat)).accepted
        await engine.run_due()
    house_of(engine).clock.advance(10)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(chat) is None
    return chat


async def test_an_assignments_run_is_listed_and_reported_under_the_group(engine, adapter, quiz):
    await house_of(engine).store.ensure_chat(group())
    created = await house_of(engine).commands.handle(
        "assign", f"{quiz.id} until tomorrow", Caller(group(), ADMIN, True)
    )
    assert "Assignment #1 is open" in created.text, created.text
    private = await played_in_private(engine, adapter, quiz, ANN)
    (run,) = await house_of(engine).store.chat_runs(group().key)
    async with serving(engine) as site:
        _, html, _ = await fetch(site.link(group()) + "runs")
        assert re.search(r"Demo quiz 1 🥇 Ann [\d,]+ Report", text_of(html)), text_of(html)
        assert f"/runs/{run.run_id}" in html
        status, html, _ = await fetch(site.link(group()) + f"runs/{run.run_id}")
        assert status == 200 and "Run report: Demo quiz" in text_of(html)
        row = next(r for r in html.split("<tr>") if '<th scope="row"><bdi>Ann</bdi>' in r)
        assert text_of(row[: row.index("</tr>")]).count("✓ right") == len(quiz.questions), "Ann's answers"

        _, html, _ = await fetch(site.link(private) + "runs")
        assert f"/runs/{run.run_id}" not in html and "Ann" not in text_of(html)
        status, _, _ = await fetch(site.link(private) + f"runs/{run.run_id}")
        assert status == 404, "the run is the group's, not the private chat's"
