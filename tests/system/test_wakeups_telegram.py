"""/stop in a Telegram group whose quiz another webhook worker runs, end to end: two `quizhost
run` workers on one PostgreSQL behind the fake Bot API's load balancer (each update to the next
worker in turn), so the /stop lands on the worker that does not run the quiz."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.testing.clock import FakeClock
from bot.testing.fake_telegram_balancer import LoadBalancer
from tests.support.telegram_harness import fake, next_question, running_bot, webhook_workers  # noqa: F401

pytestmark = pytest.mark.postgres
SECRET = "same_secret_everywhere"


async def test_stop_typed_on_the_worker_that_does_not_run_the_quiz_ends_it_once(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    group, ann = fake.group(-100700, "Wake-ups"), fake.user(701, "Ann")
    urls = [f"http://127.0.0.1:{unused_tcp_port_factory()}/telegram/hook" for _ in range(2)]
    fake.balancer = LoadBalancer(urls, SECRET)  # no repeats: /quiz to one worker, /stop to the other
    async with contextlib.AsyncExitStack() as stack:
        for settings in webhook_workers(fake, tmp_path, postgres_url, urls, SECRET):
            await stack.enter_async_context(running_bot(fake, settings, FakeClock()))
        await fake.send_text(group, ann, "/quiz tiny")
        question = await next_question(fake, group, 1)
        stop = await fake.send_text(group, ann, "/stop")
        await fake.wait_for(lambda: any("Quiz stopped:" in m.text for m in fake.sent_to(group)), what="the podium")
        await asyncio.sleep(0.5)  # time for a second podium or question to show, if there were one
        said = fake.sent_to(group)
        assert [m.text for m in said if m.reply_to == stop] == ["Quiz stopped by Ann. Answers so far count."]
        assert len([m for m in said if "Quiz stopped:" in m.text]) == 1
        assert question.edits, "the open question was closed"
        assert len(fake.questions(group)) == 1
    quiz_to, stop_to = (d.worker for d in fake.balancer.deliveries)
    assert quiz_to != stop_to
    await fake.balancer.close()
