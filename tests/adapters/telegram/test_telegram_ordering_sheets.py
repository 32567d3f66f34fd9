"""A question put in order whose options start like formulas (one with a right-to-left
override), played in a Telegram group by a
player whose name holds a right-to-left override and a formula, through the fake Bot API: the
admin's downloads (the web page's CSV and .xlsx, `quizhost results`) are inert, the order a
player placed reads first to last, and the name comes without its override. A select-all
question's picks, one with an override, read as written too."""

from __future__ import annotations

from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.telegram.test_telegram_ordering import letters
from tests.adapters.telegram.test_telegram_sheet_formulas import download
from tests.adapters.terminal.test_results_cli import results
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

FORMULA = '=HYPERLINK("http://x","y")'
OPTIONS = [FORMULA, "+1 step", "@last\u202e"]
QUIZ = """\
id: steps
title: Steps
description: Options that start like formulas
questions:
  - id: steps
    kind: ordering
    prompt: In order?
    options: ['=HYPERLINK("http://x","y")', "+1 step", "@last\u202e"]
"""


async def test_an_order_of_formulas_is_inert_in_every_download(fake, clock, tmp_path, unused_tcp_port_factory):
    port = unused_tcp_port_factory()
    settings = settings_for(
        fake, tmp_path, quizhost_web_url=f"http://127.0.0.1:{port}", quizhost_web_listen=f"127.0.0.1:{port}"
    )
    (tmp_path / "quizzes" / "steps.yaml").write_text(QUIZ, encoding="utf-8")
    group = fake.group(-1471, "Sheet club")
    ann = Member(fake, group, fake.user(97, "Ann"))
    eve = Member(fake, group, fake.user(98, "\u202eEve;=1+1"))
    fake.make_admin(group, ann.user)
    fake.private(ann.user)
    fake.expected_refusals.add("Bad Request: chat not found")
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz steps")
        q1 = await next_question(fake, group, 1)
        letter = letters(q1.text)
        for text in (OPTIONS[1], OPTIONS[2], OPTIONS[0]):
            said = (await eve.presses(q1, letter[strip(text)])).text  # the card shows it without the override
        assert said.startswith("Your answer: ")
        clock.advance(30)
        await reveal_of(fake, group, q1)
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="the podium")
        await ann.says("/dashboard")
        told = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(fake.private(ann.user)) if "/c/" in m.text), None), what="the link"
        )
        page = told.text.split()[-1].rstrip("/")
        web = [assert_inert_csv(await download(f"{page}/results.csv"))]
        web.append(assert_inert_xlsx(await download(f"{page}/results.xlsx")))

    key = f"telegram:{group['id']}"
    for kind in ("csv", "xlsx"):
        done = results(tmp_path, "--chat", key, "--format", kind, "-o", f"all.{kind}", quizzes=tmp_path / "quizzes")
        assert done.returncode == 0, done.stderr
    cli = [assert_inert_csv((tmp_path / "all.csv").read_bytes())]
    cli.append(assert_inert_xlsx((tmp_path / "all.xlsx").read_bytes()))
    for rows in (*web, *cli):
        (row,) = rows
        assert row["player"] == "Eve;'=1+1", "the override dropped, the formula guarded"
        # first to last, as placed: the override in "@last" cannot show the formula before it
        assert row["chosen_text"] == f"'+1 step → @last → {FORMULA}"
        assert (row["verdict"], row["share"]) in {("wrong", "0.0"), ("wrong", 0.0)}


MULTI_QUIZ = """\
id: picks
title: Picks
description: A select-all question whose first option holds a right-to-left override
questions:
  - id: picks
    kind: multi
    prompt: Which ones?
    options: ["\u202e@first", "+1 step", '=HYPERLINK("http://x","y")']
    answer: [0, 1]
"""


async def test_an_override_in_a_select_all_option_cannot_reorder_a_results_cell(
    fake, clock, tmp_path, unused_tcp_port_factory
):
    (tmp_path / "quizzes").mkdir(exist_ok=True)
    (tmp_path / "quizzes" / "picks.yaml").write_text(MULTI_QUIZ, encoding="utf-8")
    group = fake.group(-1472, "Pick club")
    eve = Member(fake, group, fake.user(98, "Eve"))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await eve.says("/quiz picks")
        q1 = await next_question(fake, group, 1)
        letter = letters(q1.text)
        for text in ("@first", "+1 step"):
            await eve.presses(q1, letter[strip(text)])
        clock.advance(30)
        await reveal_of(fake, group, q1)
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="the podium")
    done = results(tmp_path, "--chat", f"telegram:{group['id']}", "-o", "picks.csv", quizzes=tmp_path / "quizzes")
    assert done.returncode == 0, done.stderr
    (row,) = assert_inert_csv((tmp_path / "picks.csv").read_bytes())
    # the override in "@first" would show "+1 step" before it: both read as written, in the
    # order Eve saw them
    seen = sorted(("@first", "+1 step"), key=letter.__getitem__)
    assert row["chosen"] == ", ".join(sorted(letter[text] for text in seen))
    assert row["chosen_text"] == "'" + "; ".join(seen)
    assert row["verdict"] == "right"
