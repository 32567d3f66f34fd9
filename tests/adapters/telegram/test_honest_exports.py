"""Honest downloads: the kinds tour played through the fake Telegram (Ann right throughout, Bob
partly right, right, wrong and once silent, Cy wrong throughout, Dee the first question only,
a poll voted by all but Dee), then the chat's results taken with `quizhost results` as CSV and
.xlsx. Every question asked has a row for every player, with the verdict the reveal and the
podium gave, the letters the player saw and the points that add up to the board; the .xlsx
opens on the teacher's summary, its answers frozen under the header, filtered, dated."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta

import openpyxl
import pytest

from bot.domain.model import ChatRef
from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_methods import Sent
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.adapters.telegram.test_honest_numbers import RIGHT_PICKS, STEPS
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_kinds import Player
from tests.adapters.terminal.test_results_cli import results
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.telegram_harness import next_question, reveal_of, running_bot, settings_for
from tests.support.transcript import Transcript

GROUP = -1482
KEY = f"telegram:{GROUP}"
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
ZONE = "Asia/Karachi"
# the verdict of each player's answer to each question of the tour, in order: a choice, a
# select-all scored partly, true or false, typed, a number, a poll, an ordering scored partly
VERDICTS = {
    "Ann": ["right", "right", "right", "right", "right", "vote", "right"],
    "Bob": ["right", "partial", "wrong", "not_answered", "right", "vote", "partial"],
    "Cy": ["wrong", "wrong", "wrong", "wrong", "wrong", "vote", "wrong"],
    "Dee": ["right"] + ["not_answered"] * 6,
}


# an option's line on a closed card: marked right or not, or numbered by its right place
OPTION = re.compile(r"^(?:✅ |▫️ |\d+\. )?([A-J])\) (.*)$")


def letter(card: Sent, text: str) -> str:
    """The letter the option `text` had on the card the players saw."""
    return next(
        m.group(1) for line in strip(card.text).splitlines() if (m := OPTION.match(line)) and m.group(2) == text
    )


async def play_the_tour(fake: FakeBotApi, clock, tmp_path) -> list[Sent]:
    """The tour as tests/adapters/telegram/test_honest_numbers.py plays it (see VERDICTS), each
    typed answer waited for until the bot took it; the question cards, closed."""
    log = Transcript("Four members play the kinds tour for the downloads")
    group = fake.group(GROUP, "Honest downloads")
    fake.bot_deletes_in.add(group["id"])  # a typed answer taken is deleted: the sign it was taken
    ann, bob, cy, dee = (Player(fake, group, fake.user(90 + i, n), log) for i, n in enumerate(PLAYERS, 1))
    fake.expected_refusals.add("Bad Request: chat not found")  # acks to private chats never opened

    async def typed(question: Sent, *answers: tuple[Player, str]) -> None:
        for who, text in answers:
            taken = (group["id"], await who.replies(question, text))
            await fake.wait_for(lambda t=taken: t in fake.deleted, what=f"{who.name}'s answer taken")

    async def closed(number: int) -> Sent:
        clock.advance(30)
        return await reveal_of(fake, group, await next_question(fake, group, number))

    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/quiz kinds-tour")
        q = await next_question(fake, group, 1)
        for who, text in ((ann, "3/7"), (bob, "3/7"), (cy, "1/4"), (dee, "3/7")):
            await who.picks(q, text)
        await closed(1)
        q = await next_question(fake, group, 2)
        for who, picks in ((ann, RIGHT_PICKS), (bob, RIGHT_PICKS[:2]), (cy, ["Gradient accumulation"])):
            for text in picks:
                await who.picks(q, text)
        await closed(2)
        q = await next_question(fake, group, 3)
        for who, text in ((ann, "True"), (bob, "False"), (cy, "False")):
            await who.picks(q, text)
        await closed(3)
        await typed(await next_question(fake, group, 4), (ann, "allreduce"), (cy, "broadcast"))
        await closed(4)
        await typed(await next_question(fake, group, 5), (ann, "14"), (bob, "13,9"), (cy, "7"))
        await closed(5)
        q = await next_question(fake, group, 6)
        for who, text in ((ann, "FSDP / ZeRO-3"), (bob, "Pipeline parallelism"), (cy, "FSDP / ZeRO-3")):
            await who.picks(q, text)
        await closed(6)
        q = await next_question(fake, group, 7)
        for who, steps in ((ann, STEPS), (bob, (STEPS[0], STEPS[1], STEPS[3], STEPS[2])), (cy, STEPS[::-1])):
            for step in steps:
                await who.picks(q, step)
        await closed(7)
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="the podium")
    return fake.questions(group)


async def board(tmp_path) -> dict[str, int]:
    store = await SqliteStore.open(tmp_path / "quizhost.db")
    try:
        await store.update_chat_settings(ChatRef("telegram", str(GROUP)), time_zone=ZONE)
        return {s.name: s.points for s in await store.leaderboard(KEY)}
    finally:
        await store.close()


def by_player(rows: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for row in rows:
        found.setdefault(str(row["player"]), []).append(row)
    return found


async def test_every_question_asked_has_a_row_per_player_with_its_verdict_and_letters(fake, clock, tmp_path):
    cards = await play_the_tour(fake, clock, tmp_path)
    points = await board(tmp_path)
    for kind in ("csv", "xlsx"):
        done = results(tmp_path, "--chat", KEY, "--format", kind, "-o", f"tour.{kind}")
        assert done.returncode == 0, done.stderr
        assert done.stderr.decode().strip() == f"tour.{kind}: 28 row(s) written", "7 questions asked of 4 players"
    data = (tmp_path / "tour.csv").read_bytes()
    assert assert_inert_csv(data) == list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    for rows in (assert_inert_csv(data), assert_inert_xlsx((tmp_path / "tour.xlsx").read_bytes())):
        mine = by_player(rows)
        assert set(mine) == set(PLAYERS)
        for name, verdicts in VERDICTS.items():
            assert [str(r["verdict"]) for r in mine[name]] == verdicts, name
            assert [int(r["question_number"]) for r in mine[name]] == list(range(1, 8)), name
            assert sum(int(r["points"]) for r in mine[name]) == points[name], f"{name}'s rows add up to the board"
        bob, dee = mine["Bob"], mine["Dee"]
        assert [float(r["share"]) for r in (bob[1], bob[6])] == [0.6667, 0.5], "two of three picks, two of four steps"
        assert [r["share"] for r in mine["Ann"]][5] in ("", None), "a vote has no share"
        assert all(r["seconds"] in ("", None) and int(r["points"]) == 0 and not r["chosen"] for r in dee[1:])
        # the letters each player saw: the run shuffled the options
        assert mine["Ann"][0]["chosen"] == letter(cards[0], "3/7")
        assert bob[1]["chosen"] == ", ".join(sorted(letter(cards[1], text) for text in RIGHT_PICKS[:2]))
        placed = (STEPS[0], STEPS[1], STEPS[3], STEPS[2])
        assert bob[6]["chosen"] == " → ".join(letter(cards[6], step) for step in placed)
        assert bob[6]["chosen_text"] == " → ".join(placed)
        assert bob[4]["chosen"] == "13,9", "a number as typed"


async def test_the_xlsx_opens_on_the_summary_and_its_answers_are_a_table(fake, clock, tmp_path):
    await play_the_tour(fake, clock, tmp_path)
    await board(tmp_path)  # the chat's zone set
    for kind in ("csv", "xlsx"):
        done = results(tmp_path, "--chat", KEY, "--format", kind, "-o", f"tour.{kind}")
        assert done.returncode == 0, done.stderr
    first = assert_inert_csv((tmp_path / "tour.csv").read_bytes())[0]
    book = openpyxl.load_workbook(tmp_path / "tour.xlsx")
    assert book.sheetnames == ["Summary", "Answers"]

    summary = [[c.value for c in row] for row in book["Summary"].iter_rows()]
    assert summary[0][:2] == ["run", 1] and summary[2][:4] == ["questions asked", 7, "players", 4]
    start = next(i for i, row in enumerate(summary) if row[0] == "question_number") + 1
    questions = summary[start : start + 7]
    shares = [row[5] for row in questions]
    assert shares[-1] is None and [row[0] for row in questions][-1] == 6, "the poll has no share, and comes last"
    assert shares[:-1] == sorted(shares[:-1]), "hardest first"
    # Ann, Bob, Cy and Dee each count for a quarter of a question's share
    assert {row[0]: row[5] for row in questions}[2] == pytest.approx((1 + 2 / 3) / 4)
    assert all(row[6] is None for row in questions), "four players flag nothing"
    players = {row[0]: row[3:7] for row in summary if row[0] in PLAYERS}
    assert players["Bob"][0] == pytest.approx((2 + 2 / 3 + 1 / 2) / 6) and players["Bob"][2:] == [1, 7]
    assert players["Dee"] == [pytest.approx(1 / 6), players["Dee"][1], 6, 1]
    needs_help = next(i for i, row in enumerate(summary) if str(row[0]).startswith("needs help"))
    assert summary[needs_help][1] == 2 and [row[0] for row in summary[needs_help + 1 : needs_help + 3]] == ["Cy", "Dee"]
    unfinished = next(i for i, row in enumerate(summary) if str(row[0]).startswith("did not finish"))
    assert summary[unfinished][1] == 1 and summary[unfinished + 1][0] == "Dee"

    answers = book["Answers"]
    assert answers.freeze_panes == "A2", "the header row stays in view"
    assert answers.auto_filter.ref == "A1:S29", "a filter over every row and column (faster_than_reading last)"
    headings = [c.value for c in answers[1]]
    assert headings[1] == f"started ({ZONE})" and headings[15] == f"answered_at ({ZONE})"
    assert headings[16:] == ["team", "team_score", "faster_than_reading"]
    started, answered = answers["B2"], answers["P2"]
    assert started.is_date and started.data_type == "d" and answered.is_date
    in_zone = datetime.fromisoformat(first["started"])
    assert in_zone.utcoffset() == timedelta(hours=5), "the CSV says the chat's offset"
    assert started.value == in_zone.replace(tzinfo=None), "the .xlsx the same time, as the chat's clock showed it"
    widths = {column: answers.column_dimensions[column].width for column in "ABGP"}
    assert widths["A"] < widths["G"] <= 60, "as wide as the content, long prompts capped"
