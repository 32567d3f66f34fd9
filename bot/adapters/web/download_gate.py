"""Downloads a few at a time: one per chat, and at most MAX_DOWNLOADS over all chats, so a few
admins fetching long histories cannot take the memory and threads the bot answers with. A
download that finds its turn taken is refused at once (the page says: try again in a minute)
rather than queued: an admin who clicked twice gets one file, not two in a row."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

MAX_DOWNLOADS = 2  # at once, over all chats


class Busy(Exception):
    """The chat's download, or MAX_DOWNLOADS of them, are being written just now."""


class DownloadGate:
    def __init__(self, most: int = MAX_DOWNLOADS) -> None:
        self.most = most
        self.chats: set[str] = set()  # whose download is being written

    @contextmanager
    def turn(self, chat_key: str) -> Iterator[None]:
        """The chat's turn to download, for the `with` block; Busy when there is none."""
        if chat_key in self.chats or len(self.chats) >= self.most:
            raise Busy(chat_key)
        self.chats.add(chat_key)
        try:
            yield
        finally:
            self.chats.discard(chat_key)
