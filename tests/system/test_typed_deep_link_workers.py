"""A typed answer through Telegram's "Answer" deep link with two webhook workers on one
PostgreSQL behind the fake Bot API's load balancer (each update to the next worker in turn):
the `/start answer_<run>_<n>` reaches one worker and the answer message the other, both ways,
and the answer counts; one sent after its question closed is refused politely, once."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.testing.fake_telegram_balancer import LoadBalancer
from tests.support.telegram_harness import (  # noqa: F401
    Member,
    fake,
    next_question,
    reveal_of,
    running_bot,
    webhook_workers,
)

pytestmark = pytest.mark.postgres
SECRET = "same_secret_everywhere"
TYPED_QUIZ = """\
id: cities
title: "Cities"
description: "Two typed questions."
questions:
  - id: eth
    kind: typed
    prompt: "Which Swiss city has the ETH?"
    accept: ["Zurich"]
  - id: epfl
    kind: typed
    prompt: "Which Swiss city has the EPFL?"
    accept: ["Lausanne"]
"""


def deep_link(question) -> str:
    (answer,) = question.buttons()
    return "/start " + answer["url"].split("start=")[1]


async def test_the_deep_link_on_one_worker_and_the_answer_on_the_other_count(
    fake, clock, tmp_path, postgres_url, unused_tcp_port_factory
):
    group, ann_user, bob_user = fake.group(-100800, "Cities"), fake.user(801, "Ann"), fake.user(802, "Bob")
    ann, bob = Member(fake, fake.private(ann_user), ann_user), Member(fake, fake.private(bob_user), bob_user)
    fake.join(group, bob_user)  # Ann speaks in the group; Bob is a member who only reads it
    urls = [f"http://127.0.0.1:{unused_tcp_port_factory()}/telegram/hook" for _ in range(2)]
    fake.balancer = LoadBalancer(urls, SECRET)  # no repeats: strictly one worker, then the other
    async with contextlib.AsyncExitStack() as stack:
        for settings in webhook_workers(fake, tmp_path, postgres_url, urls, SECRET):
            (tmp_path / "quizzes" / "cities.yaml").write_text(TYPED_QUIZ, encoding="utf-8")
            await stack.enter_async_context(running_bot(fake, settings, clock))
        await fake.send_text(group, ann_user, "/quiz cities")  # 1: worker 1 runs the quiz
        q1 = await next_question(fake, group, 1)
        sent = await ann.says(deep_link(q1))  # 2: worker 0, which does not run it, shows it as stored
        assert "Which Swiss city has the ETH?" in sent.text and "Send your answer as a message" in sent.text
        ack = await ann.says("Zurich")  # 3: worker 1 reads what worker 0 stored
        assert ack.text == "Locked in: Zurich\n(question 1 in Cities)"

        await bob.says(deep_link(q1))  # 4: worker 0; then the question closes
        clock.advance(31)
        await reveal_of(fake, group, q1)
        assert "Ann +" in q1.text, "the answer taken through the deep link counted"
        late = await bob.says("Zurich")  # 5: worker 1
        assert late.text == "This question is closed.\n(question 1 in Cities)"
        before = len(fake.sent_to(bob.chat))
        await fake.send_text(bob.chat, bob_user, "thanks")  # 6: worker 0: forgotten, ordinary chat
        await asyncio.sleep(0.5)  # time for a reply, if there were one
        assert len(fake.sent_to(bob.chat)) == before

        q2 = await next_question(fake, group, 2)
        card = await bob.says(deep_link(q2))  # 7: worker 1, which runs the quiz, shows the question
        assert "Which Swiss city has the EPFL?" in card.text and "Send your answer as a message" in card.text
        ack = await bob.says("Lausanne")  # 8: worker 0 answers for the run worker 1 holds
        assert ack.text == "Locked in: Lausanne\n(question 2 in Cities)"
        clock.advance(31)
        await reveal_of(fake, group, q2)
        assert "Bob +" in q2.text
    workers = [d.worker for d in fake.balancer.deliveries]
    assert workers == [1, 0, 1, 0, 1, 0, 1, 0], "each update went to the other worker than the one before"
    await fake.balancer.close()
