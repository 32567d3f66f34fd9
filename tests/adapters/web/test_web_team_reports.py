"""A run with teams in its report page and its downloads: a team column beside each player and
each answer, the team's score as its podium gave it, and a team summary (members, score,
accuracy) on the page and in the .xlsx; team names are user text, kept inert in both files."""

from __future__ import annotations

import io

import openpyxl
import pytest

from bot.commands.core import Caller
from bot.domain import tokens
from bot.testing.fakes import group
from tests.adapters.web.test_web_pages import fetch, text_of
from tests.adapters.web.test_web_reports import ANN, BOB, CY, csv_rows, download, xlsx_rows
from tests.support.house import house_of
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.web_harness import play, serving


@pytest.fixture
async def team_run(engine, adapter, quiz) -> int:
    house = house_of(engine)
    admin = Caller(group(), ANN, is_admin=True)
    assert "open" in (await house.commands.handle("teams", "Owls =SUM(1) mean", admin)).text
    lineup = await house.store.open_lineup(group().key)
    assert lineup is not None
    for who, team in ((ANN, 1), (BOB, 2), (CY, 2)):
        assert (await house.commands.press(tokens.team_join(lineup.id, team), Caller(group(), who))).accepted
    await play(engine, adapter, group(), quiz, {ANN: [True] * 4, BOB: [False, True, False, True], CY: [True] * 4})
    (run,) = await house.store.chat_runs(group().key)
    return run.run_id


async def test_the_report_and_the_downloads_name_each_players_team(team_run, engine):
    store = house_of(engine).store
    points = {s.player_key: s.points for s in await store.run_standings(team_run)}
    foxes = (points[BOB.key] + points[CY.key]) / 2
    async with serving(engine) as site:
        _, html, _ = await fetch(site.link(group()) + f"runs/{team_run}")
        words = text_of(html)
        teams = words[words.index("Teams Team Members Team score") :]
        assert teams.startswith(f"Teams Team Members Team score Accuracy Owls Ann {points[ANN.key]}.0 100% =SUM(1) @Cy")
        assert f"{BOB.name} {foxes:.1f}" in teams  # the best team first, each its members as ranked
        answers = html[html.index('class="answers"') :]
        assert '<th scope="col">Team</th>' in answers
        assert '<td class="team"><bdi dir="auto">Owls</bdi></td>' in answers

        status, data, _ = await download(site.link(group()) + f"runs/{team_run}/results.csv")
        assert status == 200
        rows = csv_rows(data)
        assert {(r["player"], r["team"], float(r["team_score"])) for r in rows} >= {
            ("Ann", "Owls", points[ANN.key]),
            ("@Cy".replace("@", "'@"), "'=SUM(1)", foxes),
        }
        assert_inert_csv(data)

        status, data, _ = await download(site.link(group()) + f"runs/{team_run}/results.xlsx")
        answers_rows, _ = xlsx_rows(data)
        assert {r["team"] for r in answers_rows} == {"Owls", "'=SUM(1)"}
        assert_inert_xlsx(data)
        summary = [[c.value for c in row] for row in openpyxl.load_workbook(io.BytesIO(data))["Summary"].iter_rows()]
        at = next(i for i, row in enumerate(summary) if row[:4] == ["team", "members", "score", "accuracy"])
        assert summary[at + 1][:3] == ["Owls", "Ann", points[ANN.key]]
        assert summary[at + 2][0] == "'=SUM(1)" and summary[at + 2][2] == foxes
