"""A run's report page and the downloads: a run's answers, or the whole chat's, as CSV or .xlsx.

Admin links only, as the run history: a report names every player and every answer.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator
from contextlib import aclosing as closing
from functools import partial
from http import HTTPStatus

from aiohttp import web

from bot.adapters.listener.headers import HEADERS
from bot.adapters.web import report, texts
from bot.adapters.web.download_gate import Busy, DownloadGate
from bot.adapters.web.ids import id_in
from bot.adapters.web.pages import ChatView, Pages
from bot.adapters.web.paging import paging
from bot.commands import sheets
from bot.commands.downloads import one_page, write_results
from bot.commands.results import Line, chat_result_pages, day_start, run_results
from bot.commands.summary import run_summary
from bot.commands.weblinks import Link, Scope

KINDS = "|".join(sheets.FORMATS)
RETRY_SECONDS = 60  # what a refused download's page and its Retry-After header ask to wait


class ReportPages:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.source = pages.source
        self.gate = DownloadGate()

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(r"/c/{token}/runs/{run_id:\d+}", self.run),
            web.get(rf"/c/{{token}}/runs/{{run_id:\d+}}/results.{{kind:{KINDS}}}", self.run_file),
            web.get(rf"/c/{{token}}/results.{{kind:{KINDS}}}", self.chat_file),
        ]

    async def run(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.pages.view(link.chat_key)
        results = await run_results(self.source.results, link.chat_key, id_in(request, "run_id"), view.lang)
        if results is None:
            raise web.HTTPNotFound()
        answers = await self.source.results.store.run_answers(results.run.run_id)
        players, questions = report.players(results), report.questions(results, answers, view.lang)
        pages = paging(request, len(players))
        words = texts.report(view.lang)
        summary = run_summary(results)
        values = {
            "P": words,
            "R": texts.runs(view.lang),
            "Q": texts.questions(view.lang),
            "B": texts.board(view.lang),
            "verdict": partial(texts.verdict, view.lang),
            "flag": partial(texts.flag, view.lang, option=""),
            "summary": summary,  # its times are the lines', in the chat's zone
            "results": results,
            "title": results.quiz.title.get(view.lang) if results.quiz else results.run.quiz_id,
            "questions": questions,
            "headings": [
                texts.board(view.lang)["rank"],
                words["player"],
                *([words["team"]] if summary.teams else []),  # a run with teams: each player's
                *(str(q.number) for q in questions),
                words["total"],
            ],
            "players": players[pages.offset : pages.last],
            "paging": pages,
            "formats": sheets.FORMATS,
        }
        return self.pages.render(request, "run.html", view, link, values)

    async def run_file(self, request: web.Request) -> web.StreamResponse:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.pages.view(link.chat_key)
        run_id = id_in(request, "run_id")
        results = await run_results(self.source.results, link.chat_key, run_id, view.lang)
        if results is None:
            raise web.HTTPNotFound()
        name = f"{_safe(link.chat_key)}-run-{run_id}"
        return await self._download(request, view, link, one_page(list(results.lines)), name)

    async def chat_file(self, request: web.Request) -> web.StreamResponse:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.pages.view(link.chat_key)
        since = request.query.get("since", "")
        try:
            start = day_start(since, view.zone) if since else None
        except ValueError:
            words = texts.runs(view.lang)
            values = {"title": words["download_all"], "reason": words["bad_date"]}
            return self.pages.render(request, "refused.html", view, link, values, HTTPStatus.BAD_REQUEST)
        lines = chat_result_pages(self.source.results, link.chat_key, view.lang, start)
        return await self._download(request, view, link, lines, f"{_safe(link.chat_key)}-results")

    async def _download(
        self, request: web.Request, view: ChatView, link: Link, pages: AsyncGenerator[list[Line], None], name: str
    ) -> web.StreamResponse:
        """The file written to the client as its pages are read (bot/commands/downloads.py); a
        page that says "try again" when another download has the turn (download_gate.py)."""
        kind = request.match_info["kind"]
        try:
            with self.gate.turn(link.chat_key):
                return await self._written(request, pages, f"quizhost-{name}.{kind}", kind)
        except Busy:
            words = texts.runs(view.lang)
            values = {"title": words["busy_title"], "reason": words["busy"]}
            busy = self.pages.render(request, "refused.html", view, link, values, HTTPStatus.TOO_MANY_REQUESTS)
            busy.headers["Retry-After"] = str(RETRY_SECONDS)
            return busy

    @staticmethod
    async def _written(
        request: web.Request, pages: AsyncGenerator[list[Line], None], filename: str, kind: str
    ) -> web.StreamResponse:
        async with closing(pages):  # a download cut short: the store's reading ends too
            response = web.StreamResponse(headers=_file_headers(filename))
            response.content_type = sheets.MEDIA_TYPES[kind].split(";")[0]
            if kind == "csv":
                response.charset = "utf-8"
            response.enable_chunked_encoding()
            await response.prepare(request)
            await write_results(pages, kind, response.write)
            await response.write_eof()
            return response


def _file_headers(filename: str) -> dict[str, str]:
    # sent before the middlewares see the response (they add headers to it only after it is
    # written): the ones every page carries, and no caching of a link's page
    return {"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store", **HEADERS}


def _safe(text: str) -> str:
    """A file name part from a chat key ("telegram:-100123" -> "telegram-100123")."""
    return re.sub(r"[^A-Za-z0-9_-]+", "", text.replace(":", "-"))
