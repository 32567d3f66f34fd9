"""The web pages of a chat: leaderboard, run history, quizzes and questions.

Every page is server-rendered HTML (Jinja2 through aiohttp-jinja2, autoescaped: player names
and quiz texts are escaped everywhere) and works without JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp_jinja2
from aiohttp import web

from bot.adapters.listener.headers import Handler
from bot.adapters.web import figures, guard, media, texts
from bot.adapters.web.charts import question_figure
from bot.adapters.web.ids import id_in
from bot.adapters.web.paging import paging
from bot.commands.results import quiz_of
from bot.commands.weblinks import Link, LinkSigner, Refusal, Scope
from bot.content.export import quiz_yaml
from bot.domain.model import QUIZ_ID, Quiz
from bot.domain.questionstats import FLAG_PLAYERS
from bot.domain.zones import zone
from bot.texts import bidi
from bot.texts.i18n import normalise

PERIODS = ("all", "month", "week")
SCREENS = (Scope.SCREEN, Scope.HOST)  # the big screen's links (bot/adapters/web/screen.py)
QUIZ = f"{{quiz_id:{QUIZ_ID}}}"  # an address that names no possible quiz is no route: a 404


@dataclass(frozen=True)
class ChatView:
    """What every page of a chat shows it in: its language, its time zone, its name."""

    lang: str
    zone: ZoneInfo
    name: str = ""


class Pages:
    """The pages every link reads, and what all of a chat's pages share: which link opens them,
    the chat's view, the rendering (the upload form: upload_pages.py; run reports: reports.py)."""

    def __init__(self, source: figures.PageSource, signer: LinkSigner) -> None:
        self.source = source
        self.store = source.store
        self.signer = signer

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.home),
            web.get("/c/{token}/", self.board),
            web.get("/c/{token}/runs", self.runs),
            web.get("/c/{token}/quizzes", self.quizzes),
            web.get(f"/c/{{token}}/quizzes/{QUIZ}", self.quiz),
            web.get(f"/c/{{token}}/quizzes/{QUIZ}/media/{{number:\\d{{1,4}}}}/{{which}}", self.picture),
            web.get(f"/c/{{token}}/quizzes/{QUIZ}/file", self.quiz_file),
        ]

    # the pages ---------------------------------------------------------------------------

    async def home(self, request: web.Request) -> web.Response:
        view = await self.view("")
        return self.render(request, "home.html", view, None, {"text": texts.refused(view.lang)["home"]})

    async def board(self, request: web.Request) -> web.Response:
        link = await self.opened(request, Scope.BOARD)
        if isinstance(link, web.Response):
            return link
        view = await self.view(link.chat_key)
        period = request.query.get("period", "all")
        period = period if period in PERIODS else "all"
        played = await figures.played_quizzes(self.source, link.chat_key)
        quiz_id = request.query.get("quiz") or None
        quiz = next((q for q in played if q.id == quiz_id), None)
        quiz_id = quiz.id if quiz else None
        pages = paging(request, await figures.board_size(self.source, link.chat_key, period, quiz_id))
        rows = await figures.board_rows(self.source, link.chat_key, period, quiz_id, pages.last)
        values = {
            "B": texts.board(view.lang),
            "periods": PERIODS,
            "period": period,
            "rows": rows[pages.offset : pages.last],
            "paging": pages,
            "played": played,
            "quiz": quiz,
            "me": link.player_key,
        }
        return self.render(request, "board.html", view, link, values)

    async def runs(self, request: web.Request) -> web.Response:
        link = await self.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.view(link.chat_key)
        pages = paging(request, await self.store.history_size(link.chat_key))
        lines = await figures.run_lines(self.source, link.chat_key, view.lang, pages.size, pages.offset)
        values = {
            "R": texts.runs(view.lang),
            "A": texts.assignment(view.lang),
            "attempts": partial(texts.attempts, view.lang),
            "lines": lines,
            "paging": pages,
        }
        return self.render(request, "runs.html", view, link, values)

    async def quizzes(self, request: web.Request) -> web.Response:
        link = await self.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.view(link.chat_key)
        own = {q.id for q in await self.source.results.chat_quizzes.all(link.chat_key)}
        played = await figures.played_quizzes(self.source, link.chat_key)
        values = {
            "Q": texts.questions(view.lang),
            "played": played,
            "own": own,
            "saved": request.query.get("saved"),
            "saved_text": texts.upload(view.lang)["saved"],
        }
        return self.render(request, "quizzes.html", view, link, values)

    async def quiz(self, request: web.Request) -> web.Response:
        link = await self.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.view(link.chat_key)
        lang = view.lang
        quiz = await quiz_of(self.source.results, link.chat_key, request.match_info["quiz_id"])
        if quiz is None:
            raise web.HTTPNotFound()
        rows = []
        responses = await self.store.quiz_responses(quiz.id, link.chat_key)
        for item in await figures.question_figures(self.source, link.chat_key, quiz):
            flags = [
                texts.flag(lang, note.flag, figures.LETTERS[note.option] if note.option is not None else "")
                for note in item.stats.flags  # none before FLAG_PLAYERS players answered it
            ]
            rows.append(
                {
                    "item": item,
                    "flags": flags,
                    "few": item.stats.scored and item.stats.players < FLAG_PLAYERS,  # a poll has no flags
                    "figure": question_figure(
                        item.question,
                        lang,
                        item.stats.split,
                        responses.get(item.question.id, {}),
                        written=quiz.language,
                    ),
                    "media": media.shown(quiz, item.number, item.question, lang, f"/c/{request.match_info['token']}"),
                }
            )
        values = {"Q": texts.questions(lang), "quiz": quiz, "rows": rows}
        return self.render(request, "quiz.html", view, link, values)

    async def picture(self, request: web.Request) -> web.StreamResponse:
        """A picture beside a quiz the chat may see (the quiz page's own link opens it)."""
        quiz = await self._admin_quiz(request)
        if isinstance(quiz, web.Response):
            return quiz
        return await media.response(quiz, id_in(request, "number"), request.match_info["which"])

    async def quiz_file(self, request: web.Request) -> web.Response:
        """The quiz as its YAML file (`quizhost export --format yaml`): one written in the chat too."""
        quiz = await self._admin_quiz(request)
        if isinstance(quiz, web.Response):
            return quiz
        return web.Response(
            text=quiz_yaml(quiz, "en"),
            content_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="{quiz.id}.yaml"'},  # an id: [a-z0-9-]
        )

    async def _admin_quiz(self, request: web.Request) -> Quiz | web.Response:
        """The quiz the path names, for an admin's link of a chat that may play it."""
        link = await self.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        quiz = await quiz_of(self.source.results, link.chat_key, request.match_info["quiz_id"])
        if quiz is None:
            raise web.HTTPNotFound()
        return quiz

    # shared (with bot/adapters/web/reports.py) ----------------------------------------------

    async def opened(self, request: web.Request, scope: Scope) -> Link | web.Response:
        """The request's link when it may open a page of `scope`; else the page that says why not."""
        found = await self.signer.opened(self.source.store, request.match_info["token"], self.source.clock.now())
        if found is Refusal.ALTERED:
            return guard.refusal_page(request, self.source.default_language, found)
        if isinstance(found, Refusal):
            return guard.refusal_page(request, (await self.view(_chat_key(request, self.signer))).lang, found)
        if (found.scope in SCREENS) != (scope in SCREENS):  # a big screen's link opens that page alone
            reason = "screen_only" if found.scope in SCREENS else "not_screen"
            return guard.refusal_page(request, (await self.view(found.chat_key)).lang, reason)
        if scope is Scope.ADMIN and found.scope is not Scope.ADMIN:
            return guard.refusal_page(request, (await self.view(found.chat_key)).lang, Refusal.FOREIGN)
        if found.scope is Scope.BOARD and not await self.store.board_public(found.chat_key):
            return guard.refusal_page(request, (await self.view(found.chat_key)).lang, "private")  # turned off since
        return found

    async def view(self, chat_key: str) -> ChatView:
        default = self.source.default_language
        if not chat_key:
            return ChatView(default, zone(None))
        settings = await self.store.chat_settings(chat_key)
        name = await self.store.chat_title(chat_key)
        return ChatView(normalise(settings.language) or default, zone(settings.time_zone), name or chat_key)

    def render(
        self,
        request: web.Request,
        template: str,
        view: ChatView,
        link: Link | None,
        values: dict[str, Any],
        status: int = HTTPStatus.OK,
    ) -> web.Response:
        token = request.match_info.get("token", "")
        context = {
            "lang": view.lang,
            "zone": view.zone,
            "chat_name": view.name if link is not None else "",
            "dir": "rtl" if bidi.is_rtl(view.lang) else "ltr",
            "L": texts.common(view.lang),
            "base": f"/c/{token}" if token and link is not None else "",
            "admin": link is not None and link.scope is Scope.ADMIN,
            "footer": _footer(link),
            "rows_shown": partial(texts.rows_shown, view.lang),
            "page": template.removesuffix(".html"),
            **values,
        }
        return aiohttp_jinja2.render_template(template, request, context, status=status)

    @web.middleware
    async def not_found(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A page that is not there, in the language of the chat whose genuine link led here."""
        try:
            return await handler(request)
        except web.HTTPNotFound:
            pass
        token = request.match_info.get("token") or _token_in(request.path)
        found = self.signer.check(token, 0.0) if token else None  # genuine, even if expired: only its language
        view = await self.view(found.chat_key if isinstance(found, Link) else "")
        genuine = isinstance(found, Link)
        values = {"N": texts.not_found(view.lang), "home": f"/c/{token}/" if genuine else "", "chat_name": ""}
        if genuine:
            values["chat_name"] = view.name
        response = self.render(request, "missing.html", view, None, values, HTTPStatus.NOT_FOUND)
        response.headers["Cache-Control"] = "no-store"
        return response


def _footer(link: Link | None) -> str:
    """Which footer fits the link: the admins' (/dashboard), a player's own row (/stats), the public board's."""
    if link is None:
        return ""
    if link.scope is Scope.ADMIN:
        return "footer"
    return "footer_mine" if link.player_key else "footer_board"


def _token_in(path: str) -> str:
    """The token of a /c/{token}/… path the router found no page for."""
    parts = path.split("/")
    return parts[2] if len(parts) > 2 and parts[1] == "c" else ""


def _chat_key(request: web.Request, signer: LinkSigner) -> str:
    """The chat of a link that is genuine but expired (its page speaks the chat's language)."""
    found = signer.check(request.match_info["token"], 0.0)
    return found.chat_key if isinstance(found, Link) else ""
