"""An assignment on Discord from /assign to the podium (real discord.py, the fake Discord, a
FakeClock): the channel's Start button opens a DM where the member plays, once; the channel
message is edited as members finish; a restart in between; the podium at the deadline; a late
start refused."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.assignments import POLL_SECONDS
from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeMessage
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)

START = "quizhost:pv:assign_1"  # the Start button: a DM, then /start assign_1 there
TO_DEADLINE = 71_200.0  # from the FakeClock's start (2023-11-14 22:13:20 UTC) to 2023-11-15 18:00 UTC


def channel_message(fake: FakeDiscord, channel: int) -> FakeMessage | None:
    return next((m for m in fake.channel_messages(channel) if "📝 Assignment" in m.text), None)


async def plays(fake: FakeDiscord, user, start: FakeMessage, right: tuple[bool, ...]) -> None:
    told = await fake.press(user, start.id, START)
    assert told["ephemeral"] and told["content"] == "I sent you a direct message: carry on there."
    dm = fake.dm_channel(user)
    intro = await fake.wait_message(dm, lambda m: "Assignment #1" in m.text)
    assert "open until 2023-11-15 18:00 UTC" in intro.text and "3 questions, 30 s each" in intro.text
    for number, is_right in enumerate(right, 1):
        q = await fake.wait_message(dm, dh.is_question(number))
        letter = dh.right_letter(q) if is_right else dh.wrong_letter(q)
        assert (await fake.press(user, q.id, dh.button_id(q, letter)))["content"] == f"Locked in: {letter}"
    await fake.wait_message(dm, lambda m: "Quiz over" in m.text)


async def edited(fake: FakeDiscord, channel: int, versions: int) -> FakeMessage:
    return await fake.wait_for(
        lambda: (m := channel_message(fake, channel)) is not None and len(m.history) > versions and m,
        what=f"edit {versions} of the assignment's message",
    )


async def test_an_assignment_in_a_channel_played_in_dms_across_a_restart(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, bob, cy = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Cy")
    settings = dh.make_settings(tmp_path, fake)
    async with dh.running_bot(fake, settings, clock):
        refused = await fake.slash(ann, channel, "assign", what="tiny until 2023-11-15 18:00")
        assert refused["ephemeral"] and refused["content"] == "Only chat admins can assign quizzes."
        bad = await fake.slash(boss, channel, "assign", what="tiny until 15.11.2023")
        assert "Give the date as YYYY-MM-DD" in bad["content"]
        created = await fake.slash(boss, channel, "assign", what="tiny until 2023-11-15 18:00")
        assert created["ephemeral"] and "Assignment #1 is open until 2023-11-15 18:00 UTC" in created["content"]
        start = await fake.wait_for(lambda: channel_message(fake, channel), what="the assignment's message")
        assert "Closes 2023-11-15 18:00 UTC (19 h 47 min left)" in start.text
        assert start.button("▶️ Start")["custom_id"] == START

        await plays(fake, ann, start, (True, False, True))
        await fake.press(ann, start.id, START)
        again = await fake.wait_message(fake.dm_channel(ann), lambda m: "played this assignment already" in m.text)
        assert "2/3 right" in again.text
        clock.advance(61)
        first = await edited(fake, channel, 1)
        assert "1 member has finished · 1 started" in first.text and "🥇 Ann:" in first.text

    async with dh.running_bot(fake, settings, clock):  # a new process on the same database
        await plays(fake, bob, start, (True, True, True))
        clock.advance(61)
        second = await edited(fake, channel, 2)
        assert "2 members have finished · 2 started" in second.text
        assert second.text.index("🥇 Bob") < second.text.index("🥈 Ann")

        clock.advance(TO_DEADLINE)
        podium = None
        for _ in range(20):  # the loop may have gone to sleep just after the last move of the clock
            podium = next((m for m in fake.channel_messages(channel) if "Assignment closed" in m.text), None)
            if podium:
                break
            await asyncio.sleep(0.1)
            clock.advance(POLL_SECONDS)
        assert podium is not None and podium.text.index("🥇 Bob") < podium.text.index("🥈 Ann")
        closed = await edited(fake, channel, 3)
        assert "Closed 2023-11-15 18:00 UTC." in closed.text and closed.buttons() == []

        await fake.press(cy, start.id, START, stale=True)  # a client still showing the button
        late = await fake.wait_message(fake.dm_channel(cy), lambda m: "Sorry, this assignment closed" in m.text)
        assert "starts are no longer taken" in late.text
        board = await fake.slash(ann, channel, "leaderboard")
        shown = str(board)
        assert "Bob" in shown and "Ann" in shown
    assert fake.violations == []


async def test_a_start_from_outside_the_server_is_refused_in_the_dm(fake, clock, server, tmp_path):
    """The Start is a button in the server's channel, which Discord shows only to the server's
    members (the fake refuses a press there from anyone else), and there is no /start command:
    pressing it in the channel is how a member joins. A Start copied (forged) onto a message in
    another server reaches the bot all the same: the bot asks Discord whether the presser is in
    the assignment's server (Get Guild Member), refuses an outsider in the DM and stores nothing."""
    guild, channel = server
    elsewhere = fake.guilds[fake.add_guild("Other server")]["channels"][0]
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, eve = fake.add_user("Ann"), fake.add_user("Eve")
    fake.leave(guild, eve)
    async with dh.running_bot(fake, dh.make_settings(tmp_path, fake), clock):
        assert "start" not in {c["name"] for synced in fake.commands.values() for c in synced}
        await fake.slash(boss, channel, "assign", what="tiny until 2023-11-15 18:00")
        start = await fake.wait_for(lambda: channel_message(fake, channel), what="the assignment's message")
        with pytest.raises(AssertionError, match="not in the server"):
            await fake.press(eve, start.id, START)  # no Discord client shows Eve that channel

        await fake.slash(eve, elsewhere, "quiz", topic="tiny")
        lure = await fake.wait_message(elsewhere, dh.is_question(1))
        told = await fake.press(eve, lure.id, START, forge=True)
        assert told["content"] == "I sent you a direct message: carry on there."
        dm = fake.dm_channel(eve)
        refused = await fake.wait_message(dm, lambda m: "for the members of" in m.text)
        assert refused.text == "This assignment is for the members of Quiz server."  # the server, not #general
        assert not [m for m in fake.channel_messages(dm) if dh.is_question(1)(m)]
        assert member_lookups(fake, eve) == [404]  # the forged Start: Discord asked, and said no

        await plays(fake, ann, start, (True, True, True))  # a member's press in the channel: played
        clock.advance(61)
        assert "1 member has finished · 1 started" in (await edited(fake, channel, 1)).text
        # a press in the assignment's own channel is a member's (Discord shows it no one else):
        # a class pressing Start together costs no Get Guild Member each, on a rate-limited route
        assert member_lookups(fake, ann) == []
    assert fake.violations == []


def member_lookups(fake: FakeDiscord, user) -> list[int]:
    """The statuses of the bot's Get Guild Member requests about `user`."""
    asked = f"/members/{user.id}"
    return [status for method, path, status in fake.requests if method == "GET" and path.endswith(asked)]
