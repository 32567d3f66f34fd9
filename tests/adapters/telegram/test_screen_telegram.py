"""The big screen through Telegram: `quizhost run` (real PTB, the fake Bot API, a FakeClock) with
its web pages; /screen in the group gives the link, and the page's event stream is read raw, as
the browser's EventSource reads it, while the group plays the three-question quiz."""

from __future__ import annotations

import aiohttp

from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401 (the fixtures)
from tests.support import telegram_harness as th
from tests.support.screen_stream import following, seen, until


def settings_with_pages(fake, tmp_path, port: int):
    web = f"127.0.0.1:{port}"
    return th.settings_for(fake, tmp_path, quizhost_web_url=f"http://{web}", quizhost_web_listen=web)


async def test_a_three_question_run_streams_its_events_in_order_and_resumes_after_an_id(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    quiz = tiny(tmp_path)
    group = fake.group(-3101, "Quiz night")
    ann, bob = (th.Member(fake, group, fake.user(90 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    async with th.running_bot(fake, settings_with_pages(fake, tmp_path, unused_tcp_port_factory()), clock):
        told = await ann.says("/screen")
        assert "big screen" in told.text
        page = told.text.split()[-1]
        assert "/s/" in page
        async with following(f"{page}events") as stream:
            await ann.says("/quiz tiny")
            for number in (1, 2, 3):
                question = await th.next_question(fake, group, number)
                right = th.right_letter(question, quiz)
                (asked,) = (await seen(stream, "question", number))[number - 1 :]
                assert asked.data["number"] == number and len(asked.data["options"]) >= 3
                await ann.presses(question, right)
                await bob.presses(question, th.wrong_letter(question, quiz))
                counted = await seen(stream, "answered", 1)
                assert counted[-1].data["answered"] >= 1
                before_close = stream.raw[stream.raw.index(f"id: {asked.id}\r\n") :]  # this question's
                assert "right" not in before_close and "explanation" not in before_close, (
                    "nothing that gives the answer away is sent before the close"
                )
                clock.advance(30)
                await th.reveal_of(fake, group, question)
                closed = (await seen(stream, "closed", number))[-1]
                assert closed.data["right_letter"] == right and closed.data["number"] == number
                assert sum(closed.data["counts"]) == 2 and closed.data["top"][0]["name"] == "Ann"
            podium = (await seen(stream, "podium", 1))[0]
            assert [row["name"] for row in podium.data["standings"]] == ["Ann", "Bob"]
            events = list(stream.events)

        steps = [(e.kind, e.data.get("number")) for e in events if e.kind != "answered"]
        asked_and_closed = [(kind, n) for n in (1, 2, 3) for kind in ("question", "closed")]
        assert steps == [*asked_and_closed, ("podium", None)]
        at = {(e.kind, e.data.get("number")): i for i, e in enumerate(events) if e.kind != "answered"}
        for i, count in enumerate(events):  # each count between its question and its close
            if count.kind == "answered":
                assert at["question", count.data["number"]] < i < at["closed", count.data["number"]]
        ids = [e.id for e in events]
        assert ids == sorted(set(ids)), "ids grow, each once"

        k = next(e.id for e in events if e.kind == "closed")  # the viewer left after the first close
        async with following(f"{page}events", last_id=k) as again:
            await until(lambda: again.events and again.events[-1].kind == "podium", "the rest")
            assert [(e.id, e.kind) for e in again.events] == [(e.id, e.kind) for e in events if e.id > k]


async def test_a_new_viewer_gets_the_current_question_and_a_foreign_link_is_refused(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    quiz = tiny(tmp_path)
    group = fake.group(-3102, "Quiz night")
    ann = th.Member(fake, group, fake.user(95, "Ann"))
    async with th.running_bot(fake, settings_with_pages(fake, tmp_path, unused_tcp_port_factory()), clock):
        page = (await ann.says("/screen")).text.split()[-1]
        await ann.says("/quiz tiny")
        first = await th.next_question(fake, group, 1)
        await ann.presses(first, th.right_letter(first, quiz))
        clock.advance(30)
        await th.reveal_of(fake, group, first)
        second = await th.next_question(fake, group, 2)
        async with following(f"{page}events") as stream:  # a snapshot: the question open now
            (asked,) = await seen(stream, "question", 1)
            assert asked.data["number"] == 2 and asked.data["prompt"] in th.strip(second.text)
            assert "closed" not in [e.kind for e in stream.events]
        async with aiohttp.ClientSession() as http:
            altered = page.replace("/s/", "/s/x")
            async with http.get(f"{altered}events") as response:
                assert response.status == 403
            board_link = page.replace("/s/", "/c/")  # the same token on the other pages: not a screen's
            async with http.get(board_link) as response:
                assert response.status == 403
