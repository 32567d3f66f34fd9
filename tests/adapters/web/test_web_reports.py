"""A run's report page and the downloads over HTTP on loopback, on databases filled by playing
quizzes through the engine: what a report shows, who may open it, that a download's points add
up to the boards (SQLite and PostgreSQL), that spreadsheet formulas in names stay text, and the
pages' polish (the chat's name, its time zone, grouped numbers, medals, paging, 404, footers)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import openpyxl
import pytest

from bot.commands.core import Caller
from bot.commands.weblinks import Scope
from bot.content.catalog import Catalog
from bot.domain.model import ChatRef, Player, Quiz
from bot.domain.records import AnswerRow, RunRow, RunStatus
from bot.engine.core import Engine, EngineSettings, StartStatus
from bot.ports.store import Store
from bot.testing.clock import FakeClock
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from storage.postgres.store import PostgresStore
from storage.sqlite.store import SqliteStore
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.support.house import build, house_of
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.web_harness import Site, play, serving

ANN, BOB, CY = player(1, "Ann"), player(2, '=HYPERLINK("http://evil.example","Bob")'), player(3, "@Cy")
DEE = player(4, "-Dee+1")


async def download(url: str) -> tuple[int, bytes, dict]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.read(), dict(response.headers)


def csv_rows(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "a byte order mark, so spreadsheet programs read UTF-8"
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def xlsx_rows(data: bytes) -> tuple[list[dict[str, object]], list[openpyxl.cell.cell.Cell]]:
    cells = list(openpyxl.load_workbook(io.BytesIO(data))["Answers"].iter_rows())
    headings = [str(c.value).split(" (")[0] for c in cells[0]]  # a date's heading names the chat's zone
    return [dict(zip(headings, (c.value for c in row), strict=True)) for row in cells[1:]], [
        c for row in cells[1:] for c in row
    ]


def points_by_player(rows: list[dict]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for row in rows:
        key = str(row["player_id"])
        sums[key] = sums.get(key, 0) + int(row["points"])
    return sums


async def stopped_run(
    engine: Engine, adapter: RecordingAdapter, chat: ChatRef, by: Player, quiz: Quiz | None = None
) -> None:
    """A run of `quiz` (the demo quiz): Ann answers its first question right, then `by` /stops it."""
    quiz = quiz or make_quiz()
    assert (await engine.start(chat, quiz.id, ANN, None)).status is StartStatus.STARTED
    house_of(engine).clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    card = adapter.questions[-1]
    assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), ANN, chat)).accepted
    reply = await house_of(engine).commands.handle("stop", "", Caller(chat, by, is_admin=True))
    assert "stopped" in reply.text


@pytest.fixture
async def site(engine, adapter, quiz) -> AsyncIterator[Site]:
    await play(engine, adapter, group(), quiz, {ANN: [True] * 4, BOB: [False, True, False, True], CY: [True] * 4})
    await stopped_run(engine, adapter, group(), DEE)
    async with serving(engine) as served:
        yield served


async def run_ids(engine: Engine) -> list[int]:
    return [r.run_id for r in await house_of(engine).store.chat_runs(group().key)]


async def test_the_run_list_links_each_run_to_its_report_with_podium_split_and_answers(site, engine):
    stopped, finished = await run_ids(engine)
    _, html, _ = await fetch(site.link(group()) + "runs")
    assert f"/runs/{finished}" in html and f"/runs/{stopped}" in html
    status, html, _ = await fetch(site.link(group()) + f"runs/{finished}")
    assert status == 200
    words = text_of(html)
    assert "Run report: Demo quiz" in words and "Played to the end" in words and "Stopped by" not in words
    podium = words[words.index("Podium") : words.index("Every player's answers")]
    assert re.search(r"🥇 (Ann|@Cy) [\d,]+ points 🥈 (Ann|@Cy) [\d,]+ points 🥉 =HYPERLINK", podium)
    # question 1: Ann and Cy chose the right option A, Bob a wrong one
    first = html[html.index('id="q1"') : html.index('id="q2"')]
    assert re.search(r"A 2 \(67%\) right answer, .*[BCD] 1 \(33%\)", text_of(first))
    assert "✓ right answer" in text_of(first) and "Answers: 3" in text_of(first)
    table = html[html.index('class="answers"') : html.index("</table>", html.index('class="answers"'))]
    bob = next(row for row in table.split("<tr>") if "HYPERLINK" in row)
    assert text_of(bob).count("✓") == 2 and text_of(bob).count("✗") == 2, "Bob: right twice, wrong twice"
    assert re.search(r"[A-D] ✗ wrong \d+\.\d s · 0", text_of(bob)), "a wrong answer: its time and no points"


async def test_a_stopped_runs_report_names_who_stopped_it_and_who_did_not_answer(site, engine):
    stopped, _ = await run_ids(engine)
    _, html, _ = await fetch(site.link(group()) + f"runs/{stopped}")
    words = text_of(html)
    assert "How it ended Stopped" in words and "Stopped by -Dee+1" in words and "Started by Ann" in words
    row = next(r for r in html.split("<tr>") if '<th scope="row"><bdi>Ann</bdi>' in r)
    assert text_of(row).count("no answer") == 3, "three questions were never asked"


async def test_foreign_altered_and_other_chats_links_open_no_report_and_no_download(site, engine):
    stopped, finished = await run_ids(engine)
    public = site.link(group(), Scope.BOARD)
    await house_of(engine).store.set_board_public(group().key, True)
    for path in (f"runs/{finished}", f"runs/{finished}/results.csv", "results.xlsx"):
        status, html, _ = await fetch(public + path)
        assert status == 403 and "opens the leaderboard only" in html
        status, html, _ = await fetch(site.link(group()).replace("/c/ey", "/c/ez") + path)
        assert status == 403 and "not one this bot made" in html
    other = ChatRef("test", "g2", title="Other group")
    await house_of(engine).store.ensure_chat(other)
    for path in (f"runs/{finished}", f"runs/{stopped}/results.csv"):
        status, html, _ = await fetch(site.link(other) + path)
        assert status == 404 and "Page not found" in html, "another chat's run is not there for this link"


async def test_downloads_parse_and_keep_formulas_as_text(site, engine):
    _, finished = await run_ids(engine)
    status, data, headers = await download(site.link(group()) + f"runs/{finished}/results.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert 'attachment; filename="quizhost-test-g1-run-' in headers["Content-Disposition"]
    rows = csv_rows(data)
    assert rows == assert_inert_csv(data), "every text quoted, none a formula at any separator"
    assert len(rows) == 12 and {r["quiz"] for r in rows} == {"Demo quiz"}
    names = {r["player"] for r in rows}
    assert names == {"Ann", '\'=HYPERLINK("http://evil.example","Bob")', "'@Cy"}
    _, data, headers = await download(site.link(group()) + "results.xlsx")
    assert headers["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    rows, cells = xlsx_rows(data)
    assert rows == assert_inert_xlsx(data)
    assert "'-Dee+1" not in {r["player"] for r in rows}, "Dee stopped the run but never answered"
    assert '\'=HYPERLINK("http://evil.example","Bob")' in {r["player"] for r in rows}
    assert all(c.data_type != "f" for c in cells), "no cell is a formula"
    assert not any(isinstance(c.value, str) and c.value[:1] in "=+-@" for c in cells)


async def test_a_bad_since_date_is_refused_in_the_chats_language(site, engine):
    await house_of(engine).chats.update(group(), language="ur")
    status, html, _ = await fetch(site.link(group()) + "results.csv?since=yesterday")
    assert status == 400 and "YYYY-MM-DD" in html and "دن" in html


# the sums, on both stores ------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "sums.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")


@pytest.fixture
async def any_store(database: str) -> AsyncIterator[Store]:
    store: Store = await (PostgresStore.open(database) if "://" in database else SqliteStore.open(database))
    yield store
    await store.close()


async def test_the_points_of_every_download_add_up_to_the_boards(any_store, tmp_path):
    quiz = make_quiz()
    engine = build(Catalog.from_quizzes([quiz]), any_store, FakeClock(), EngineSettings(question_seconds=30)).engine
    adapter = RecordingAdapter()
    engine.attach(adapter)
    await play(engine, adapter, group(), quiz, {ANN: [True, True, False, True], BOB: [True, False, True, True]})
    await play(engine, adapter, group(), quiz, {CY: [True] * 4, BOB: [False] * 4, ANN: [True, False] * 2})
    await stopped_run(engine, adapter, group(), DEE)
    async with serving(engine) as site:
        board = {s.player_key: s.points for s in await any_store.leaderboard(group().key)}
        assert sum(board.values()) > 1000
        for kind, parse in (("csv", csv_rows), ("xlsx", lambda d: xlsx_rows(d)[0])):
            _, data, _ = await download(site.link(group()) + f"results.{kind}")
            assert points_by_player(parse(data)) == board
            for run_id in await run_ids(engine):
                _, data, _ = await download(site.link(group()) + f"runs/{run_id}/results.{kind}")
                standings = {s.player_key: s.points for s in await any_store.run_standings(run_id)}
                assert points_by_player(parse(data)) == standings


# the polish ----------------------------------------------------------------------------------


async def crowd(store: Store, chat: ChatRef, players: int, runs: int = 1) -> None:
    """`players` players with different points in one run, and `runs` runs in all, stored directly."""
    await store.ensure_chat(chat)
    for n in range(runs):
        row = RunRow(
            chat.key, chat.chat_id, chat.platform, False, "demo", "en", 1, ("q1",), 30, 5.0, "test:u1", 10.0 * n
        )
        row.status = RunStatus.FINISHED
        run_id = await store.create_run(row)
        for p in range(players if n == 0 else 0):
            who = Player("test", f"c{p}", f"Crowd {p:03d}")
            await store.ensure_player(who)
            answer = AnswerRow(run_id, 0, "q1", who.key, chat.key, "demo", 0, True, 1.0, 10_000 + p, 1, 5.0)
            assert await store.insert_answer(answer)


async def test_long_tables_are_paged_with_the_rows_counted(engine):
    chat = ChatRef("test", "big", title="Big group")
    await crowd(house_of(engine).store, chat, players=250, runs=120)
    async with serving(engine) as site:
        board = site.link(chat)
        _, html, _ = await fetch(board)
        assert html.count("<tr") == 101 and "Rows 1–100 of 250" in text_of(html)
        assert "10,249" in text_of(html), "the language's grouping"
        _, html, _ = await fetch(board + "?period=all&page=3")
        assert html.count("<tr") == 51 and "Rows 201–250 of 250" in text_of(html)
        assert 'href="?period=all&amp;page=2" rel="prev"' in html and 'rel="next"' not in html
        _, html, _ = await fetch(board + "runs?page=2")
        assert html.count("<tr") == 21 and "Rows 101–120 of 120" in text_of(html)


async def test_every_page_names_the_chat_and_writes_times_in_its_zone(site, engine):
    await house_of(engine).chats.update(group(), time_zone="Asia/Karachi")
    link = site.link(group())
    for path in ("", "runs", "quizzes", "quizzes/demo", f"runs/{(await run_ids(engine))[0]}", "nowhere"):
        _, html, _ = await fetch(link + path)
        assert 'class="chat-name"' in html and "<bdi>Group</bdi>" in html, path
    _, html, _ = await fetch(link + "runs")
    assert "PKT" in text_of(html) and "UTC" not in text_of(html)


async def test_medals_go_to_the_top_three_only(site, engine):
    await crowd(house_of(engine).store, group(), players=2)
    _, html, _ = await fetch(site.link(group()))
    rows = html[html.index("<tbody>") : html.index("</tbody>")].split("<tr")[1:]
    assert ["🥇" in rows[0], "🥈" in rows[1], "🥉" in rows[2]] == [True, True, True]
    assert not any(medal in row for row in rows[3:] for medal in "🥇🥈🥉")


async def test_an_unknown_page_is_a_404_in_the_chats_language(site, engine):
    await house_of(engine).chats.update(group(), language="ur")
    for path in ("nowhere", "quizzes/no-such-quiz", "runs/999999"):
        status, html, headers = await fetch(site.link(group()) + path)
        assert status == 404 and "صفحہ نہیں ملا" in html and "404: Not Found" not in html
        assert '<html lang="ur" dir="rtl">' in html and headers["Cache-Control"] == "no-store"
    status, html, _ = await fetch(site.base + "/nowhere")
    assert status == 404 and "Page not found" in html


async def test_each_kind_of_link_has_its_own_footer(site, engine):
    await house_of(engine).store.set_board_public(group().key, True)
    _, html, _ = await fetch(site.link(group()))
    assert "/dashboard gives a new one" in text_of(html)
    _, html, _ = await fetch(site.link(group(), Scope.BOARD))
    footer = text_of(html[html.index("<footer>") :])
    assert "/dashboard" not in footer and "This leaderboard is public" in footer
    _, html, _ = await fetch(site.link(group(), Scope.BOARD, BOB.key))
    assert "/stats in the chat gives a new one" in text_of(html[html.index("<footer>") :])


async def test_the_question_page_explains_its_figures_and_flags_only_from_ten_players(engine, adapter, quiz):
    crowd_of = [player(10 + n, f"P{n}") for n in range(10)]
    await play(engine, adapter, group(), quiz, {p: [False, False, False, True] for p in crowd_of[:9]})
    async with serving(engine) as site:
        _, html, _ = await fetch(site.link(group()) + "quizzes/demo")
        assert "Discrimination: how much more often" in text_of(html) and "at least 10 players" in text_of(html)
        first = html[html.index('id="q1"') : html.index('id="q2"')]
        assert "Too hard" not in first and "Fewer than 10 players have answered it" in text_of(first)
        await play(engine, adapter, group(), quiz, {crowd_of[9]: [False, False, False, True]})
        _, html, _ = await fetch(site.link(group()) + "quizzes/demo")
        first = html[html.index('id="q1"') : html.index('id="q2"')]
        assert "Too hard: 20% or fewer answer it right." in text_of(first)


async def test_a_report_still_opens_when_its_chat_quiz_was_removed(engine, adapter):
    gift = (
        "::capital-fr:: Capital of France? {=Paris ~Lyon ~Nice}\n\n::capital-es:: Capital of Spain? {=Madrid ~Porto}\n"
    )
    outcome = await house_of(engine).chat_quizzes.upload(group(), ANN, "capitals.gift", gift.encode())
    assert outcome.quiz is not None
    quiz = await house_of(engine).chat_quizzes.get(group().key, outcome.quiz.id)
    assert quiz is not None
    await play(engine, adapter, group(), quiz, {ANN: [True, False]})
    async with serving(engine) as site:
        (run_id,) = await run_ids(engine)
        _, html, _ = await fetch(site.link(group()) + f"runs/{run_id}")
        assert "Capital of Spain?" in html
        assert await house_of(engine).store.delete_chat_quiz(group().key, quiz.id)
        status, html, _ = await fetch(site.link(group()) + f"runs/{run_id}")
        assert status == 200 and html.count("This question is no longer in the quiz.") == 2
        _, data, _ = await download(site.link(group()) + f"runs/{run_id}/results.csv")
        assert [r["question"] for r in csv_rows(data)] == [q.id for q in quiz.questions], "the ids stand in"
