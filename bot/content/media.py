"""A quiz's media files: whether a file beside the quiz can be shown as a picture.

`quizhost validate` reports what `problem` finds; the adapters read the same rules before they
upload a picture, and fall back to the question's text when a file is missing or unusable.
"""

from __future__ import annotations

from pathlib import Path

from bot.domain.model import MediaKind, MediaView

# Telegram's limit for a photo sent by upload; Discord's attachment limit (10 MB without boosts) is the same
IMAGE_MAX_BYTES = 10 * 1000 * 1000
# The formats Telegram shows as a photo (and Discord and browsers inline), by their first bytes
IMAGE_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}
WEBP = (b"RIFF", b"WEBP")  # RIFF, 4 bytes of size, WEBP


def image_type(head: bytes) -> str | None:
    """The MIME type of an image file from its first 12 bytes; None when it is not one we show."""
    for signature, mime in IMAGE_SIGNATURES.items():
        if head.startswith(signature):
            return mime
    if head[:4] == WEBP[0] and head[8:12] == WEBP[1]:
        return "image/webp"
    return None


def problem(media: MediaView) -> str | None:
    """Why a local picture cannot be shown (missing, too large, not an image); None when it can.
    URLs, sounds and videos are links: nothing to check here."""
    if media.is_url or media.kind is not MediaKind.IMAGE:
        return None
    path = Path(media.location)
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(12)
    except (OSError, ValueError):  # ValueError: a path no system call takes (a NUL in it)
        return f"media file {path.name} is missing beside the quiz"
    if size > IMAGE_MAX_BYTES:
        return f"media file {path.name} is {size / 1e6:.1f} MB: a picture may be at most {IMAGE_MAX_BYTES // 10**6} MB"
    if image_type(head) is None:
        return f"media file {path.name} is not a PNG, JPEG, GIF or WebP picture"
    return None
