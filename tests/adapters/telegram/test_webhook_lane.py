"""Telegram's webhook served by the listener's lane (bot/adapters/listener/lane.py), end to end:
`quizhost run` with real PTB against the fake Bot API, and raw sockets where a test needs to
say exactly what goes over the connection (keep-alive, a page on the same connection, requests
that are late, too large, forged or malformed)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.adapters.listener import HEADERS, Bounds
from bot.adapters.telegram import webhook
from bot.testing.fake_telegram_balancer import LoadBalancer
from tests.adapters.telegram.test_poison_updates import press_update
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401
from tests.support.raw_http import Raw
from tests.support.telegram_harness import Member, button, next_question, right_letter, running_bot, settings_for

SECRET = "s3cret_token-1"


def post(update: dict, secret: str = SECRET, extra: str = "") -> bytes:
    body = json.dumps(update).encode()
    head = (
        "POST /telegram/hook HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
        f"X-Telegram-Bot-Api-Secret-Token: {secret}\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
    )
    return head.encode() + body


def secured(fields: dict[str, str]) -> bool:
    return all(fields.get(name.lower()) == value for name, value in HEADERS.items())


def hook_settings(fake, tmp_path, port: int, **more):
    return settings_for(
        fake,
        tmp_path,
        telegram_webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
        telegram_webhook_listen=f"127.0.0.1:{port}",
        telegram_webhook_secret=SECRET,
        telegram_webhook_answers="reply",
        **more,
    )


async def test_a_press_is_answered_in_the_webhooks_reply(fake, clock, tmp_path, unused_tcp_port):
    url = f"http://127.0.0.1:{unused_tcp_port}/telegram/hook"
    fake.balancer = LoadBalancer([url], SECRET)  # posts as Telegram does and carries out the reply's method
    group = fake.group(-1101)
    ann, bob = Member(fake, group, fake.user(111, "Ann")), Member(fake, group, fake.user(112, "Bob"))
    async with running_bot(fake, hook_settings(fake, tmp_path, unused_tcp_port), clock):
        await ann.says("/quiz tiny")
        q1 = await next_question(fake, group, 1)
        assert (await ann.presses(q1, "B")).text == "Locked in: B"
        assert (await bob.presses(q1, right_letter(q1, tiny(tmp_path)))).text.startswith("Locked in")
    assert fake.called("getUpdates") == []
    assert all(d.status == 200 for d in fake.balancer.deliveries)
    await fake.balancer.close()


async def test_keep_alive_presses_in_order_then_a_page_on_the_same_connection(
    fake,
    clock,
    tmp_path,
    unused_tcp_port_factory,
):
    hook_port, web_port = unused_tcp_port_factory(), unused_tcp_port_factory()
    settings = hook_settings(
        fake,
        tmp_path,
        hook_port,
        quizhost_web_url=f"http://127.0.0.1:{web_port}",
        quizhost_web_listen=f"127.0.0.1:{web_port}",
    )
    group = fake.group(-1102)
    ann = Member(fake, group, fake.user(121, "Ann"))
    fake.make_admin(group, ann.user)
    fake.private(ann.user)
    players = [fake.user(130 + n, f"P{n}") for n in range(3)]
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz tiny")
        q1 = await next_question(fake, group, 1)
        await ann.says("/dashboard")
        link = [m for m in fake.sent_to(fake.private(ann.user)) if "/c/" in m.text][-1].text.split()[-1]
        path = link.split(str(web_port), 1)[1]

        raw = await Raw.to(hook_port)
        presses = [
            press_update(fake, group, p, q1.message_id, button(q1, "ABC"[n])["callback_data"])
            for n, p in enumerate(players)
        ]
        raw.send(post(presses[0]))  # one, answered; then two pipelined in one write
        answers = [await raw.response()]
        raw.send(post(presses[1]) + post(presses[2]))
        answers += [await raw.response(), await raw.response()]
        for n, (status, fields, body) in enumerate(answers):
            assert status == 200 and secured(fields) and fields["content-type"] == "application/json"
            method = json.loads(body)
            assert method["method"] == "answerCallbackQuery"
            assert method["callback_query_id"] == presses[n]["callback_query"]["id"]
            assert method["text"] == f"Locked in: {'ABC'[n]}"

        raw.send(f"GET {path} HTTP/1.1\r\nHost: bot\r\n\r\n".encode())  # the pages, on the same connection
        status, fields, body = await raw.response()
        assert status == 200 and b"Leaderboard" in body and secured(fields)
        raw.send(f"GET {path} HTTP/1.1\r\nHost: bot\r\n\r\n".encode() + post(presses[0]))  # aiohttp's now
        assert (await raw.response())[0] == 200
        status, _, body = await raw.response()
        assert status == 200 and body == b""  # a repeat of an update handled already: confirmed, nothing more
        raw.close()


@pytest.fixture
def short_bounds(monkeypatch):
    bounds = Bounds(header_seconds=1.0, body_seconds=1.0, linger_seconds=0.5, connections=6)
    monkeypatch.setattr(webhook, "BOUNDS", bounds)
    return bounds


async def test_late_oversize_forged_and_malformed_requests_are_refused_and_the_lane_serves_on(
    fake,
    clock,
    tmp_path,
    unused_tcp_port,
    short_bounds,
    caplog,
):
    caplog.set_level(logging.DEBUG)
    group = fake.group(-1103)
    ann = Member(fake, group, fake.user(141, "Ann"))
    async with running_bot(fake, hook_settings(fake, tmp_path, unused_tcp_port), clock):
        slow = await Raw.to(unused_tcp_port)  # headers that never finish
        slow.send(b"POST /telegram/hook HTTP/1.1\r\nHost: bot\r\n")
        late = await Raw.to(unused_tcp_port)  # a body that never finishes
        late.send(post({"update_id": 1}).replace(b"Content-Length: 16", b"Content-Length: 900")[:-4])
        cut = [asyncio.create_task(raw.closed_within(5.0)) for raw in (slow, late)]

        big = await Raw.to(unused_tcp_port)
        big.send(post({"update_id": 2}).replace(b"Content-Length: 16", b"Content-Length: 2000000"))
        status, fields, _ = await big.response()
        assert status == 413 and secured(fields)
        forged = await Raw.to(unused_tcp_port)
        forged.send(post(fake.text_update(group, ann.user, "/quiz tiny"), secret="SECRET-guess"))
        status, fields, _ = await forged.response()
        assert status == 403 and secured(fields)
        garbled = await Raw.to(unused_tcp_port)
        garbled.send(b"POST /telegram/hook SECRET-line\x01 HTTP/1.1\r\nHost: bot\r\n\r\n")
        _, sent = await garbled.closed_within(5.0)
        head, _, _ = sent.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0].endswith(b" 400 Bad Request") and b"SECRET" not in sent
        assert all(f"{name}: {value}".encode() in head for name, value in HEADERS.items())

        (slow_seconds, slow_sent), (late_seconds, late_sent) = await asyncio.gather(*cut)
        assert slow_seconds < 3.0 and slow_sent == b"", "cut off within the header time, unanswered"
        assert late_seconds < 3.0 and late_sent.startswith(b"HTTP/1.1 408 "), "408 within the body time"
        for raw in (slow, late, big, forged, garbled):
            raw.close()
        assert "Quiz" in (await ann.says("/quiz tiny")).text  # the webhook serves on
        assert "SECRET" not in caplog.text, "no request's bytes in the log"


async def test_lane_connections_count_toward_the_cap(fake, clock, tmp_path, unused_tcp_port, short_bounds):
    group = fake.group(-1104)
    ann = Member(fake, group, fake.user(151, "Ann"))
    async with running_bot(fake, hook_settings(fake, tmp_path, unused_tcp_port), clock):
        idle = [await Raw.to(unused_tcp_port) for _ in range(short_bounds.connections)]
        await asyncio.sleep(0.2)
        turned_away = await Raw.to(unused_tcp_port)
        seconds, sent = await turned_away.closed_within(2.0)
        assert seconds < 1.0 and sent.startswith(b"HTTP/1.1 503 ")
        for raw in idle:
            raw.close()
        await asyncio.sleep(0.2)
        assert "Quiz" in (await ann.says("/quiz tiny")).text
