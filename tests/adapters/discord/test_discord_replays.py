"""The interactions endpoint as an attacker holding a request Discord signed: posted again, it
changes nothing; and a body Discord signed that is not an interaction gets 400, never 500.

The real `quizhost run` on SQLite against the fake Discord in its endpoint mode; the requests
are posted as captured (the same bytes and headers), through `fake.post_raw`.
"""

from __future__ import annotations

import copy
import json
import sqlite3

from bot.content.catalog import Catalog, default_quiz_folders
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    endpoint_settings,
    fake,
    is_question,
    letter_of,
    right_letter,
    running_endpoint_bot,
    server,
)

KINDS = Catalog.load(default_quiz_folders()).get("kinds-tour")
DEFERRED_UPDATE = {"type": 6}  # a press taken without a word, its message unchanged


def picks_of(number: int) -> list[str]:
    """The right options of the kinds tour's question `number` (a select-all-that-apply one)."""
    question = KINDS.questions[number - 1]
    return [question.options[i].get("en") for i in question.answers]


async def test_a_toggle_posted_three_times_flips_the_pick_once(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    ann = fake.add_user("Ann")
    url = f"http://127.0.0.1:{unused_tcp_port}/interactions"
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(ann, channel, "quiz", topic="kinds-tour")
        first = await fake.wait_message(channel, is_question(1))
        await fake.press(ann, first.id, button_id(first, "A"))
        clock.advance(30)
        toggles = await fake.wait_message(channel, is_question(2))
        one, other = (letter_of(toggles, text) for text in picks_of(2)[:2])
        body = json.dumps(fake.press_payload(ann, toggles.id, button_id(toggles, one))).encode()
        headers = fake.signed(body)  # one press Discord signed, caught and posted three times
        replies = [await fake.post_raw(url, body, headers) for _ in range(3)]
        assert [status for status, _ in replies] == [200, 200, 200]
        shown = [json.loads(reply) for _, reply in replies]
        assert shown[0]["data"]["content"] == f"Your picks: {one}"
        assert shown[1:] == [DEFERRED_UPDATE, DEFERRED_UPDATE], "a repeat was handled again"
        # the pick stands as the one genuine press left it: another pick adds to it
        added = await fake.press(ann, toggles.id, button_id(toggles, other))
        assert added["content"] == f"Your picks: {', '.join(sorted(one + other))}"
        command = json.dumps(fake.slash_payload(ann, channel, "stop")).encode()
        headers = fake.signed(command)
        status, stopped = await fake.post_raw(url, command, headers)
        assert status == 200 and "Quiz stopped" in json.loads(stopped)["data"]["content"]
        status, again = await fake.post_raw(url, command, headers)
        told = json.loads(again)
        assert status == 200 and told["data"]["content"] == "This was handled already."
        assert told["data"]["flags"] & 64, "told to the one who posted it alone"
    assert fake.violations == []


def malformed(good: dict) -> dict[str, bytes]:
    """Bodies a signer could send that are not interactions, each as its bytes."""

    def but(**changed: object) -> bytes:
        return json.dumps({**good, **changed}).encode()

    def without(field: str) -> bytes:
        return json.dumps({k: v for k, v in good.items() if k != field}).encode()

    deep = 100_000
    return {
        "nested 100,000 deep": b"[" * deep + b"]" * deep,
        "nested deep in a field": but(data=None)[:-1].replace(b'"data": null', b'"data": ' + b"[" * deep + b"]" * deep)
        + b"}",
        "nested objects": b'{"a":' * (deep // 3) + b"1" + b"}" * (deep // 3),  # within the 256 KB a body may be
        "a list": b"[]",
        "a string": b'"interaction"',
        "a number": b"3",
        "null": b"null",
        "empty": b"",
        "not JSON": b"{'id': 1}",
        "invalid UTF-8": but(token="x")[:-2] + b'\xff\xfe"}',
        "a lone surrogate": but(token="\ud800"),
        "no id": without("id"),
        "no type": without("type"),
        "no token": without("token"),
        "no application id": without("application_id"),
        "an id as a number": but(id=int(good["id"])),
        "an id not a snowflake": but(id="12ab"),
        "an id past 63 bits": but(id=str(1 << 63)),
        "a huge id": but(id="9" * 5_000),
        "a huge number": but(version=int("9" * 4_000)).replace(b"9" * 4_000, b"9" * 10_000),
        "a huge type": b'{"id": "1", "type": ' + b"3" * 10_000 + b', "application_id": "1", "token": "t"}',
        "a type as text": but(type="3"),
        "a type true": but(type=True),
        "an unknown type": but(type=9),
        "data a list": but(data=[good["data"]]),
        "data a string": but(data="quizhost"),
        "a custom_id as a list": but(data={**good["data"], "custom_id": [good["data"]["custom_id"]]}),
        "options a number": but(data={**good["data"], "options": 5}),
        "an option's name a list": but(data={**good["data"], "options": [{"name": ["topic"], "value": "x"}]}),
        "form rows not objects": but(data={**good["data"], "components": ["row"]}),
        "a member a string": but(member="Ann"),
        "a member with no user": but(member={"nick": "Ann"}),
        "a user id as a number": but(member={**good["member"], "user": {**good["member"]["user"], "id": 7}}),
        "a channel type as a list": but(channel={**good["channel"], "type": [0]}),
        "a channel id as a number": but(channel_id=int(good["channel_id"])),
        "a locale as a number": but(locale=7),
    }


async def test_every_malformed_signed_body_gets_400_and_the_worker_keeps_serving(
    fake, clock, server, tmp_path, unused_tcp_port
):
    _, channel = server
    ann = fake.add_user("Ann")
    url = f"http://127.0.0.1:{unused_tcp_port}/interactions"
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        press = fake.press_payload(ann, question.id, button_id(question, right_letter(question)))
        statuses = {}
        for why, body in malformed(press).items():
            statuses[why], _ = await fake.post_raw(url, body, fake.signed(body))
        assert {why: status for why, status in statuses.items() if status != 400} == {}
        assert answers(tmp_path / "quizhost.db") == 0, "a malformed body changed something"
        body = json.dumps(press).encode()
        status, reply = await fake.post_raw(url, body, fake.signed(body))  # the genuine press after them all
        assert status == 200 and json.loads(reply)["data"]["content"].startswith("Locked in")
        assert answers(tmp_path / "quizhost.db") == 1
    assert fake.violations == []


ODD_VALUES = (None, True, 0, -1, 1 << 70, 1e308, "", "x", "٣", [], [[]], {}, {"id": []})


def paths(value: object, at: tuple = ()) -> list[tuple]:
    """Every place in a payload, dicts' keys and lists' items, but the message (which nothing reads)."""
    if isinstance(value, dict):
        return [p for key, inner in value.items() if key != "message" for p in [(*at, key), *paths(inner, (*at, key))]]
    if isinstance(value, list):
        return [p for i, inner in enumerate(value) for p in [(*at, i), *paths(inner, (*at, i))]]
    return []


def replaced(payload: dict, path: tuple, new: object, fresh_id: int) -> bytes:
    changed = copy.deepcopy(payload)
    if path != ("id",):
        changed["id"] = str(fresh_id)  # each a new interaction, not a repeat
    inner = changed
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = new
    return json.dumps(changed).encode()


async def test_any_field_of_a_signed_interaction_replaced_gets_an_answer_or_400_never_a_failure(
    fake, clock, server, tmp_path, unused_tcp_port
):
    """Each field the fake sends, in a press and in a command, set to each odd value in turn:
    refused (400) or answered, never a 500 nor an answer that the handling failed."""
    _, channel = server
    ann = fake.add_user("Ann")
    url = f"http://127.0.0.1:{unused_tcp_port}/interactions"
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        question = await fake.wait_message(channel, is_question(1))
        payloads = [
            fake.press_payload(ann, question.id, button_id(question, right_letter(question))),
            fake.slash_payload(ann, channel, "leaderboard", period="all"),
        ]
        outcomes: dict[str, set] = {}
        for payload in payloads:
            for path in paths(payload):
                for new in ODD_VALUES:
                    body = replaced(payload, path, new, fake.new_id())
                    status, reply = await fake.post_raw(url, body, fake.signed(body))
                    failed = status == 200 and "Something went wrong" in reply.decode()
                    outcomes.setdefault("failed" if failed else str(status), set()).add(f"{path}={new!r}")
        print({status: len(cases) for status, cases in outcomes.items()})
        wrong = {status: sorted(cases)[:5] for status, cases in outcomes.items() if status not in ("200", "400")}
        assert wrong == {}
    assert fake.violations == []


def answers(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM answers").fetchone()[0]
