"""Every web route that takes an id, swept with ids no row has: past 64 bits, negative, in other
scripts' digits, thousands of digits, a NUL, bytes that are no UTF-8. Each is a 404 (never a 500
from a database that cannot hold the number), on SQLite and PostgreSQL; `?page=` and `?since=`
likewise never fail the page."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web import web_app
from bot.app.web import page_source
from bot.commands.core import Caller
from bot.commands.weblinks import Scope, signer_for
from bot.content.catalog import Catalog, default_quiz_folders
from bot.engine.core import EngineSettings
from bot.ports.store import Store
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, player
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.support.house import build, house_of
from tests.support.web_harness import Site, play, serving

# ids no row has, and no database column holds
NO_SUCH_IDS = [
    str(2**63),  # one past SQLite's and PostgreSQL's BIGINT
    str(2**64),
    "9" * 40,
    "9" * 4400,  # past Python's int() digit limit
    "-1",
    "0",
    "00000000000000000000000000000000000001",
    "%D9%A3",  # ٣, ARABIC-INDIC DIGIT THREE: a \d to a regular expression
    "%EF%BC%91",  # １, FULLWIDTH DIGIT ONE
    "%00",
    "%FF",
    "1%0A",
]
PICTURE = default_quiz_folders()[0] / "kinds-tour" / "pipeline-bubble.png"
DEMO = """\
id: demo
title: Demo
description: One question with a picture
questions:
  - {id: one, prompt: "How many?", options: ["12", "16"], answer: 0, media: bubble.png}
"""
# what a well-formed address of each route holds; the names in {} are the routes' own
FILLED = {
    "token": "",
    "quiz_id": "demo",
    "number": "1",
    "which": "question",
    "kind": "csv",
    "run_id": "",
    "assignment_id": "1",
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "ids.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")


@pytest.fixture
async def site(database: str, tmp_path: Path) -> AsyncIterator[Site]:
    store: Store = await (PostgresStore.open(database) if "://" in database else SqliteStore.open(database))
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "quizzes" / "bubble.png").write_bytes(PICTURE.read_bytes())
    (tmp_path / "quizzes" / "demo.yaml").write_text(DEMO, encoding="utf-8")
    catalog = Catalog.load([tmp_path / "quizzes"])
    quiz = catalog.get("demo")
    assert quiz is not None
    engine = build(catalog, store, FakeClock(), EngineSettings(question_seconds=30)).engine
    engine.attach(adapter := RecordingAdapter())
    await play(engine, adapter, group(), quiz, {player(1, "Ann"): [True] * len(quiz.questions)})
    assigned = await house_of(engine).commands.handle("assign", "demo until tomorrow", Caller(group(), player(2), True))
    assert "Assignment #1" in assigned.text, assigned.text
    try:
        async with serving(engine) as served:
            yield served
    finally:
        await store.close()


async def routes(site: Site) -> list[str]:
    """The address template of every GET route the pages have, read from the app itself (so a
    route added later is swept too)."""
    app = web_app(page_source(house_of(site.engine)), await signer_for(house_of(site.engine).store))
    found = []
    for resource in app.router.resources():
        info = resource.get_info()
        template = info.get("formatter") or info.get("path")
        if any(route.method == "GET" for route in resource):
            found.append(str(template))
    return found


def placeholders(template: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", template)


async def status_of(http: aiohttp.ClientSession, url: str) -> int:
    async with http.get(url) as response:
        await response.read()  # the whole answer: a download is written after its status
        return response.status


async def test_every_route_answers_an_id_no_row_has_with_404(site: Site) -> None:
    token = site.link(group()).rstrip("/").rsplit("/", 1)[-1]
    screen = site.link(group(), Scope.SCREEN).rstrip("/").rsplit("/", 1)[-1]  # the big screen's pages
    run_id = (await house_of(site.engine).store.chat_runs(group().key))[0].run_id
    filled = FILLED | {"run_id": str(run_id)}
    templates = [t for t in await routes(site) if set(placeholders(t)) - {"token"}]
    assert any("run_id" in placeholders(t) for t in templates), "the sweep sees the run routes"
    found: dict[str, int] = {}
    async with aiohttp.ClientSession() as http:
        for template in templates:
            filled["token"] = screen if template.startswith("/s/") else token
            good = site.base + template.format(**filled)
            assert await status_of(http, good) == 200, good
            for name in set(placeholders(template)) - {"token", "kind", "which"}:
                for bad in NO_SUCH_IDS:
                    url = site.base + template.format(**(filled | {name: bad}))
                    found[f"{template} {name}={bad[:24]} ({len(bad)})"] = await status_of(http, url)
    refused = {k: v for k, v in found.items() if v != 404}
    assert refused == {}


async def test_a_page_number_or_date_out_of_range_never_fails_a_page(site: Site) -> None:
    token = site.link(group()).rstrip("/").rsplit("/", 1)[-1]
    run_id = (await house_of(site.engine).store.chat_runs(group().key))[0].run_id
    pages = [f"/c/{token}/", f"/c/{token}/runs", f"/c/{token}/quizzes", f"/c/{token}/runs/{run_id}"]
    found: dict[str, int] = {}
    async with aiohttp.ClientSession() as http:
        for page in pages:
            for bad in NO_SUCH_IDS:
                found[f"{page}?page={bad[:24]} ({len(bad)})"] = await status_of(http, f"{site.base}{page}?page={bad}")
        for bad in [*NO_SUCH_IDS, "99999-01-01", "2026-02-30", "0001-01-01"]:
            url = f"{site.base}/c/{token}/results.csv?since={bad}"
            found[f"results.csv?since={bad[:24]} ({len(bad)})"] = await status_of(http, url)
    assert {k: v for k, v in found.items() if v >= 500} == {}
