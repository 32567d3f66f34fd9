"""A run's report page and the downloads: a run's answers, or the whole chat's, as CSV or .xlsx.

Admin links only, as the run history: a report names every player and every answer.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from http import HTTPStatus

from aiohttp import web

from bot.adapters.web import report, texts
from bot.adapters.web.pages import Pages
from bot.adapters.web.paging import paging
from bot.commands import sheets
from bot.commands.results import Line, chat_results, day_start, run_results
from bot.commands.weblinks import Scope

KINDS = "|".join(sheets.FORMATS)


class ReportPages:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.engine = pages.engine

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
        results = await run_results(self.engine, link.chat_key, int(request.match_info["run_id"]), view.lang)
        if results is None:
            raise web.HTTPNotFound()
        players, questions = report.players(results), report.questions(results, view.lang)
        pages = paging(request, len(players))
        words = texts.report(view.lang)
        values = {
            "P": words,
            "R": texts.runs(view.lang),
            "Q": texts.questions(view.lang),
            "results": results,
            "title": results.quiz.title.get(view.lang) if results.quiz else results.run.quiz_id,
            "questions": questions,
            "headings": [
                texts.board(view.lang)["rank"],
                words["player"],
                *(str(q.number) for q in questions),
                words["total"],
            ],
            "players": players[pages.offset : pages.last],
            "paging": pages,
            "formats": sheets.FORMATS,
        }
        return self.pages.render(request, "run.html", view, link, values)

    async def run_file(self, request: web.Request) -> web.Response:
        link = await self.pages.opened(request, Scope.ADMIN)
        if isinstance(link, web.Response):
            return link
        view = await self.pages.view(link.chat_key)
        run_id = int(request.match_info["run_id"])
        results = await run_results(self.engine, link.chat_key, run_id, view.lang)
        if results is None:
            raise web.HTTPNotFound()
        kind = request.match_info["kind"]
        return await _download(results.lines, f"{_safe(link.chat_key)}-run-{run_id}.{kind}", kind)

    async def chat_file(self, request: web.Request) -> web.Response:
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
        lines = await chat_results(self.engine, link.chat_key, view.lang, start)
        kind = request.match_info["kind"]
        return await _download(lines, f"{_safe(link.chat_key)}-results.{kind}", kind)


def _safe(text: str) -> str:
    """A file name part from a chat key ("telegram:-100123" -> "telegram-100123")."""
    return re.sub(r"[^A-Za-z0-9_-]+", "", text.replace(":", "-"))


async def _download(lines: Sequence[Line], name: str, kind: str) -> web.Response:
    # written on a thread: a chat's whole history can take seconds (measured: 100,000 answers as
    # .xlsx, about 25 s here), during which the event loop would serve no other page or webhook
    data = await asyncio.to_thread(sheets.as_file, lines, kind)
    response = web.Response(body=data, headers={"Content-Disposition": f'attachment; filename="quizhost-{name}"'})
    response.content_type = sheets.MEDIA_TYPES[kind].split(";")[0]
    if kind == "csv":
        response.charset = "utf-8"
    return response
