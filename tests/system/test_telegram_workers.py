"""Several Telegram workers on one PostgreSQL, in one test process: an update Telegram posts
again to another worker is handled once, and a second long-polling worker refuses to start."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.app.wiring import POLLING_TAKEN, run
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram_balancer import LoadBalancer
from tests.support.telegram_harness import fake, running_bot, settings_for, webhook_workers  # noqa: F401

pytestmark = pytest.mark.postgres
SECRET = "same_secret_everywhere"


async def test_updates_delivered_twice_to_two_webhook_workers_are_handled_once(
    fake, tmp_path, postgres_url, unused_tcp_port_factory
):
    group, ann = fake.group(-100500, "Workers"), fake.user(501, "Ann")
    urls = [f"http://127.0.0.1:{unused_tcp_port_factory()}/telegram/hook" for _ in range(2)]
    workers = webhook_workers(fake, tmp_path, postgres_url, urls, SECRET)
    # every update goes to both workers: at the same moment, or again after the first answered
    fake.balancer = LoadBalancer(urls, SECRET, repeat=1.0, seed=3)
    async with contextlib.AsyncExitStack() as stack:
        for settings in workers:
            await stack.enter_async_context(running_bot(fake, settings, FakeClock()))
        typed = [
            await fake.send_text(group, ann, text)
            for text in ("/quiz tiny", "/leaderboard", "/help", "/leaderboard week", "/quiz tiny")
        ]
        await fake.wait_for(
            lambda: len([m for m in fake.sent_to(group) if m.reply_to]) >= len(typed), what="a reply to every command"
        )
        await asyncio.sleep(0.5)  # time for a second handling to show, if there were one
        replies = [m.reply_to for m in fake.sent_to(group) if m.reply_to is not None]
        assert sorted(replies) == typed
        assert len(fake.questions(group)) == 1
    deliveries = fake.balancer.deliveries
    assert all(d.status == 200 for d in deliveries)
    for update_id in {d.update_id for d in deliveries}:  # both workers had each one
        assert sorted(d.worker for d in fake.balancer.delivered(update_id)) == [0, 1]
    await fake.balancer.close()


async def test_a_second_polling_worker_refuses_to_start_in_one_line(fake, tmp_path, postgres_url, capsys):
    first = settings_for(fake, tmp_path, quizhost_db=postgres_url, quizhost_worker="first")
    second = settings_for(fake, tmp_path, quizhost_db=postgres_url, quizhost_worker="second")
    async with running_bot(fake, first, FakeClock()):
        assert await asyncio.wait_for(run(second, clock=FakeClock()), 30) == 2
        assert capsys.readouterr().err.strip() == POLLING_TAKEN
        group, ann = fake.group(-100600, "Still polling"), fake.user(601, "Ann")
        await fake.send_text(group, ann, "/quiz tiny")
        await fake.wait_for(lambda: fake.questions(group), what="the first worker to go on")

    # the first one stopped: its lock went with it, and the next polling worker starts
    async with running_bot(fake, second, FakeClock()):
        pass
