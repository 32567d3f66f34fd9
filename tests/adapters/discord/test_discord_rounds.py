"""Rounds and hints of a quiz written with forms on Discord: /round and /hint are slash commands
(there are no typed lines), their replies shown to the author alone."""

from __future__ import annotations

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, visible_text
from tests.adapters.discord.test_discord_authoring import fills_form
from tests.support.discord_harness import fake, make_settings, running_bot, server  # noqa: F401


async def test_a_round_and_a_hint_given_with_slash_commands_shape_the_draft(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        started = await fake.slash(boss, channel, "newquiz", title="Capitals")
        france = {"prompt": "Capital of France?", "options": "Berlin\nParis", "right": "2"}
        await fills_form(fake, boss, channel, started, "Add question", **france)
        hinted = await fake.slash(boss, channel, "hint", what="On the Seine.")
        assert hinted["ephemeral"] and visible_text(hinted) == "Hint for question 1: On the Seine."
        begun = await fake.slash(boss, channel, "round", what="Finale x2")
        assert visible_text(begun) == "Round 2: Finale. The next questions belong to it. points ×2"
        await fills_form(
            fake, boss, channel, started, "Add question", prompt="Capital of Peru?", options="Lima\nQuito", right="1"
        )
        draft = await fake.slash(boss, channel, "newquiz")
        listed = draft["embeds"][0]["description"]
        assert "— Round 1 —\n1. Capital of France?\n— Finale —\n2. Capital of Peru?" in listed
