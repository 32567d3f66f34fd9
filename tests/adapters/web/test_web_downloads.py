"""The downloads as they are written: page by page over chunked HTTP, byte for byte the file the
all-in-memory code made, and a few at a time (one per chat, two over all chats), a download
that finds its turn taken refused with a page in the chat's language."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from datetime import datetime

import aiohttp
import openpyxl
import pytest

from bot.commands import results, sheets
from bot.commands.results import Line, chat_result_pages, chat_results
from bot.domain.model import ChatRef
from bot.domain.records import AnswerRow
from bot.testing.fakes import group
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_reports import ANN, BOB, CY, DEE, stopped_run
from tests.support.house import house_of
from tests.support.web_harness import Site, play, serving


def csv_before_streaming(lines: list[Line]) -> bytes:
    """The whole CSV as the download made it in memory before it streamed (kept here to pin the
    bytes), with every text quoted (issue 46)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(sheets.HEADINGS)
    writer.writerows(sheets.csv_rows(lines))
    return out.getvalue().encode("utf-8-sig")


async def chunked(url: str) -> tuple[int, list[bytes], dict]:
    """The response's body as the HTTP chunks it came in."""
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        chunks, part = [], b""
        async for data, end_of_chunk in response.content.iter_chunks():
            part += data
            if end_of_chunk:
                chunks.append(part)
                part = b""
        return response.status, [*chunks, part] if part else chunks, dict(response.headers)


@pytest.fixture
async def site(engine, adapter, quiz) -> AsyncIterator[Site]:
    for _ in range(2):
        await play(engine, adapter, group(), quiz, {ANN: [True] * 4, BOB: [False, True, False, True], CY: [True] * 4})
    await stopped_run(engine, adapter, group(), DEE)
    async with serving(engine) as served:
        yield served


async def test_a_history_goes_out_a_page_at_a_time_with_the_bytes_it_always_had(site, engine, monkeypatch):
    whole = await chat_results(house_of(engine).results, group().key, "en")
    assert len(whole) == 25
    pages = [page async for page in chat_result_pages(house_of(engine).results, group().key, "en", size=4)]
    assert [len(p) for p in pages] == [4] * 6 + [1] and [x for p in pages for x in p] == whole

    monkeypatch.setattr(results, "PAGE_ANSWERS", 4)
    status, chunks, headers = await chunked(site.link(group()) + "results.csv")
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert headers["Content-Disposition"] == 'attachment; filename="quizhost-test-g1-results.csv"'
    assert headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"
    assert len(chunks) >= 7, "a chunk per page of four answers"
    assert b"".join(chunks) == csv_before_streaming(whole)

    _, chunks, _ = await chunked(site.link(group()) + "results.xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(chunks)))["Answers"]
    cells = [[(c.value, c.data_type) for c in row] for row in sheet.iter_rows()]
    zoned = [f"{h} (UTC)" if h in sheets.DATE_HEADINGS else h for h in sheets.HEADINGS]
    assert [[v for v, _ in row] for row in cells] == [zoned, *([as_read(c) for c in row] for row in sheets.rows(whole))]
    assert {kind for row in cells[1:] for _, kind in row} == {"s", "n", "d"}, "texts, numbers and dates"


def as_read(cell: sheets.Cell) -> sheets.Cell:
    """A cell's value as openpyxl reads it back: a date without its zone (it is the chat's), no text as none."""
    if isinstance(cell, datetime):
        return cell.replace(tzinfo=None)
    return cell if cell != "" else None


async def test_an_empty_history_is_the_headings_alone(site, engine):
    await house_of(engine).store.ensure_chat(ChatRef("test", "quiet"))
    status, chunks, _ = await chunked(site.link(ChatRef("test", "quiet")) + "results.csv")
    assert status == 200 and b"".join(chunks) == csv_before_streaming([])


class HeldStore(SqliteStore):
    """A SQLite store whose history reads wait while the test holds them (this file's store)."""

    held = asyncio.Event()

    async def chat_answers_after(
        self, chat_key: str, after: AnswerRow | None, limit: int, since: float | None = None
    ) -> list[AnswerRow]:
        await self.held.wait()
        return await super().chat_answers_after(chat_key, after, limit, since)


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[SqliteStore]:
    HeldStore.held = asyncio.Event()
    HeldStore.held.set()
    store = await HeldStore.open(str(tmp_path / "held.db"))
    yield store
    await store.close()


async def test_one_download_per_chat_and_two_at_once_the_rest_asked_to_retry(engine, adapter, quiz):
    await play(engine, adapter, group(), quiz, {ANN: [True] * 4})
    others = [ChatRef("test", "b"), ChatRef("test", "c")]
    for chat in others:
        await house_of(engine).store.ensure_chat(chat)
    await house_of(engine).chats.update(group(), language="hi")
    HeldStore.held.clear()
    async with serving(engine) as site, aiohttp.ClientSession() as http:
        first = asyncio.create_task(_body(http, site.link(group()) + "results.csv"))
        second = asyncio.create_task(_body(http, site.link(others[0]) + "results.xlsx"))
        await asyncio.sleep(0.2)  # both have their turn and wait for the store
        for chat, why in ((group(), "the chat's own download"), (others[1], "two at once already")):
            async with http.get(site.link(chat) + "results.csv") as refused:
                page = await refused.text()
                assert refused.status == 429 and refused.headers["Retry-After"] == "60", why
                assert ("मिनट" if chat == group() else "minute") in page, "in the chat's language"
        HeldStore.held.set()
        status, data = await first
        assert status == 200 and data == csv_before_streaming(
            await chat_results(house_of(engine).results, group().key, "hi")
        )
        assert (await second)[0] == 200
        async with http.get(site.link(group()) + f"runs/{(await _runs(engine))[0]}/results.csv") as again:
            assert again.status == 200, "the turn is given back"


async def _body(http: aiohttp.ClientSession, url: str) -> tuple[int, bytes]:
    async with http.get(url) as response:
        return response.status, await response.read()


async def _runs(engine) -> list[int]:
    return [r.run_id for r in await house_of(engine).store.chat_runs(group().key)]
