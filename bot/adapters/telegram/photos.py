"""Pictures with questions on Telegram: which to send, and each local file uploaded once.

A question with a picture is one message: the photo, the card's text as its caption, the
buttons under it. Telegram keeps every uploaded photo and answers the upload with a file_id;
sending that id again shows the same photo without uploading it. The ids are kept in memory
by file (path, size, modification time: a file changed on disk is uploaded again) and in the
store by the file's content digest, so every worker on the database and the next start reuse
them too. A URL is sent as the URL: Telegram fetches it itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

from telegram import InputFile, Message

from bot.content import media as media_files
from bot.domain.model import MediaKind, MediaView
from bot.ports.store import PlatformMedia

log = logging.getLogger("quizhost.telegram")

PLATFORM = "telegram"
Stamp = tuple[str, int, int]  # path, size, mtime in ns


@dataclass
class Local:
    """A picture beside a quiz as this process knows it: its digest, and its file_id once known."""

    digest: str
    file_id: str | None = None


@dataclass
class PhotoIds:
    """file_ids of uploaded pictures: this process's, and the store's (set when the bot serves)."""

    store: PlatformMedia | None = None
    keeping: set[asyncio.Task[None]] = field(default_factory=set)  # file_ids being stored
    known: dict[Stamp, Local] = field(default_factory=dict)
    stale: set[str] = field(default_factory=set)  # file_ids Telegram said it does not know
    uploads: int = 0  # how many files this process uploaded (the rest went by file_id or URL)

    async def photo(self, media: MediaView | None) -> str | InputFile | None:
        """What to send as the photo: a URL, a known file_id, or the file to upload. None: the
        question goes as text (no picture, a sound or video, or a file that cannot be shown)."""
        if media is None or media.kind is not MediaKind.IMAGE:
            return None
        if media.is_url:
            return media.location
        found = await asyncio.to_thread(self._local, media)
        if found is None:
            return None
        stamp, local = found
        if local.file_id is None and self.store is not None:
            kept = await self.store.media_file_id(PLATFORM, local.digest)
            local.file_id = kept if kept not in self.stale else None
        if local.file_id is not None:
            return local.file_id
        return await asyncio.to_thread(_upload, Path(stamp[0]))

    def _local(self, media: MediaView) -> tuple[Stamp, Local] | None:
        if media_files.problem(media) is not None:
            return None
        path = Path(media.location)
        stamp = _stamp(path)
        if stamp is None:
            return None
        if stamp not in self.known:
            self.known[stamp] = Local(hashlib.sha256(path.read_bytes()).hexdigest())
        return stamp, self.known[stamp]

    def refused(self, media: MediaView | None, photo: str | InputFile) -> bool:
        """Telegram refused `photo`: True when it was a file_id of a file beside the quiz, which
        is forgotten so the file goes up again; False when nothing else can be tried."""
        if media is None or media.is_url or not isinstance(photo, str):
            return False
        self.stale.add(photo)
        for local in self.known.values():
            if local.file_id == photo:
                local.file_id = None
        return True

    async def sent(self, media: MediaView | None, photo: str | InputFile, message: Message) -> None:
        """Keep the file_id of an upload Telegram took (its largest size: any of them reshows it)."""
        if media is None or not isinstance(photo, InputFile) or not message.photo:
            return
        stamp = _stamp(Path(media.location))
        local = self.known.get(stamp) if stamp is not None else None
        if local is None:
            return
        local.file_id = message.photo[-1].file_id
        self.uploads += 1
        if self.store is not None:  # kept for the other workers without holding up the question's clock
            task = asyncio.create_task(self._keep(self.store, local.digest, local.file_id))
            self.keeping.add(task)
            task.add_done_callback(self.keeping.discard)

    async def _keep(self, store: PlatformMedia, digest: str, file_id: str) -> None:
        try:
            await store.keep_media_file_id(PLATFORM, digest, file_id)
        except Exception:  # this process still knows it: only another worker uploads the file once more
            log.exception("keeping the file_id of a picture failed")


def _upload(path: Path) -> InputFile:
    return InputFile(path.read_bytes(), filename=path.name, attach=True)


def _stamp(path: Path) -> Stamp | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
