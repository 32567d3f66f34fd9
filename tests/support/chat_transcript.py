"""A chat transcript from the fake Bot API: what users did, and the bot's messages as members
see them at the end (a question shows its reveal), in the order they came."""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

from bot.testing.fake_telegram import FakeBotApi, Sent

T = TypeVar("T")


class Transcript:
    def __init__(self, fake: FakeBotApi) -> None:
        self.fake = fake
        self.lines: list[tuple[str, str, str | Sent]] = []  # (chat name, who, text or the bot's message)
        self.logged: set[tuple[int, int]] = set()
        self.chats: dict[int, str] = {}
        self.sent_by: dict[str, int] = {}  # who -> how many messages they sent

    def chat(self, chat: dict, name: str) -> None:
        self.chats[chat["id"]] = name

    def flush(self) -> None:
        """Log the bot's messages not logged yet, chat by chat."""
        for chat_id, name in self.chats.items():
            for sent in self.fake.sent_to({"id": chat_id}):
                if (chat_id, sent.message_id) not in self.logged:
                    self.logged.add((chat_id, sent.message_id))
                    self.lines.append((name, "bot", sent))

    async def step(self, chat: dict, who: str, did: str, action: Awaitable[T], message: bool = True) -> T:
        """`who` does `did` in `chat` (a message they send unless `message` is False: a press)."""
        self.flush()
        self.lines.append((self.chats[chat["id"]], who, did))
        if message:
            self.sent_by[who] = self.sent_by.get(who, 0) + 1
        result = await action
        self.flush()
        return result

    def write(self, path: Path, heading: str, notes: list[str]) -> None:
        self.flush()
        out = [f"# {heading}", "", *notes, ""]
        current = ""
        for chat, who, what in self.lines:
            if chat != current:
                out += ["", f"## {chat}", ""]
                current = chat
            if isinstance(what, Sent):
                out.append(f"**bot**: {_shown(what)}")
            else:
                out.append(f"**{who}**: {what}")
            out.append("")
        path.write_text("\n".join(out), encoding="utf-8")


def _shown(sent: Sent) -> str:
    text = sent.text.replace("\n", "  \n    ")
    buttons = [b["text"] + (f" → {b['url']}" if "url" in b else "") for b in sent.buttons()]
    keys = [
        b["text"] + (" (poll composer: quiz)" if "request_poll" in b else "") for r in sent.reply_keyboard for b in r
    ]
    extra = (f"  \n    [buttons: {' | '.join(buttons)}]" if buttons else "") + (
        f"  \n    [keyboard: {' | '.join(keys)}]" if keys else ""
    )
    return text + extra
