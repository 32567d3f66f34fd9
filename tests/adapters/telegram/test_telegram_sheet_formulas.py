"""What players typed cannot run in the admin's spreadsheet (issue 46, findings 1 and 5): in a
Telegram group, through the fake Bot API, one player answers a typed question with a formula
through the question's Answer button, another (whose name is a formula behind a `;`) replies a
number that starts with `-`, on a quiz whose title and prompts start like formulas. The admin's
downloads from the web page and `quizhost results` come out inert, in CSV and .xlsx alike."""

from __future__ import annotations

import aiohttp

from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.adapters.terminal.test_results_cli import results
from tests.support.inert_sheets import assert_inert_csv, assert_inert_xlsx
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

FORMULA = '=HYPERLINK("http://x","y")'
PROMPT = "'@How cold is it, in degrees?"  # the numeric question's, guarded
QUIZ = """\
id: formulas
title: "=1+1 night"
description: "Texts that start like formulas."
questions:
  - id: city
    kind: typed
    prompt: "+Which city is the capital of France?"
    accept: ["Paris"]
  - id: cold
    kind: numeric
    prompt: "@How cold is it, in degrees?"
    answer: -5
    tolerance: 0.5
"""


async def download(url: str) -> bytes:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200, url
        return await response.read()


async def test_a_formula_typed_as_an_answer_is_inert_in_every_download(fake, clock, tmp_path, unused_tcp_port_factory):
    port = unused_tcp_port_factory()
    settings = settings_for(
        fake, tmp_path, quizhost_web_url=f"http://127.0.0.1:{port}", quizhost_web_listen=f"127.0.0.1:{port}"
    )
    (tmp_path / "quizzes" / "formulas.yaml").write_text(QUIZ, encoding="utf-8")
    group = fake.group(-1461, "Sheet club")
    fake.bot_deletes_in.add(group["id"])
    ann, bob, cy = (Member(fake, group, fake.user(90 + i, n)) for i, n in enumerate(("Ann", "Bob", "@Cy;=1+1"), 1))
    fake.make_admin(group, ann.user)
    fake.join(group, bob.user)  # an Answer link counts for the group's members only
    fake.private(ann.user)
    fake.expected_refusals.add("Bad Request: chat not found")  # Cy's ack: Cy never opened a private chat
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz formulas")
        q1 = await next_question(fake, group, 1)
        payload = q1.buttons()[0]["url"].split("start=")[1]
        private = Member(fake, fake.private(bob.user), bob.user)
        await private.says(f"/start {payload}")
        assert (await private.says(FORMULA)).text.startswith("Locked in"), "a typed answer like any other"
        clock.advance(30)
        await reveal_of(fake, group, q1)
        q2 = await next_question(fake, group, 2)
        reply = await fake.reply_to_bot(group, cy.user, "-5", q2.message_id)
        await fake.wait_for(lambda: (group["id"], reply) in fake.deleted, what="Cy's reply taken (and removed)")
        clock.advance(30)
        await reveal_of(fake, group, q2)
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(group)), what="the podium")
        await ann.says("/dashboard")
        told = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(fake.private(ann.user)) if "/c/" in m.text), None), what="the link"
        )
        page = told.text.split()[-1].rstrip("/")
        web_csv = assert_inert_csv(await download(f"{page}/results.csv"))
        web_xlsx = assert_inert_xlsx(await download(f"{page}/results.xlsx"))

    key = f"telegram:{group['id']}"
    for kind in ("csv", "xlsx"):
        done = results(tmp_path, "--chat", key, "--format", kind, "-o", f"all.{kind}", quizzes=tmp_path / "quizzes")
        assert done.returncode == 0, done.stderr
    cli_csv = assert_inert_csv((tmp_path / "all.csv").read_bytes())
    cli_xlsx = assert_inert_xlsx((tmp_path / "all.xlsx").read_bytes())
    for rows in (web_csv, web_xlsx, cli_csv, cli_xlsx):
        bobs = next(row for row in rows if row["player"] == "Bob")
        assert bobs["chosen"] == bobs["chosen_text"] == "'" + FORMULA, "what Bob typed, as text"
        cys = [row for row in rows if row["player"] == "'@Cy;'=1+1"]
        # Cy joined at the second question: the first was not asked of him
        assert [row["verdict"] for row in cys] == ["right"], "Cy answered the second question only"
        assert cys[0]["chosen"] == "'-5"
        assert {row["quiz"] for row in rows} == {"'=1+1 night"}
        assert {row["question"] for row in rows} == {"'+Which city is the capital of France?", PROMPT}
    for rows in (web_xlsx, cli_xlsx):
        assert all(isinstance(row["points"], int) and isinstance(row["run"], int) for row in rows), "still numbers"
