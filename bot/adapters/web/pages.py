"""The web pages of a chat: leaderboard, run history, quizzes and questions, upload.

Every page is server-rendered HTML (Jinja2 through aiohttp-jinja2, autoescaped: player names
and quiz texts are escaped everywhere) and works without JavaScript.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from bot.adapters.listener import within_body_time
from bot.adapters.web import figures, guard, texts
from bot.adapters.web.charts import split_chart
from bot.adapters.web.spool import NotAForm, read_form
from bot.adapters.web.uploads import PendingUploads
from bot.commands.weblinks import Link, LinkSigner, Refusal, Scope
from bot.content.chatquizzes import UploadStatus
from bot.content.export import quiz_yaml
from bot.content.importers.common import MAX_FILE_BYTES, Problem
from bot.domain.model import ChatRef, Player
from bot.engine.core import Engine
from bot.texts import bidi
from bot.texts.i18n import normalise, shown

PERIODS = ("all", "month", "week")
CHECKS_AT_ONCE = 4  # uploads read into memory and parsed at once; the others wait, spooled on disk


class Pages:
    def __init__(self, engine: Engine, signer: LinkSigner, uploads: Path) -> None:
        self.engine = engine
        self.store = figures.store_of(engine)
        self.signer = signer
        self.uploads = uploads  # the folder spooled and waiting uploads are kept in
        self.pending = PendingUploads(engine.clock, uploads)
        self._checking = asyncio.Semaphore(CHECKS_AT_ONCE)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.home),
            web.get("/c/{token}/", self.board),
            web.get("/c/{token}/runs", self.runs),
            web.get("/c/{token}/quizzes", self.quizzes),
            web.get("/c/{token}/quizzes/{quiz_id}", self.quiz),
            web.get("/c/{token}/quizzes/{quiz_id}/file", self.quiz_file),
            web.get("/c/{token}/upload", self.upload_form),
            web.post("/c/{token}/upload", self.upload_check),
            web.post("/c/{token}/upload/confirm", self.upload_confirm),
        ]

    # the pages ---------------------------------------------------------------------------

    async def home(self, request: web.Request) -> web.Response:
        lang = self.engine.settings.default_language
        return self._page(request, "home.html", lang, None, {"text": texts.refused(lang)["home"]})

    async def board(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.BOARD)
        if isinstance(link, web.Response):
            return link
        lang = await self._language(link.chat_key)
        period = request.query.get("period", "all")
        period = period if period in PERIODS else "all"
        played = await figures.played_quizzes(self.engine, link.chat_key)
        quiz_id = request.query.get("quiz") or None
        quiz = next((q for q in played if q.id == quiz_id), None)
        rows = await figures.board(self.engine, link.chat_key, period, quiz.id if quiz else None)
        return self._page(
            request,
            "board.html",
            lang,
            link,
            {
                "B": texts.board(lang),
                "periods": PERIODS,
                "period": period,
                "rows": rows,
                "played": played,
                "quiz": quiz,
                "me": link.player_key,
            },
        )

    async def runs(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        lang = await self._language(link.chat_key)
        lines = await figures.run_lines(self.engine, link.chat_key, lang)
        return self._page(request, "runs.html", lang, link, {"R": texts.runs(lang), "lines": lines})

    async def quizzes(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        lang = await self._language(link.chat_key)
        own = {q.id for q in await self.engine.chat_quizzes.all(link.chat_key)}
        played = await figures.played_quizzes(self.engine, link.chat_key)
        return self._page(
            request,
            "quizzes.html",
            lang,
            link,
            {
                "Q": texts.questions(lang),
                "played": played,
                "own": own,
                "saved": request.query.get("saved"),
                "saved_text": texts.upload(lang)["saved"],
            },
        )

    async def quiz(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        lang = await self._language(link.chat_key)
        quiz = await figures.quiz_of(self.engine, link.chat_key, request.match_info["quiz_id"])
        if quiz is None:
            raise web.HTTPNotFound()
        rows = []
        for item in await figures.question_figures(self.engine, link.chat_key, quiz):
            options = [o.get(lang) for o in item.question.options]
            flags = [
                texts.flag(lang, note.flag, figures.LETTERS[note.option] if note.option is not None else "")
                for note in item.stats.flags
            ]
            rows.append(
                {
                    "item": item,
                    "options": options,
                    "flags": flags,
                    "chart": split_chart(figures.LETTERS, options, item.stats.split, item.question.answer),
                }
            )
        return self._page(request, "quiz.html", lang, link, {"Q": texts.questions(lang), "quiz": quiz, "rows": rows})

    async def quiz_file(self, request: web.Request) -> web.Response:
        """The quiz as its YAML file (`quizhost export --format yaml`): one written in the chat too."""
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        quiz = await figures.quiz_of(self.engine, link.chat_key, request.match_info["quiz_id"])
        if quiz is None:
            raise web.HTTPNotFound()
        return web.Response(
            text=quiz_yaml(quiz, "en"),
            content_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="{quiz.id}.yaml"'},  # an id: [a-z0-9-]
        )

    # upload --------------------------------------------------------------------------------

    async def upload_form(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        return await self._upload_page(request, link, {})

    async def upload_check(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        try:
            form = await within_body_time(request, read_form(request, self.uploads, MAX_FILE_BYTES))
        except NotAForm:
            return await self._upload_page(request, link, {"missing": True}, HTTPStatus.BAD_REQUEST)
        with form:
            if not self.signer.form_ok(request.match_info["token"], "upload", form.fields.get("csrf", "")):
                return guard.refusal_page(request, await self._language(link.chat_key), "form")
            if not form.filename:
                return await self._upload_page(request, link, {"missing": True}, HTTPStatus.BAD_REQUEST)
            if form.too_big:  # far past the 1 MB a quiz file may have: refused as /upload does, unread
                size = max(request.content_length or 0, form.size)
                too_big = await self.engine.chat_quizzes.check(link.chat_key, form.filename, b"", size=size)
                return await self._upload_page(request, link, {"outcome": too_big}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            async with self._checking:
                name, data = form.filename, form.data()
                outcome = await self.engine.chat_quizzes.check(link.chat_key, name, data)
                held = self.pending.hold(link.chat_key, link.player_key, name, data) if outcome.quiz is not None else ""
        return await self._upload_page(request, link, {"name": name, "outcome": outcome, "held": held})

    async def upload_confirm(self, request: web.Request) -> web.Response:
        link = await self._link(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        form = await within_body_time(request, request.post())
        token = request.match_info["token"]
        if not self.signer.form_ok(token, "confirm", str(form.get("csrf", ""))):
            return guard.refusal_page(request, await self._language(link.chat_key), "form")
        held = self.pending.take(link.chat_key, str(form.get("held", "")))
        if held is None:
            return await self._upload_page(request, link, {"gone": True}, HTTPStatus.CONFLICT)
        name, data = held
        outcome = await self.engine.chat_quizzes.upload(_chat(link.chat_key), _player(link), name, data)
        if outcome.quiz is None or outcome.status not in (UploadStatus.STORED, UploadStatus.REPLACED):
            return await self._upload_page(request, link, {"name": name, "outcome": outcome})
        raise web.HTTPSeeOther(f"/c/{token}/quizzes?saved={outcome.quiz.id}")

    async def _upload_page(
        self, request: web.Request, link: Link, values: dict[str, Any], status: int = HTTPStatus.OK
    ) -> web.Response:
        lang = await self._language(link.chat_key)
        token = request.match_info["token"]
        outcome = values.get("outcome")
        if outcome:  # in the chat's language, as the chat's reply says them
            values |= {"skipped": _placed(lang, outcome.skipped), "problems": _placed(lang, outcome.problems)}
        values |= {
            "U": texts.upload(lang),
            "csrf": self.signer.form_token(token, "upload"),
            "csrf_confirm": self.signer.form_token(token, "confirm"),
            "letters": figures.LETTERS,
        }
        return self._page(request, "upload.html", lang, link, values, status)

    # shared --------------------------------------------------------------------------------

    async def _link(self, request: web.Request, scope: Scope) -> Link | web.Response:
        found = await self.signer.opened(self.engine.store, request.match_info["token"], self.engine.clock.now())
        if found is Refusal.ALTERED:
            return guard.refusal_page(request, self.engine.settings.default_language, found)
        if isinstance(found, Refusal):
            return guard.refusal_page(request, await self._language(_chat_key(request, self.signer)), found)
        if scope is Scope.ADMIN and found.scope is not Scope.ADMIN:
            return guard.refusal_page(request, await self._language(found.chat_key), Refusal.FOREIGN)
        if found.scope is Scope.BOARD and not await self.store.board_public(found.chat_key):
            return guard.refusal_page(request, await self._language(found.chat_key), "private")  # turned off since
        return found

    async def _language(self, chat_key: str) -> str:
        if not chat_key:
            return self.engine.settings.default_language
        chosen = normalise((await self.store.chat_settings(chat_key)).language)
        return chosen or self.engine.settings.default_language

    def _page(
        self,
        request: web.Request,
        template: str,
        lang: str,
        link: Link | None,
        values: dict[str, Any],
        status: int = HTTPStatus.OK,
    ) -> web.Response:
        token = request.match_info.get("token", "")
        context = {
            "lang": lang,
            "dir": "rtl" if bidi.is_rtl(lang) else "ltr",
            "L": texts.common(lang),
            "base": f"/c/{token}" if token else "",
            "admin": link is not None and link.scope is Scope.ADMIN,
            "page": template.removesuffix(".html"),
            **values,
        }
        return aiohttp_jinja2.render_template(template, request, context, status=status)


def _chat_key(request: web.Request, signer: LinkSigner) -> str:
    """The chat of a link that is genuine but expired (its page speaks the chat's language)."""
    found = signer.check(request.match_info["token"], 0.0)
    return found.chat_key if isinstance(found, Link) else ""


def _chat(chat_key: str) -> ChatRef:
    platform, _, chat_id = chat_key.partition(":")
    return ChatRef(platform, chat_id)


def _player(link: Link) -> Player:
    """Who uploads: the admin the link was given to (the name is kept by the chat's own updates)."""
    platform, _, user_id = link.player_key.partition(":")
    return Player(platform or "web", user_id or "admin", "")


def _placed(lang: str, problems: Sequence[Problem]) -> list[tuple[str, str]]:
    """(place, why) of each problem, the why in `lang`; the template writes them out escaped."""
    return [(p.where, shown(lang, p.why)) for p in problems]
