"""A chat transcript for a person to read: what the players did and what the chat showed, in
order (tests write it as they play; KINDS_TRANSCRIPT names the file, else the test's folder)."""

from __future__ import annotations

import os
from pathlib import Path

from bot.testing.fake_telegram import Sent


def buttons_line(message: Sent) -> str:
    labels = [f"[{b['text']}]" + (" (link)" if b.get("url") else "") for b in message.buttons()]
    return " ".join(labels)


class Transcript:
    def __init__(self, title: str) -> None:
        self.lines = [f"# {title}", ""]

    def note(self, text: str) -> None:
        self.lines += [f"_{text}_", ""]

    def did(self, who: str, what: str, answer: str | None = None) -> None:
        seen = f" → they alone see: “{answer}”" if answer else ""
        self.lines += [f"- **{who}** {what}{seen}", ""]

    def shows(self, heading: str, message: Sent, with_buttons: bool = True) -> None:
        kind = f"photo {message.photo}, caption" if message.photo else "text"
        self.lines += [f"**Bot** {heading} (message {message.message_id}, {kind}):", ""]
        self.lines += ["    " + line for line in message.text.splitlines()]
        if with_buttons and message.buttons():
            self.lines += ["", f"    buttons: {buttons_line(message)}"]
        self.lines.append("")

    def write(self, default_folder: Path) -> Path:
        path = Path(os.environ.get("KINDS_TRANSCRIPT") or default_folder / "kinds-transcript.md")
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        return path
