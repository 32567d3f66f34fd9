"""A gateway event discord.py cannot read harms only itself: the bot starts a new gateway
session and every other server's quiz goes on.

The real `quizhost run` wiring and discord.py against the fake Discord, whose gateway sends
the broken events exactly as given. Before, discord.py's parser raised out of
`Client.connect` (KeyError: 'data' for a press without data) and `quizhost run` ended."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import FakeUser, now_iso
from tests.support.discord_harness import button_id, fake, is_question, make_settings, right_letter, running_bot  # noqa: F401


def two_servers(fake: FakeDiscord) -> tuple[int, int, int, int]:
    """Servers A and B, one channel each: (A, A's channel, B, B's channel)."""
    a, b = fake.add_guild("A", channels=("quiz",)), fake.add_guild("B", channels=("quiz",))
    return a, fake.guilds[a]["channels"][0], b, fake.guilds[b]["channels"][0]


async def reconnected(fake: FakeDiscord, sessions: int) -> None:
    """The bot identified its `sessions`-th gateway session and listens on it."""
    await fake.wait_for(
        lambda: len(fake.identifies) >= sessions and fake.connected_shards, 30, f"gateway session {sessions}"
    )


def gateway_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    caplog.clear()  # the expected errors: the harness fails a test on any other
    return errors


async def test_a_press_without_data_costs_one_gateway_session_not_any_quiz(fake, clock, tmp_path, caplog):
    a, channel_a, _, channel_b = two_servers(fake)
    ann, bob, cy = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Cy")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(ann, channel_a, "quiz", topic="tiny")
        await fake.slash(bob, channel_b, "quiz", topic="tiny")
        qa = await fake.wait_message(channel_a, is_question(1))
        qb = await fake.wait_message(channel_b, is_question(1))
        assert (await fake.press(bob, qb.id, button_id(qb, right_letter(qb))))["content"].startswith("Locked in")

        broken = fake.press_payload(ann, qa.id, button_id(qa, right_letter(qa)))
        del broken["data"]  # discord.py reads data["custom_id"] of every button press
        fake.push_raw("INTERACTION_CREATE", broken, a)
        await reconnected(fake, 2)

        # B's quiz goes on: a new press is answered, and the one before the break still counts
        assert (await fake.press(cy, qb.id, button_id(qb, right_letter(qb))))["content"].startswith("Locked in")
        # and A's too: Ann presses again, as a player whose press failed would
        assert (await fake.press(ann, qa.id, button_id(qa, right_letter(qa))))["content"].startswith("Locked in")
        clock.advance(30)
        reveal_b = await fake.wait_message(channel_b, lambda m: "Right answer" in m.text)
        assert "Bob +" in reveal_b.text and "Cy +" in reveal_b.text
        reveal_a = await fake.wait_message(channel_a, lambda m: "Right answer" in m.text)
        assert "Ann +" in reveal_a.text
        await fake.wait_message(channel_b, is_question(2))
        await fake.wait_message(channel_a, is_question(2))

    [error] = gateway_errors(caplog)
    assert "INTERACTION_CREATE #" in error and f"(id {broken['id']})" in error and "KeyError" in error, error
    assert broken["token"] not in caplog.text
    assert len(fake.syncs) == 2  # the commands synced once per server, not again for the new session
    assert fake.violations == []


def broken_events(fake: FakeDiscord, user: FakeUser, a: int, channel_a: int) -> list[tuple[str, Any]]:
    """Events discord.py's parsers raise on, each in server A."""
    press = fake.interaction_payload(user, channel_a, 3, "not an object")  # type: ignore[arg-type]
    message = {
        "id": str(fake.new_id()),
        "channel_id": str(channel_a),
        "guild_id": str(a),
        "type": 0,
        "author": "not an object",
        "content": "hi",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "tts": False,
        "mention_everyone": False,
        "flags": 0,
    }
    server = {
        "id": str(fake.new_id()),
        "name": "Half a server",
        "unavailable": False,
        "channels": [{"id": str(fake.new_id()), "name": "no-type"}],
    }  # a channel without its type
    return [("INTERACTION_CREATE", press), ("MESSAGE_CREATE", message), ("GUILD_CREATE", server)]


async def test_each_unreadable_event_is_skipped_and_the_next_press_is_answered(fake, clock, tmp_path, caplog):
    a, channel_a, _, channel_b = two_servers(fake)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(bob, channel_b, "quiz", topic="tiny")
        qb = await fake.wait_message(channel_b, is_question(1))
        events = broken_events(fake, ann, a, channel_a)
        for sessions, (event, payload) in enumerate(events, start=2):
            fake.push_raw(event, payload, a)
            await reconnected(fake, sessions)
            player = fake.add_user(f"After {event}")
            assert (await fake.press(player, qb.id, button_id(qb, "B")))["content"] == "Locked in: B"
        clock.advance(30)
        revealed = await fake.wait_message(channel_b, lambda m: "Right answer" in m.text)
        # the split in the reveal (the question's edit): a press after each new session, each counted once
        assert revealed.id == qb.id and re.search(r"^B 3 [▓░]{10}$", revealed.text, re.M), revealed.text

    errors = gateway_errors(caplog)
    assert len(errors) == len(events)
    for (event, _), error in zip(events, errors, strict=True):
        assert f"could not read {event} #" in error, error
    assert fake.violations == []
