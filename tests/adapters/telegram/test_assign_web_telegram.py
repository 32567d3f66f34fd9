"""An assignment on the web, played through Telegram (real PTB, the fake Bot API, a FakeClock): a
teacher in Berlin assigns a quiz, Ann plays it to the end in private, Bob answers one question
and /stop-s, Cy (who answered a quiz in the group) never starts. The teacher's /dashboard link
opens the run history, where the assignment is one line of two attempts, and its page, which
puts each member in the right list with the deadline in the group's zone."""

from __future__ import annotations

import re

import aiohttp

from tests.adapters.telegram.test_assign_telegram import plays
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401 (the fixtures)
from tests.adapters.web.test_web_pages import text_of
from tests.support import telegram_harness as th


async def page_text(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


def section(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return text_of(html[start : html.index("</section>", start)])


async def test_the_teachers_link_shows_who_finished_stopped_and_never_started(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    port = unused_tcp_port_factory()
    settings = th.settings_for(
        fake, tmp_path, quizhost_web_url=f"http://127.0.0.1:{port}", quizhost_web_listen=f"127.0.0.1:{port}"
    )
    quiz = tiny(tmp_path)
    group = fake.group(-2101, "Class 8C")
    tess_user = fake.user(80, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    fake.private(tess_user)  # /dashboard's link comes in private
    users = {name: fake.user(81 + i, name) for i, name in enumerate(("Ann", "Bob", "Cy"))}
    for user in users.values():
        fake.join(group, user)
    ann, bob = (th.Member(fake, fake.private(users[n]), users[n]) for n in ("Ann", "Bob"))
    cy_in_group = th.Member(fake, group, users["Cy"])
    async with th.running_bot(fake, settings, clock):
        await tess.says("/settings tz Europe/Berlin")
        await tess.says("/quiz tiny")  # Cy answers its first question: seen in the group
        q1 = await th.next_question(fake, group, 1)
        assert (await cy_in_group.presses(q1, th.right_letter(q1, quiz))).text.startswith("Locked in")
        await tess.says("/stop")

        created = await tess.says("/assign tiny until 2023-11-15 18:00")
        assert "Assignment #1 is open until 2023-11-15 18:00 Europe/Berlin" in created.text, created.text
        await plays(fake, ann, quiz, (True, True, False))
        await bob.says("/start assign_1")
        first = await th.next_question(fake, bob.chat, 1)
        await bob.presses(first, th.wrong_letter(first, quiz))
        await th.reveal_of(fake, bob.chat, first)
        await bob.says("/stop")

        await tess.says("/dashboard")
        told = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(fake.private(tess_user)) if "/c/" in m.text), None), what="the link"
        )
        link = told.text.split()[-1].rstrip("/")
        status, html = await page_text(f"{link}/runs")
        assert status == 200
        lines = [text_of(r[: r.index("</tr>")]) for r in html.split("<tr")[2:]]
        assert len(lines) == 2, lines  # the assignment once, and the group's own (stopped) run
        (line,) = [line for line in lines if "Assignment page" in line]
        assert re.search(r"CET assignment running Tiny .* 2 attempts .* Assignment page", line), line

        status, html = await page_text(f"{link}/assignments/1")
        assert status == 200
        assert "Deadline 2023-11-15 18:00 CET" in text_of(html), "in the group's zone"
        assert re.search(r"Ann 67% [\d,]+ 2023-11-14 23:\d\d CET Report", section(html, "finished"))
        assert re.search(r"Bob stopped before the end 0% 0 ", section(html, "stopped"))
        assert section(html, "not-started").split()[-1] == "Cy", "Tess assigned it: not asked to play"
        assert "Combined accuracy of the finished attempts 67%" in text_of(html)

        other = f"{link[:-4]}{'xxxx' if not link.endswith('xxxx') else 'yyyy'}/assignments/1"
        assert (await page_text(other))[0] == 403, "an altered link opens nothing"
