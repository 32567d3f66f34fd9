"""A run's report flags right answers given sooner than the question can be read (its prompt and
options at 238 words a minute: bot/domain/fairplay.py), on the page and in both downloads, and
lists the players with several; nothing is unscored."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import AsyncIterator

import openpyxl
import pytest

from bot.domain.model import LocalText, Player, Quiz
from bot.engine.core import Engine, StartStatus
from bot.testing.fakes import RecordingAdapter, group, make_quiz, player
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.adapters.web.test_web_reports import csv_rows, download, xlsx_rows
from tests.support.house import house_of
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.web_harness import Site, serving

ANN, BOB, CY = player(1, "Ann"), player(2, "=Bob"), player(3, "Cy")
FLAG = "⚡ faster than it can be read"


@pytest.fixture
def quiz() -> Quiz:
    """Two questions of 30 words each, prompt and options: about 7.6 s to read."""
    demo = make_quiz(questions=2)
    words = " ".join(["word"] * 21)  # and a 22nd; 4 options of 2 words each
    long = tuple(dataclasses.replace(q, prompt=LocalText({"en": f"{words} {q.id}?"})) for q in demo.questions)
    return dataclasses.replace(demo, questions=long)


async def play_at(engine: Engine, adapter: RecordingAdapter, quiz: Quiz, times: dict[Player, list[float]]) -> None:
    """A whole run: each player answers question i right `times[player][i]` seconds after it is posted."""
    chat, clock = group(), house_of(engine).clock
    assert (await engine.start(chat, quiz.id, ANN, None)).status is StartStatus.STARTED
    for index in range(len(quiz.questions)):
        clock.advance(5)  # type: ignore[attr-defined]
        await engine.run_due()
        card, waited = adapter.questions[-1], 0.0
        for who, at in sorted(times.items(), key=lambda pair: pair[1][index]):
            clock.advance(at[index] - waited)  # type: ignore[attr-defined]
            waited = at[index]
            assert (await engine.answer(adapter.token(adapter.right_letter(quiz, card), card), who, chat)).accepted
        clock.advance(30)  # type: ignore[attr-defined]
        await engine.run_due()
    clock.advance(5)  # type: ignore[attr-defined]
    await engine.run_due()
    assert engine.run_in(chat) is None


@pytest.fixture
async def site(engine, adapter, quiz) -> AsyncIterator[Site]:
    # Ann at 0.3 s on both (several: listed), Cy once (flagged, not listed), Bob after reading
    await play_at(engine, adapter, quiz, {ANN: [0.3, 0.3], BOB: [10.0, 12.0], CY: [0.5, 9.0]})
    async with serving(engine) as served:
        yield served


async def the_run(engine: Engine) -> int:
    [run] = await house_of(engine).store.chat_runs(group().key)
    return run.run_id


async def test_the_report_page_flags_answers_faster_than_reading_and_lists_who_gave_several(site, engine):
    status, html, _ = await fetch(site.link(group()) + f"runs/{await the_run(engine)}")
    assert status == 200
    answers = html.split('<table class="answers">')[1].split("</table>")[0]
    rows = {name: text_of(row) for row in answers.split("<tr>")[1:] for name in ("Ann", "=Bob", "Cy") if name in row}
    assert rows["Ann"].count(FLAG) == 2 and rows["Cy"].count(FLAG) == 1 and FLAG not in rows["=Bob"]
    assert rows["Ann"].count("✓ right") == 2, "flagged, still right"
    listed = text_of(html.split('class="too-fast"')[1].split("</section>")[0])
    assert "Right faster than they could read" in listed and "238 words a minute" in listed
    assert "Ann · answers faster than reading: 2" in listed and "Cy" not in listed and "Bob" not in listed


async def test_the_downloads_flag_them_in_a_column_of_their_own_and_keep_the_points(site, engine):
    run = await the_run(engine)
    _, data, _ = await download(site.link(group()) + f"runs/{run}/results.csv")
    rows = csv_rows(data)
    assert rows == assert_inert_csv(data)
    flagged = {(r["player"], r["question_number"]) for r in rows if r["faster_than_reading"] == "yes"}
    assert flagged == {("Ann", "1"), ("Ann", "2"), ("Cy", "1")}
    assert {r["faster_than_reading"] for r in rows} == {"yes", ""}
    assert all(int(r["points"]) > 0 for r in rows), "every answer was right and keeps its points"

    _, data, _ = await download(site.link(group()) + f"runs/{run}/results.xlsx")
    sheet_rows, _ = xlsx_rows(data)
    assert sheet_rows == assert_inert_xlsx(data)
    assert sorted((r["player"], r["question_number"]) for r in sheet_rows if r["faster_than_reading"] == "yes") == [
        ("Ann", 1),
        ("Ann", 2),
        ("Cy", 1),
    ]
    summary = [[c for c in row if c is not None] for row in openpyxl.load_workbook(io.BytesIO(data))["Summary"].values]
    start = next(i for i, row in enumerate(summary) if row and str(row[0]).startswith("right faster than reading"))
    assert summary[start][1] == 1, "one player gave 2 or more"
    assert summary[start + 1][0] == "Ann" and summary[start + 1][-1] == 2


def skimmed() -> Quiz:
    """One question of 80 words (about 20 s to read) that its author gave 12 s: it asks to be skimmed."""
    [question] = make_quiz(questions=1).questions
    words = " ".join(["word"] * 71)  # and a 72nd; 4 options of 2 words each
    long = dataclasses.replace(question, prompt=LocalText({"en": f"{words} {question.id}?"}), seconds=12)
    return dataclasses.replace(make_quiz(questions=1), questions=(long,))


@pytest.mark.parametrize("quiz", [skimmed()])
async def test_a_question_given_less_time_than_it_takes_to_read_flags_only_answers_in_its_first_half(
    engine, adapter, quiz
):
    await play_at(engine, adapter, quiz, {ANN: [2.0], CY: [7.0]})
    async with serving(engine) as site:
        _, data, _ = await download(site.link(group()) + f"runs/{await the_run(engine)}/results.csv")
    flagged = {r["player"]: r["faster_than_reading"] for r in csv_rows(data)}
    assert flagged == {"Ann": "yes", "Cy": ""}, "7 s of 12 is reading fast, not skipping it"
