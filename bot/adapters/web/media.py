"""A question's pictures on the web pages.

A picture beside the quiz file is served by the page's own signed address (the CSP allows
images from this site only), found through the quiz and the question's number, never through
a path from the address. A picture at a URL is a link: loading it inline would tell another
site who reads the page, and the page's policy keeps to its own site. A sound or video beside
the quiz is named by its file name, as in the chats: the page serves pictures only.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot.content import media as media_files
from bot.domain.answering import media_view
from bot.domain.model import Media, MediaKind, MediaView, Question, Quiz

WHICH = ("question", "explanation")  # the last part of a picture's address


@dataclass(frozen=True)
class Shown:
    """A medium as the page shows it: inline (`src` on this site), as a link (a URL), or by its
    name (a sound or video beside the quiz: its path on the server is never shown)."""

    src: str
    alt: str
    inline: bool
    kind: str
    linked: bool = True


def of(question: Question, which: str) -> Media | None:
    return question.media if which == "question" else question.explanation_media


def shown(quiz: Quiz, number: int, question: Question, lang: str, base: str) -> dict[str, Shown]:
    """The question's media for the page: by WHICH, those it has."""
    found = {}
    for which in WHICH:
        view = media_view(of(question, which), quiz, lang)
        if view is None:
            continue
        if view.is_url:
            found[which] = Shown(view.location, view.alt, False, view.kind.value)
        elif view.kind is MediaKind.IMAGE:
            found[which] = Shown(f"{base}/quizzes/{quiz.id}/media/{number}/{which}", view.alt, True, view.kind.value)
        else:
            found[which] = Shown(view.named, view.alt, False, view.kind.value, linked=False)
    return found


async def response(quiz: Quiz, number: int, which: str) -> web.StreamResponse:
    """The picture file of question `number` (1-based), or 404."""
    if which not in WHICH or not 1 <= number <= len(quiz.questions):
        raise web.HTTPNotFound()
    question = quiz.questions[number - 1]
    view = media_view(of(question, which), quiz, "en")
    if view is None or view.is_url or view.kind is not MediaKind.IMAGE:
        raise web.HTTPNotFound()
    mime = await asyncio.to_thread(_readable, view)
    if mime is None:
        raise web.HTTPNotFound()
    return web.FileResponse(Path(view.location), headers={"Content-Type": mime, "Cache-Control": "no-store"})


def _readable(view: MediaView) -> str | None:
    if media_files.problem(view) is not None:
        return None
    with Path(view.location).open("rb") as file:
        return media_files.image_type(file.read(12))
