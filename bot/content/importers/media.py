"""Pictures and sounds found in a source's texts: kept as a question's media when they are
http(s) URLs, reported when they are not (a file in the source tool's own storage, such as
Moodle's `@@PLUGINFILE@@/…`, is not in the exported file, so nothing can bring it along)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

from bot.content.importers.common import Collector, Medium
from bot.content.importers.markup import Found
from bot.texts.i18n import Later, later

MediumKind = Literal["image", "audio", "video"]


def is_url(src: str) -> bool:
    return src.strip().casefold().startswith(("http://", "https://"))


def medium(found: Found) -> Medium:
    kind = cast(MediumKind, found.kind)
    # an image needs no kind (the default); a sound's or video's URL may not end in its extension
    return Medium(found.src.strip(), None if kind == "image" else kind, found.alt.strip())


def kept_medium(found: Sequence[Found], where: str, what: Later, report: Collector) -> Medium | None:
    """The first medium that can be kept; every other one is reported (the question stays)."""
    kept: Medium | None = None
    for item in found:
        if kept is None and is_url(item.src):
            kept = medium(item)
        elif is_url(item.src):
            report.note(
                where, later("{what}: only the first picture or sound is kept, not {src}", what=what, src=item.src)
            )
        else:
            report.note(
                where,
                later(
                    "{what}: {src} is stored inside the source tool, not in this file: it cannot be kept",
                    what=what,
                    src=item.src[:80],
                ),
            )
    return kept
