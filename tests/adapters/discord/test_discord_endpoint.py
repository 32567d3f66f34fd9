"""Discord over HTTP: interactions posted, signed, to the bot's endpoint instead of the gateway.

The real `quizhost run` wiring and discord.py (for REST) against the fake Discord in its
endpoint mode, which signs every interaction with a test key pair as Discord does.
"""

from __future__ import annotations

import json
import sqlite3

from nacl.signing import SigningKey

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    endpoint_settings,
    fake,
    is_question,
    right_letter,
    running_endpoint_bot,
    server,
    wrong_letter,
)
from tests.support.raw_http import Raw


async def test_a_quiz_is_played_through_the_endpoint_without_the_gateway(
    fake, clock, server, tmp_path, unused_tcp_port
):
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        choices = await fake.autocomplete(ann, channel, "quiz", focused="topic", topic="tin")
        assert choices[0]["value"] == "tiny"
        started = await fake.slash(ann, channel, "quiz", topic="tiny")
        assert not started["ephemeral"] and "Tiny Test Quiz" in started["content"] + str(started["embeds"])
        question = await fake.wait_message(channel, is_question(1))  # posted by REST, with its buttons
        locked = await fake.press(ann, question.id, button_id(question, right_letter(question)))
        assert locked["ephemeral"] and locked["content"].startswith("Locked in")
        again = await fake.press(ann, question.id, button_id(question, wrong_letter(question)))
        assert again["ephemeral"] and "already" in again["content"]
        await fake.press(bob, question.id, button_id(question, wrong_letter(question)))
        forged = await fake.press(bob, question.id, "someone-elses:button", forge=True)
        assert forged["ephemeral"] and forged["content"] == "This button is not valid."
        stopped = await fake.slash(ann, channel, "stop")
        assert "Quiz stopped by Ann" in stopped["content"]
        board = await fake.slash(bob, channel, "leaderboard", period="all")
        assert "Ann" in board["embeds"][0]["description"]
    assert fake.identifies == [], "the bot opened the gateway"
    assert all(d.status == 200 for d in fake.deliveries)
    assert fake.violations == []


async def test_settings_by_an_admin_over_http_change_the_chat(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann = fake.add_user("Ann")
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        refused = await fake.slash(ann, channel, "settings", time=20)
        assert refused["ephemeral"] and "Only chat admins" in refused["content"]
        changed = await fake.slash(boss, channel, "settings", time=20, pause=3)
        assert "20" in changed["content"] + str(changed.get("embeds"))
        picks = await fake.slash(ann, channel, "language")
        chosen = await fake.press(boss, int(picks["id"]), "quizhost:ql:hi")
        assert not chosen["ephemeral"] and "हिन्दी" in chosen["content"]
    assert fake.violations == []


async def test_only_requests_signed_by_discord_are_taken(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    ann = fake.add_user("Ann")
    db = tmp_path / "quizhost.db"
    url = f"http://127.0.0.1:{unused_tcp_port}/interactions"
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        press = fake.press_payload(ann, question.id, button_id(question, right_letter(question)))
        body = json.dumps(press).encode()
        good = fake.signed(body)
        impostor = SigningKey.generate().sign(good["X-Signature-Timestamp"].encode() + body).signature.hex()
        altered = json.dumps(
            {**press, "data": {**press["data"], "custom_id": button_id(question, wrong_letter(question))}}
        ).encode()
        refusals = {
            "bad signature": (body, {**good, "X-Signature-Ed25519": impostor}),
            "not hex": (body, {**good, "X-Signature-Ed25519": "zz" * 64}),
            "no signature": (body, {k: v for k, v in good.items() if k != "X-Signature-Ed25519"}),
            "no timestamp": (body, {k: v for k, v in good.items() if k != "X-Signature-Timestamp"}),
            "altered body": (altered, good),
            "another timestamp": (body, {**good, "X-Signature-Timestamp": str(int(good["X-Signature-Timestamp"]) + 1)}),
            "stale": (body, fake.signed(body, timestamp=int(good["X-Signature-Timestamp"]) - 3600)),
        }
        for why, (sent, headers) in refusals.items():
            status, _ = await fake.post_raw(url, sent, headers)
            assert status == 401, why
        assert answers(db) == 0, "a refused press changed something"
        assert await fake.ping(url)  # PING -> PONG, signed
        status, reply = await fake.post_raw(url, body, good)  # the genuine request, once
        assert status == 200 and json.loads(reply)["data"]["content"].startswith("Locked in")
        assert answers(db) == 1
        status, _ = await fake.post_raw(url, b"x" * (300 << 10), fake.signed(b"x" * (300 << 10)))
        assert status == 413
    assert fake.violations == []


async def test_slow_work_is_deferred_within_3_seconds_and_followed_up(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    ann = fake.add_user("Ann")
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        # /stop closes the question (an edit) before it answers; Discord holds that edit back 2.5 s
        fake.rate_limit("PATCH", rf"/messages/{question.id}$", retry_after=2.5)
        stopped = await fake.slash(ann, channel, "stop")
        assert stopped["deferred"] and "Quiz stopped by Ann" in stopped["content"]
        interaction = list(fake.interactions.values())[-1]
        assert interaction.callbacks == [{"type": 5, "data": {}}]  # the HTTP reply: "thinking…", in time
        assert interaction.followups and "Quiz stopped by Ann" in interaction.followups[0]["content"]
        assert all(b["disabled"] for b in fake.messages[question.id].buttons())
    assert fake.violations == []  # among them: any reply later than Discord's 3 s


async def test_presses_pipelined_on_one_connection_and_a_chunked_one_are_each_answered(
    fake, clock, server, tmp_path, unused_tcp_port
):
    """What a load balancer may send: requests back to back on a kept-alive connection (the
    listener's lane answers them in order) and a chunked body (left to aiohttp's route)."""
    _, channel = server
    players = [fake.add_user(name) for name in ("Ann", "Bob", "Cy")]
    db = tmp_path / "quizhost.db"
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(players[0], channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        bodies = [
            json.dumps(fake.press_payload(p, question.id, button_id(question, letter))).encode()
            for p, letter in zip(players, "ABC")
        ]
        raw = await Raw.to(unused_tcp_port)
        heads = [_head(fake.signed(body), f"Content-Length: {len(body)}") for body in bodies]
        raw.send(heads[0] + bodies[0] + heads[1] + bodies[1])  # two presses in one write
        chunked = _head(fake.signed(bodies[2]), "Transfer-Encoding: chunked")
        raw.send(chunked + b"%x\r\n%s\r\n0\r\n\r\n" % (len(bodies[2]), bodies[2]))
        replies = [await raw.response() for _ in bodies]
        raw.close()
        for (status, _, body), letter in zip(replies, "ABC"):
            reply = json.loads(body)
            assert status == 200 and reply["data"]["content"] == f"Locked in: {letter}"
            assert reply["data"]["flags"] & 64, "an acknowledgement only the presser sees"
        assert answers(db) == 3
    assert fake.violations == []


def _head(headers: dict[str, str], framing: str) -> bytes:
    fields = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"POST /interactions HTTP/1.1\r\nHost: bot\r\n{fields}{framing}\r\n\r\n".encode()


def answers(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM answers").fetchone()[0]
