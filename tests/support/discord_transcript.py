"""A channel's transcript from the fake Discord: what users did, what the bot showed one of them
alone (ephemeral), and the bot's channel messages as members see them at the end (a question
shows its reveal), in the order they came."""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from bot.testing.fake_discord import FakeDiscord
from bot.testing.fake_discord_payloads import FakeMessage, visible_text


class DiscordTranscript:
    def __init__(self, fake: FakeDiscord, channel: int) -> None:
        self.fake, self.channel = fake, channel
        self.lines: list[str | FakeMessage] = []  # a message is shown as it is when written
        self.logged: set[int] = set()

    def flush(self) -> None:
        """Log the channel's messages not logged yet."""
        for message in self.fake.channel_messages(self.channel):
            if message.id not in self.logged:
                self.logged.add(message.id)
                self.lines.append(message)

    async def step(self, who: str, did: str, action: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        """`who` does `did` (a slash command, a press); what the bot showed them alone is logged."""
        self.flush()
        self.lines.append(f"**{who}**: {did}")
        shown = await action
        if shown.get("ephemeral"):
            self.lines.append(f"  → {who} alone sees: {_indented(_shown(shown))}")
        self.flush()
        return shown

    def write(self, path: Path, heading: str, notes: list[str]) -> None:
        self.flush()
        body = "\n\n".join(
            line if isinstance(line, str) else f"**bot**: {_indented(_shown(line.data))}" for line in self.lines
        )
        path.write_text("\n".join([f"# {heading}", "", *notes, "", body, ""]), encoding="utf-8")


def _shown(data: dict[str, Any]) -> str:
    labels = [str(b.get("label", "")) for row in data.get("components", []) for b in row.get("components", [])]
    return visible_text(data) + (f"\n[buttons: {' | '.join(labels)}]" if labels else "")


def _indented(text: str) -> str:
    return text.replace("\n", "  \n    ")
