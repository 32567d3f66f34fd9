"""Honest numbers in the statistics: after five members of a Telegram group played the kinds tour
(tests/adapters/telegram/test_honest_numbers.py: right, partly right, wrong, votes and skips),
an admin's /quizstats through the fake Bot API and `quizhost stats --json` on the database they
played into give every scored kind its share right, each answer counted at what the reveal said
it was worth (a partly right one its share); the poll has none."""

from __future__ import annotations

import asyncio
import json

from bot.cli import main
from bot.testing.fake_telegram import FakeBotApi
from bot.texts.bidi import strip
from tests.adapters.telegram.test_honest_numbers import QUIZ, play_the_tour
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, running_bot, settings_for

GROUP = -1481  # the group play_the_tour plays in
# question by question (the tour's order), what its answers were worth over how many were given:
# 1 choice: Ann, Bob, Dee right, Cy wrong; 2 select-all: Ann right, Bob two of three picks, Cy
# wrong; 3 true/false: Ann alone; 4 typed: Ann right, Cy wrong; 5 numeric: Ann and Bob ("13,9")
# right; 6 the poll: no share; 7 ordering: Ann right, Bob two steps of four in place, Cy none
SHARES = (3 / 4, (1 + 2 / 3) / 3, 1 / 3, 1 / 2, 2 / 3, None, (1 + 1 / 2) / 3)
ANSWERS = (4, 3, 3, 2, 3, 3, 3)


async def quizstats(fake: FakeBotApi, clock, tmp_path) -> str:
    """/quizstats kinds-tour, said in the group by Ann, made an admin."""
    group = fake.chats[GROUP]
    ann = Member(fake, group, fake.user(81, "Ann"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        return strip((await ann.says("/quizstats kinds-tour")).text)


async def test_statistics_credit_every_answer_as_the_reveal_did(fake, clock, tmp_path, capsys):
    await play_the_tour(fake, clock, tmp_path)
    report = await quizstats(fake, clock, tmp_path)
    blocks = {block.split(" ", 1)[0]: block for block in report.split("\n\n")}
    for n, (share, answers) in enumerate(zip(SHARES, ANSWERS), 1):
        shown = "-" if share is None else f"{round(100 * share)}%"
        assert f"{answers} answers · {shown} right" in blocks[f"Q{n}"], blocks[f"Q{n}"]
    assert "discrimination -" in blocks["Q6"], "a poll has no discrimination index"
    assert "discrimination -" not in blocks["Q7"] and "discrimination -" not in blocks["Q4"]
    assert report.count("fewer than 10 players: no flags yet") == 1, "four players flag nothing"

    capsys.readouterr()
    args = ["stats", "kinds-tour", "--chat", f"telegram:{GROUP}", "--json", "--db", str(tmp_path / "quizhost.db")]
    assert await asyncio.to_thread(main, args) == 0  # the command runs its own event loop
    (figures,) = json.loads(capsys.readouterr().out)["quizzes"]
    by_id = {f["id"]: f for f in figures["questions"]}
    for question, share in zip(QUIZ.questions, SHARES):
        found = by_id[question.id]["share_right"]
        assert found == (None if share is None else round(share, 4)), question.id
    multi = by_id[QUIZ.questions[1].id]
    assert (multi["right"], multi["split"]) == (1, [2, 2, 1, 0, 1]), "Ann alone fully right; each pick counted"
