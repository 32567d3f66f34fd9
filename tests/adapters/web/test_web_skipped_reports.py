"""A question its host skipped, in the run's report page and its downloads: named "skipped by
the host" for every player, neither unanswered by everyone nor in anyone's accuracy."""

from __future__ import annotations

from bot.domain.hosting import HostAction
from bot.engine.core import StartStatus
from bot.testing.fakes import group
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.adapters.web.test_web_reports import ANN, BOB, csv_rows, download
from tests.support.house import house_of
from tests.support.web_harness import serving


async def test_a_skipped_question_is_named_so_in_the_report_and_the_downloads(engine, adapter, quiz):
    chat, store = group(), house_of(engine).store

    async def host(action: HostAction) -> None:
        await engine.host(chat, action, ANN, True)
        await engine.run_due()

    assert (await engine.start(chat, quiz.id, ANN, None, hosted=True)).status is StartStatus.STARTED
    await host(HostAction.NEXT)
    assert (await engine.answer(adapter.token(adapter.right_letter(quiz), adapter.questions[-1]), BOB, chat)).accepted
    await host(HostAction.NEXT)  # closes the first question
    await host(HostAction.NEXT)  # posts the second, which the host skips
    await host(HostAction.SKIP)
    await host(HostAction.END)
    (run,) = await store.chat_runs(chat.key)

    async with serving(engine) as site:
        _, html, _ = await fetch(site.link(chat) + f"runs/{run.run_id}")
        words = text_of(html)
        assert "⏭ skipped by the host" in words  # Bob's cell of the second question
        assert "1. Question 1? 100% 1/1 2. Question 2? skipped by the host 0/1" in words  # the summary
        assert '<p class="skipped">skipped by the host</p>' in html  # the question's own section
        # Bob's cells: right at once, sooner than the question can be read, so flagged (still scored)
        assert "✓ right ⚡ faster than it can be read 0.0 s · 1,000 ⏭ skipped by the host not asked" in words
        assert "100% 1,000 0 Needs help" in words, "Bob's accuracy and questions not answered leave it out"

        status, data, _ = await download(site.link(chat) + f"runs/{run.run_id}/results.csv")
        assert status == 200
        assert [(r["question_number"], r["verdict"], r["points"]) for r in csv_rows(data)] == [
            ("1", "right", "1000"),
            ("2", "skipped_by_host", "0"),
        ]
