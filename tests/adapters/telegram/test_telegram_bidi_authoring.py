"""Directional controls in questions members write in the chat, through the fake Bot API: a
right-to-left override in a suggested question (a line, a poll) or in a /newquiz title is
dropped before it is kept, so the admins' listing, the draft's replies and the quiz the group
plays read as written, with no line of the bot's flipped."""

from __future__ import annotations

from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_polls import poll_json
from bot.texts.bidi import CONTROLS
from tests.adapters.telegram.test_telegram_authoring import sends_poll
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, running_bot, settings_for

RLO, RLI, RLM = "\u202e", "\u2067", "\u200f"


def has_controls(text: str) -> bool:
    return any(ch in CONTROLS for ch in text)


async def test_an_override_in_a_suggestion_or_a_draft_is_dropped(fake: FakeBotApi, clock, tmp_path):
    group = fake.group(-2301, "Club")
    ann, bob = (Member(fake, group, fake.user(2300 + i, name)) for i, name in enumerate(("Ann", "Bob"), 1))
    fake.make_admin(group, ann.user)
    bob_private = Member(fake, fake.private(bob.user), bob.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        queued = await bob.says(f"/suggest Ring{RLO}ed planet? | Mars | *Sat{RLI}urn > Ice{RLM} rings")
        assert queued.text.endswith("suggestion #1: the group's admins will decide.")
        listing = await ann.says("/suggestions")
        assert not has_controls(listing.text)
        assert "#1 · Bob: Ringed planet?" in listing.text and "✓ Saturn" in listing.text

        made = await bob_private.says(f"/newquiz Moons{RLO} and rings")
        assert not has_controls(made.text)
        assert made.text.startswith("New quiz “Moons and rings”.")
        added = await sends_poll(bob_private, poll_json(f"Lakes{RLO} of methane?", [f"Ti{RLO}tan", "Io"], 0))
        assert not has_controls(added.text)
        assert "Lakes of methane?" in added.text
