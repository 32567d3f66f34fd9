"""The fake Discord's gateway events say what Discord would: a press carries the message as it
was when pressed, whatever became of it after, however its JSON is put together."""

from __future__ import annotations

import json

from bot.testing.fake_discord import FakeDiscord

BUTTON = "quizhost:qa:1:1:0"


def _question(text: str, disabled: bool = False) -> dict:
    button = {"type": 2, "style": 1, "label": "A) Yes", "custom_id": BUTTON, "disabled": disabled}
    return {
        "embeds": [{"title": "Question 1/1", "description": text}],
        "components": [{"type": 1, "components": [button]}],
    }


def test_a_press_event_is_its_payload_with_the_message_as_it_was_when_pressed():
    fake = FakeDiscord()
    channel = fake.guilds[fake.add_guild("Quiz server")]["channels"][0]
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    message = fake._store(channel, _question("Is water wet?"))
    first = fake.press_payload(ann, message.id, BUTTON)
    again = fake.press_payload(bob, message.id, BUTTON)  # the same version's JSON, made once
    fake._edit(message, _question("Is water wet? (closed)", disabled=True))
    forged = fake.press_payload(bob, message.id, "quizhost:qa:1:1:3", forge=True)
    stale = fake.press_payload(bob, message.id, BUTTON, stale=True)  # a client that missed the edit

    for payload in (first, again, forged, stale):
        event = json.loads(fake._encoded("INTERACTION_CREATE", payload))
        assert event["op"] == 0 and event["t"] == "INTERACTION_CREATE"
        assert event["d"] == json.loads(json.dumps(payload))
    shown = [json.loads(fake._encoded("INTERACTION_CREATE", p))["d"]["message"] for p in (first, stale, forged)]
    assert [m["embeds"][0]["description"] for m in shown] == ["Is water wet?"] * 2 + ["Is water wet? (closed)"]
    assert [b["custom_id"] for b in shown[2]["components"][0]["components"]] == ["quizhost:qa:1:1:3"]
    assert message.buttons()[0]["disabled"] and message.buttons()[0]["custom_id"] == BUTTON  # the forge changed nothing
    assert len(fake._message_json) == 2  # one JSON per version pressed, not one per press
