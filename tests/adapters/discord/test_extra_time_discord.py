"""Extra time on Discord (real discord.py, the fake Discord, a FakeClock): an admin gives a member
×2 on an assignment with a mention in /assign's words (`<@id>`, as Discord writes a member picked
there); in the DM their 20 s question shows 40 s, an answer at 35 s is taken, one at 41 s is not,
and the same share of the window earns what a ×1 member earns at that share of 20 s. The rule
outlives a restart; `/settings extra` gives a standing one, listed in /settings."""

from __future__ import annotations

from pathlib import Path

from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeMessage
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)

START = "quizhost:pv:assign_1"
UNTIL = "tiny until 2023-11-15 18:00"


async def question(fake: FakeDiscord, user, number: int, db: Path) -> FakeMessage:
    """Question `number` in the user's DM, once shown: its clock runs from the moment it is stored."""
    asked = await fake.wait_message(fake.dm_channel(user), dh.is_question(number))
    await dh.question_stored(db, asked.id)
    return asked


async def closed(fake: FakeDiscord, message: FakeMessage) -> FakeMessage:
    return await fake.wait_for(lambda: not message.buttons() and message, what=f"question {message.id} closed")


async def answered(fake: FakeDiscord, clock, user, number: int, after: float, db: Path) -> str:
    """Answer question `number` right, `after` seconds after it is shown; its reveal's text."""
    asked = await question(fake, user, number, db)
    clock.advance(after)
    letter = dh.right_letter(asked)
    assert (await fake.press(user, asked.id, dh.button_id(asked, letter)))["content"] == f"Locked in: {letter}"
    return (await closed(fake, asked)).text


async def test_a_member_with_double_time_on_an_assignment(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    settings = dh.make_settings(tmp_path, fake)
    db = settings.quizhost_db
    async with dh.running_bot(fake, settings, clock):
        await fake.slash(boss, channel, "settings", time=20)
        refused = await fake.slash(boss, channel, "assign", what=f"{UNTIL} extra <@{ann.id}> 3x")
        assert "Extra time is 1.5x or 2x" in refused["content"]
        created = await fake.slash(boss, channel, "assign", what=f"{UNTIL} extra <@{ann.id}> 2x")
        assert f"<@{ann.id}> has ×2 time on each question of this assignment." in created["content"]
        start = await fake.wait_for(
            lambda: next((m for m in fake.channel_messages(channel) if "📝 Assignment" in m.text), None),
            what="the assignment's message",
        )

    async with dh.running_bot(fake, settings, clock):  # the rule is stored
        await fake.press(ann, start.id, START)
        intro = await fake.wait_message(fake.dm_channel(ann), lambda m: "Assignment #1" in m.text)
        assert "Your extra time: ×2." in intro.text and "3 questions, 40 s each" in intro.text
        assert "40 seconds to answer" in (await question(fake, ann, 1, db)).text
        assert "Ann +562 (35.0 s)" in await answered(fake, clock, ann, 1, 35.0, db)
        second = await question(fake, ann, 2, db)
        late = dh.button_id(second, dh.right_letter(second))
        clock.advance(41.0)  # past her 40 s
        await closed(fake, second)
        assert (await fake.press(ann, second.id, late, stale=True))["content"] == "This question is closed."

        await fake.press(bob, start.id, START)
        intro = await fake.wait_message(fake.dm_channel(bob), lambda m: "Assignment #1" in m.text)
        assert "Your extra time" not in intro.text
        assert "20 seconds to answer" in (await question(fake, bob, 1, db)).text
        assert "Bob +562 (17.5 s)" in await answered(fake, clock, bob, 1, 17.5, db)  # Ann's share of her window

        shown = await fake.slash(boss, channel, "settings", extra=f"<@{bob.id}> 1.5x")
        assert f"Extra time in assignments and private play: <@{bob.id}> ×1.5" in str(shown)
        unnamed = await fake.slash(boss, channel, "settings", extra="2x")
        assert "Name one member" in unnamed["content"]
    assert fake.violations == []
