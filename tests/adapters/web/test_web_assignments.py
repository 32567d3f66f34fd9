"""An assignment on the web pages, over HTTP on loopback (no browser): members play it in their
private chats, and each run is the group's: the group's run history lists the assignment once,
its attempts counted, linking to its page (who finished, who stopped, who has not started) and
each attempt's report opened from the group's admin link; the private chat's pages show none of it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.commands.core import Caller
from bot.commands.weblinks import Scope
from bot.domain.model import ChatRef, Player, Quiz
from bot.engine.core import Engine
from bot.testing.fakes import RecordingAdapter, group, player
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.support.house import house_of
from tests.support.web_harness import play, serving

ADMIN, ANN, BOB, CY = player(1, "Admin"), player(2, "Ann"), player(3, "Bob"), player(4, "Cy")


async def played_in_private(
    engine: Engine, adapter: RecordingAdapter, quiz: Quiz, who: Player, rights: Sequence[bool] | None = None
) -> ChatRef:
    """`who` presses Start on assignment 1 and answers its questions in private: question i right
    when rights[i] (all right by default); `rights` shorter than the quiz: /stop after them."""
    chat = ChatRef("test", f"p{who.user_id}", is_private=True)
    started = await house_of(engine).commands.handle("start", "assign_1", Caller(chat, who))
    assert "Assignment #1" in started.text, started.text
    rights = [True] * len(quiz.questions) if rights is None else rights
    for right in rights:
        house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card = adapter.questions[-1]
        assert card.chat == chat
        letter = adapter.right_letter(quiz, card) if right else adapter.wrong_letter(quiz, card)
        assert (await engine.answer(adapter.token(letter, card), who, chat)).accepted
        await engine.run_due()
    if len(rights) < len(quiz.questions):
        await house_of(engine).commands.handle("stop", "", Caller(chat, who))
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
        assert re.search(r"assignment running Demo quiz 1 attempt 🥇 Ann [\d,]+ Assignment page", text_of(html))
        assert "/assignments/1" in html
        _, html, _ = await fetch(site.link(group()) + "assignments/1")
        assert f"/runs/{run.run_id}" in html, "the assignment's page links each attempt's report"
        status, html, _ = await fetch(site.link(group()) + f"runs/{run.run_id}")
        assert status == 200 and "Run report: Demo quiz" in text_of(html)
        answers = html.split('<table class="answers">')[1]  # after the summary's table of players
        row = next(r for r in answers.split("<tr>") if '<th scope="row"><bdi dir="auto">Ann</bdi>' in r)
        assert text_of(row[: row.index("</tr>")]).count("✓ right") == len(quiz.questions), "Ann's answers"

        _, html, _ = await fetch(site.link(private) + "runs")
        assert f"/runs/{run.run_id}" not in html and "Ann" not in text_of(html)
        status, _, _ = await fetch(site.link(private) + f"runs/{run.run_id}")
        assert status == 404, "the run is the group's, not the private chat's"


DEE = player(5, "Dee")
KARACHI = ZoneInfo("Asia/Karachi")


async def assigned_class(engine: Engine, adapter: RecordingAdapter, quiz: Quiz) -> None:
    """A group in Karachi's zone whose members Cy and Eve played a quiz in it, then an assignment of
    it: Ann finishes it all right, Dee finishes it half right, Bob answers one right and one wrong
    and stops; Cy and Eve (seen in the group) never start it. The admin, who played too, assigned it."""
    house = house_of(engine)
    await house.chats.update(group(), time_zone="Asia/Karachi")
    await play(engine, adapter, group(), quiz, {CY: [True] * 4, ADMIN: [True] * 4, EVE: [False] * 4})
    created = await house.commands.handle("assign", f"{quiz.id} until tomorrow 18:00", Caller(group(), ADMIN, True))
    assert "Assignment #1 is open" in created.text, created.text
    await played_in_private(engine, adapter, quiz, ANN)
    await played_in_private(engine, adapter, quiz, DEE, [True, False, True, False])
    await played_in_private(engine, adapter, quiz, BOB, [True, False])


EVE = player(6, "Eve")


def section(html: str, name: str) -> str:
    """The text of the page's section `name` (finished, stopped, not-started)."""
    start = html.index(f'<section id="{name}"')
    return text_of(html[start : html.index("</section>", start)])


async def test_the_assignment_page_says_who_finished_who_stopped_and_who_has_not_started(engine, adapter, quiz):
    await assigned_class(engine, adapter, quiz)
    row = await house_of(engine).store.assignment(1)
    assert row is not None
    deadline = datetime.fromtimestamp(row.deadline, KARACHI).strftime("%Y-%m-%d %H:%M")
    assert deadline.endswith("18:00")
    async with serving(engine) as site:
        status, html, _ = await fetch(site.link(group()) + "assignments/1")
        assert status == 200
        page = text_of(html)
        assert "Assignment #1 : Demo quiz" in page
        assert f"Deadline {deadline} PKT" in page, "the deadline in the chat's zone"
        assert "Combined accuracy of the finished attempts 75%" in page, "Ann's 4 of 4 and Dee's 2 of 4"
        finished = section(html, "finished")
        assert re.search(r"Ann 100% [\d,]+ \d{4}-\d\d-\d\d \d\d:\d\d PKT Report", finished), finished
        assert re.search(r"Dee 50% [\d,]+ .* Report", finished), finished
        assert "Bob" not in finished and "Cy" not in finished
        stopped = section(html, "stopped")
        assert re.search(r"Bob stopped before the end 50% [\d,]+ ", stopped), "1 right of the 2 asked"
        assert "Ann" not in stopped and "Dee" not in stopped
        waiting = section(html, "not-started")
        assert "Cy" in waiting and "Eve" in waiting
        assert all(name not in waiting for name in ("Ann", "Bob", "Dee", "Admin")), waiting
        assert "members the bot has seen in the group" in page


async def test_the_history_lists_the_assignment_once_beside_the_groups_own_run(engine, adapter, quiz):
    await assigned_class(engine, adapter, quiz)
    async with serving(engine) as site:
        _, html, _ = await fetch(site.link(group()) + "runs")
        rows = [text_of(r[: r.index("</tr>")]) for r in html.split("<tr")[2:]]
        assert len(rows) == 2, rows
        assert re.search(r"assignment running Demo quiz 3 attempts 🥇 Ann [\d,]+ .* Assignment page", rows[0])
        assert re.search(r"Demo quiz 3 🥇 .* Report", rows[1]), "the group's own run, its three players"
        assert html.count('href="/c/') > 0 and "/assignments/1" in html


async def test_an_assignment_opens_for_its_own_chats_admin_link_only(engine, adapter, quiz):
    await assigned_class(engine, adapter, quiz)
    other = group("g2")
    await house_of(engine).store.ensure_chat(other)
    async with serving(engine) as site:
        status, html, _ = await fetch(site.link(other) + "assignments/1")
        assert status == 404 and "Ann" not in html, "another chat's link finds no such assignment"
        status, html, _ = await fetch(site.link(ChatRef("test", f"p{ANN.user_id}", True)) + "assignments/1")
        assert status == 404, "nor does the private chat it was played in"
        link = site.link(group())
        token = link.rstrip("/").rsplit("/", 1)[1]
        altered = link.replace(token, token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"))
        status, html, _ = await fetch(altered + "assignments/1")
        assert status == 403 and "Ann" not in html
        await house_of(engine).store.set_board_public(group().key, True)
        status, html, _ = await fetch(site.link(group(), Scope.BOARD) + "assignments/1")
        assert status == 403 and "Ann" not in html, "the public board's link opens the board only"
        status, _, _ = await fetch(link + "assignments/2")
        assert status == 404
        status, _, _ = await fetch(link + "assignments/99999999999999999999")
        assert status == 404
