"""Pictures in Discord embeds: a URL as the embed's image, a file beside the quiz as an
attachment of the message that the embed shows (`attachment://name`).

Editing the message later (the reveal) keeps its attachments, so the revealed embed names the
same file without sending it again; a reveal posted afresh (the question was deleted) sends it.
"""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.content import media as media_files
from bot.domain.model import MediaKind, MediaView

UNSAFE = re.compile(r"[^A-Za-z0-9._-]")  # Discord's attachment:// names: plain ASCII
DESCRIPTION_LIMIT = 1024  # an attachment's description (its alt text)
FOOTER_LIMIT = 2048  # an embed footer's text


def attachment_name(media: MediaView) -> str:
    path = Path(media.location)
    return f"{UNSAFE.sub('_', path.stem)[:40] or 'picture'}{UNSAFE.sub('', path.suffix)[:6]}"


def shows(media: MediaView | None) -> bool:
    """Whether the embed can show this medium: an image URL, or a readable picture beside the quiz."""
    if media is None or media.kind is not MediaKind.IMAGE:
        return False
    return media.is_url or media_files.problem(media) is None


def add_picture(embed: discord.Embed, media: MediaView | None, upload: bool) -> discord.File | None:
    """Show `media` in `embed`; the file to send with the message when `upload` and it is local."""
    if media is None or not shows(media):
        return None
    if media.alt:  # the embed's text, for readers without the attachment's description (a URL has none)
        embed.set_footer(text=media.alt[:FOOTER_LIMIT])
    if media.is_url:
        embed.set_image(url=media.location)
        return None
    name = attachment_name(media)
    embed.set_image(url=f"attachment://{name}")
    described = media.alt[:DESCRIPTION_LIMIT] or None  # the attachment's alt text, as screen readers say it
    return discord.File(media.location, filename=name, description=described) if upload else None
