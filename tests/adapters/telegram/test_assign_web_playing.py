"""An assignment's page while a member is still playing (real PTB, the fake Bot API, a FakeClock):
the question they are answering is not yet asked, as the run report and the podium count it, so
it does not pull their accuracy down before they had the chance to answer it."""

from __future__ import annotations

import re

from tests.adapters.telegram.test_assign_web_telegram import page_text, section
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401 (the fixtures)
from tests.support import telegram_harness as th


async def test_a_member_still_playing_is_counted_over_the_questions_asked_so_far(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    port = unused_tcp_port_factory()
    settings = th.settings_for(
        fake, tmp_path, quizhost_web_url=f"http://127.0.0.1:{port}", quizhost_web_listen=f"127.0.0.1:{port}"
    )
    quiz = tiny(tmp_path)
    group = fake.group(-2102, "Class 8D")
    tess_user = fake.user(90, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    fake.private(tess_user)
    dee_user = fake.user(91, "Dee")
    fake.join(group, dee_user)
    dee = th.Member(fake, fake.private(dee_user), dee_user)
    async with th.running_bot(fake, settings, clock):
        await tess.says("/assign tiny until 2023-11-15 18:00")
        await dee.says("/start assign_1")
        first = await th.next_question(fake, dee.chat, 1)
        await dee.presses(first, th.right_letter(first, quiz))
        await th.reveal_of(fake, dee.chat, first)
        await th.next_question(fake, dee.chat, 2)  # on the screen, not answered yet

        await tess.says("/dashboard")
        told = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(fake.private(tess_user)) if "/c/" in m.text), None), what="the link"
        )
        status, html = await page_text(f"{told.text.split()[-1].rstrip('/')}/assignments/1")
        assert status == 200
        assert re.search(r"Dee still playing 100% ", section(html, "stopped")), section(html, "stopped")
