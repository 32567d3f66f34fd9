"""Teams on Discord (real discord.py, the fake Discord, a FakeClock), on the gateway and on the
interactions endpoint: an admin's /teams posts the join buttons, members join (and /join by
typing), the message is edited, the quiz locks it, reveals and the podium show the teams."""

from __future__ import annotations

from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeMessage
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)


def lineup_message(fake: FakeDiscord, channel: int) -> FakeMessage | None:
    return next((m for m in fake.channel_messages(channel) if "👥 Teams" in m.text), None)


async def showing(fake: FakeDiscord, channel: int, text: str) -> FakeMessage:
    return await fake.wait_for(
        lambda: (m := lineup_message(fake, channel)) is not None and text in m.text and m,
        what=f"the teams message showing {text!r}",
    )


async def two_teams_play(fake: FakeDiscord, clock, channel: int) -> None:
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, bob, cy = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Cy")
    refused = await fake.slash(ann, channel, "teams", what="2")
    assert refused["ephemeral"] and refused["content"] == "Only chat admins can set up teams."
    opened = await fake.slash(boss, channel, "teams", what="Owls Foxes sum")
    assert "press a team above to join it" in opened["content"]
    posted = await fake.wait_for(lambda: lineup_message(fake, channel), what="the teams message")
    assert "A team scores the sum of its members' points." in posted.text
    owls, foxes = (posted.button(label)["custom_id"] for label in ("1. Owls", "2. Foxes"))
    joined = await fake.press(ann, posted.id, owls)
    assert joined["ephemeral"] and joined["content"] == "You are in team Owls."
    await fake.press(bob, posted.id, foxes)
    typed = await fake.slash(cy, channel, "join", team=2)
    assert typed["ephemeral"] and typed["content"] == "You are in team Foxes."
    await showing(fake, channel, "2. Foxes (2): Bob, Cy")
    forged = await fake.press(cy, posted.id, "quizhost:tj:999:1", forge=True)
    assert forged["ephemeral"] and "These teams are gone" in forged["content"]

    await fake.slash(boss, channel, "quiz", topic="tiny")
    q1 = await fake.wait_message(channel, dh.is_question(1))
    assert (await showing(fake, channel, "The teams are locked")).buttons() == []
    late = await fake.press(cy, posted.id, owls, stale=True)
    assert "The teams are locked" in late["content"]
    for user in (ann, bob, cy):
        await fake.press(user, q1.id, dh.button_id(q1, dh.right_letter(q1)))
    clock.advance(30)
    revealed = await fake.wait_for(lambda: "Teams:" in q1.text and q1, what="the reveal with the teams")
    assert "🥇 Foxes: " in revealed.text  # under sum, two right answers beat one
    await fake.slash(boss, channel, "stop")
    podium = await fake.wait_message(channel, lambda m: "Quiz stopped" in m.text and "Players:" in m.text)
    assert podium.text.index("🥇 Foxes") < podium.text.index("🥈 Owls") < podium.text.index("Players:")


async def test_two_teams_on_the_gateway(fake, clock, server, tmp_path):
    _, channel = server
    async with dh.running_bot(fake, dh.make_settings(tmp_path, fake), clock):
        await two_teams_play(fake, clock, channel)
    assert fake.violations == []


async def test_two_teams_on_the_interactions_endpoint(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    async with dh.running_endpoint_bot(fake, dh.endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        await two_teams_play(fake, clock, channel)
    assert fake.identifies == [], "the bot opened the gateway"
    assert fake.violations == []
