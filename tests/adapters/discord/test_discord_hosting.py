"""A hosted game on Discord: the reply to /host is the host's panel, shown to the host alone,
whose buttons pace the game as the commands do; through the gateway and the HTTP endpoint."""

from __future__ import annotations

import pytest

from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    endpoint_settings,
    fake,
    is_question,
    make_settings,
    right_letter,
    running_bot,
    running_endpoint_bot,
    server,
)


def panel_id(shown: dict, label: str) -> str:
    buttons = [c for row in shown.get("components", []) for c in row.get("components", [])]
    return next(b["custom_id"] for b in buttons if b.get("label") == label)


@pytest.mark.parametrize("over", ["gateway", "endpoint"])
async def test_the_host_paces_a_game_with_the_ephemeral_panel(fake, clock, server, tmp_path, unused_tcp_port, over):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann = fake.add_user("Ann")
    if over == "gateway":
        bot = running_bot(fake, make_settings(tmp_path, fake), clock)
    else:
        bot = running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock)
    async with bot:
        refused = await fake.slash(ann, channel, "host", topic="tiny")
        assert refused["ephemeral"] and "Only a chat admin" in refused["content"]
        shown = await fake.slash(boss, channel, "host", topic="tiny")
        assert shown["ephemeral"] and "Hosted by Boss" in shown["embeds"][0]["description"]
        panel = shown["id"]
        pressed = await fake.press(boss, int(panel), panel_id(shown, "Next"))
        assert pressed["ephemeral"] and pressed["content"] == "Next."
        question = await fake.wait_message(channel, is_question(1))
        paused = await fake.press(boss, int(panel), panel_id(shown, "Pause"))
        assert paused["content"].startswith("Paused")
        refused = await fake.press(ann, question.id, button_id(question, right_letter(question)))
        assert "paused" in refused["content"]
        assert "Only the host" in (await fake.press(ann, int(panel), panel_id(shown, "End")))["content"]
        ended = await fake.press(boss, int(panel), panel_id(shown, "End"))
        assert ended["content"] == "The game is over."
    assert fake.violations == []
