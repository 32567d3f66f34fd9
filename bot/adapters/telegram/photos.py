"""Pictures with questions on Telegram: which to send, and each local file uploaded once.

A question with a picture is one message: the photo, the card's text as its caption, the
buttons under it. Telegram keeps every uploaded photo and answers the upload with a file_id;
sending that id again shows the same photo without uploading it, so each file is uploaded
once per process (the ids are kept here, by path, size and modification time: a file changed
on disk is uploaded again). A URL is sent as the URL: Telegram fetches it itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from telegram import InputFile, Message

from bot.content import media as media_files
from bot.domain.model import MediaKind, MediaView

Stamp = tuple[str, int, int]  # path, size, mtime in ns


@dataclass
class PhotoIds:
    """file_ids Telegram gave this process's uploads, by file."""

    ids: dict[Stamp, str] = field(default_factory=dict)
    uploads: int = 0  # how many files were uploaded (the rest went by file_id or URL)

    async def photo(self, media: MediaView | None) -> str | InputFile | None:
        """What to send as the photo: a URL, a known file_id, or the file to upload. None: the
        question goes as text (no picture, a sound or video, or a file that cannot be shown)."""
        if media is None or media.kind is not MediaKind.IMAGE:
            return None
        if media.is_url:
            return media.location
        return await asyncio.to_thread(self._local, media)

    def _local(self, media: MediaView) -> str | InputFile | None:
        if media_files.problem(media) is not None:
            return None
        path = Path(media.location)
        stamp = _stamp(path)
        if stamp is None:
            return None
        known = self.ids.get(stamp)
        if known is not None:
            return known
        return InputFile(path.read_bytes(), filename=path.name, attach=True)

    def sent(self, media: MediaView | None, photo: str | InputFile, message: Message) -> None:
        """Keep the file_id of an upload Telegram took (its largest size: any of them reshows it)."""
        if media is None or not isinstance(photo, InputFile) or not message.photo:
            return
        stamp = _stamp(Path(media.location))
        if stamp is not None:
            self.ids[stamp] = message.photo[-1].file_id
            self.uploads += 1


def _stamp(path: Path) -> Stamp | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
