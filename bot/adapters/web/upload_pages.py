"""The upload form of a chat's pages: a quiz file checked and previewed, then stored on confirm
(bot/content/chatquizzes.py checks it as /upload in the chat does)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.adapters.listener import within_body_time
from bot.adapters.web import figures, guard, texts
from bot.adapters.web.pages import Pages
from bot.adapters.web.spool import NotAForm, read_form
from bot.adapters.web.uploads import PendingUploads
from bot.commands.weblinks import Link, Scope
from bot.content.chatquizzes import UploadStatus
from bot.content.importers.common import MAX_FILE_BYTES, Problem
from bot.domain.model import ChatRef, Player, Question
from bot.kinds import kind_of
from bot.texts.answer_keys import answer_key
from bot.texts.i18n import shown, t

CHECKS_AT_ONCE = 4  # uploads read into memory and parsed at once; the others wait, spooled on disk


class UploadPages:
    def __init__(self, pages: Pages, uploads: Path) -> None:
        self.pages = pages
        self.source = pages.source
        self.signer = pages.signer
        self.uploads = uploads  # the folder spooled and waiting uploads are kept in
        self.pending = PendingUploads(pages.source.clock, uploads)
        self._checking = asyncio.Semaphore(CHECKS_AT_ONCE)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/c/{token}/upload", self.upload_form),
            web.post("/c/{token}/upload", self.upload_check),
            web.post("/c/{token}/upload/confirm", self.upload_confirm),
        ]

    # upload --------------------------------------------------------------------------------

    async def upload_form(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        return await self._upload_page(request, link, {})

    async def upload_check(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        try:
            form = await within_body_time(request, read_form(request, self.uploads, MAX_FILE_BYTES))
        except NotAForm:
            return await self._upload_page(request, link, {"missing": True}, HTTPStatus.BAD_REQUEST)
        with form:
            if not self.signer.form_ok(request.match_info["token"], "upload", form.fields.get("csrf", "")):
                return guard.refusal_page(request, (await self.pages.view(link.chat_key)).lang, "form")
            if not form.filename:
                return await self._upload_page(request, link, {"missing": True}, HTTPStatus.BAD_REQUEST)
            if form.too_big:  # far past the 1 MB a quiz file may have: refused as /upload does, unread
                size = max(request.content_length or 0, form.size)
                too_big = await self.source.results.chat_quizzes.check(link.chat_key, form.filename, b"", size=size)
                return await self._upload_page(request, link, {"outcome": too_big}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            async with self._checking:
                name, data = form.filename, form.data()
                outcome = await self.source.results.chat_quizzes.check(link.chat_key, name, data)
                held = self.pending.hold(link.chat_key, link.player_key, name, data) if outcome.quiz is not None else ""
        return await self._upload_page(request, link, {"name": name, "outcome": outcome, "held": held})

    async def upload_confirm(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        form = await within_body_time(request, request.post())
        token = request.match_info["token"]
        if not self.signer.form_ok(token, "confirm", str(form.get("csrf", ""))):
            return guard.refusal_page(request, (await self.pages.view(link.chat_key)).lang, "form")
        held = self.pending.take(link.chat_key, str(form.get("held", "")))
        if held is None:
            return await self._upload_page(request, link, {"gone": True}, HTTPStatus.CONFLICT)
        name, data = held
        outcome = await self.source.results.chat_quizzes.upload(_chat(link.chat_key), _player(link), name, data)
        if outcome.quiz is None or outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED):
            return await self._upload_page(request, link, {"name": name, "outcome": outcome})
        raise web.HTTPSeeOther(f"/c/{token}/quizzes?saved={outcome.quiz.id}")

    async def _upload_page(
        self, request: web.Request, link: Link, values: dict[str, Any], status: int = HTTPStatus.OK
    ) -> web.Response:
        view = await self.pages.view(link.chat_key)
        token = request.match_info["token"]
        outcome = values.get("outcome")
        if outcome:  # in the chat's language, as the chat's reply says them
            values |= {"skipped": _placed(view.lang, outcome.skipped), "problems": _placed(view.lang, outcome.problems)}
            if outcome.quiz is not None:
                values["keys"] = [_answer_key(q, view.lang) for q in outcome.quiz.questions]
        values |= {
            "U": texts.upload(view.lang),
            "csrf": self.signer.form_token(token, "upload"),
            "csrf_confirm": self.signer.form_token(token, "confirm"),
            "letters": figures.LETTERS,
        }
        return self.pages.render(request, "upload.html", view, link, values, status)


def _chat(chat_key: str) -> ChatRef:
    platform, _, chat_id = chat_key.partition(":")
    return ChatRef(platform, chat_id)


def _player(link: Link) -> Player:
    """Who uploads: the admin the link was given to (the name is kept by the chat's own updates)."""
    platform, _, user_id = link.player_key.partition(":")
    return Player(platform or "web", user_id or "admin", "")


def _answer_key(q: Question, lang: str) -> tuple[frozenset[int], str]:
    """What the admin checks before saving: the right options (marked in the list), or the answer
    of a question without options, or that a poll has none."""
    kind = kind_of(q)
    if not kind.is_scored:
        return frozenset(), t(lang, "A poll: no answer is right.")
    if not kind.has_options or not q.right_options():  # typed, numeric; an ordering's right order
        return frozenset(), t(lang, "Right answer: {text}", text=answer_key(q, lang))
    return q.right_options(), ""


def _placed(lang: str, problems: Sequence[Problem]) -> list[tuple[str, str]]:
    """(place, why) of each problem, the why in `lang`; the template writes them out escaped."""
    return [(p.where, shown(lang, p.why)) for p in problems]
