"""A server that asks for a minimum account age (/settings min_age) keeps a younger account out
of its teams too: it could not score, and a member who never answers pulls a team's mean down,
so a fresh account could otherwise join the other team to sabotage it."""

from __future__ import annotations

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.adapters.discord.test_discord_fairplay import REFUSED_IN_HINDI
from tests.adapters.discord.test_discord_teams import lineup_message, showing
from tests.support import discord_harness as dh
from tests.support.discord_harness import fake, server  # noqa: F401  (fixtures)

DAY = 86400


async def test_a_young_account_joins_no_team_where_the_server_asks_an_age(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=clock.now() - 900 * DAY)
    young = fake.add_user("Young", locale="hi", made_at=clock.now() - 2 * DAY)
    old = fake.add_user("Old", made_at=clock.now() - 10 * DAY)
    async with dh.running_bot(fake, dh.make_settings(tmp_path, fake), clock):
        await fake.slash(boss, channel, "settings", min_age="7d")
        await fake.slash(boss, channel, "teams", what="Owls Foxes")
        posted = await fake.wait_for(lambda: lineup_message(fake, channel), what="the teams message")
        owls, foxes = (posted.button(label)["custom_id"] for label in ("1. Owls", "2. Foxes"))
        pressed = await fake.press(young, posted.id, foxes)
        assert pressed["ephemeral"] and pressed["content"] == REFUSED_IN_HINDI
        typed = await fake.slash(young, channel, "join", team=2)
        assert typed["ephemeral"] and typed["content"] == REFUSED_IN_HINDI
        assert (await fake.press(old, posted.id, owls))["content"] == "You are in team Owls."
        shown = await showing(fake, channel, "1. Owls (1): Old")
        assert "Young" not in shown.text
        await fake.slash(boss, channel, "settings", min_age="off")
        assert (await fake.press(young, posted.id, foxes))["content"] == "आप टीम Foxes में हैं।"  # in team Foxes
    assert fake.violations == []
