"""A NUL in what a player sends, through the fake Bot API, on both stores: PostgreSQL keeps no
NUL in a text, so one in a name or a typed answer failed the group commit it was in, and every
other player's answer in it was lost ("Nobody answered"); one in a /newquiz title failed the
draft's write."""

from __future__ import annotations

import pytest

from bot.testing.fake_telegram import FakeBotApi
from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_authoring import sends_poll
from tests.adapters.telegram.test_telegram_bidi_text import CAPITAL
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request, tmp_path) -> str:
    return str(tmp_path / "quizhost.db") if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def test_a_nul_in_a_typed_answer_or_a_name(fake: FakeBotApi, clock, tmp_path, database):
    group = fake.group(-2401, "Club")
    fake.bot_deletes_in.add(group["id"])
    fake.expected_refusals.add("Bad Request: chat not found")
    ann = Member(fake, group, fake.user(2401, "Ann"))
    eve = Member(fake, group, fake.user(2402, "E\x00ve"))
    settings = settings_for(fake, tmp_path, quizhost_db=database)
    (tmp_path / "quizzes" / "capital.yaml").write_text(CAPITAL, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz capital")
        question = await next_question(fake, group, 1)
        await fake.reply_to_bot(group, ann.user, "Par\x00is", question.message_id)
        await fake.reply_to_bot(group, eve.user, "Paris", question.message_id)
        await fake.wait_for(lambda: len(fake.deleted) >= 2, what="both answers taken (and removed)")
        clock.advance(31)
        reveal = await reveal_of(fake, group, question)
        assert "\x00" not in reveal.text
        assert "• paris × 2" in reveal.text  # neither answer lost with the other's NUL
        assert "\nAnn +1000" in reveal.text and "\nEve +1000" in reveal.text


async def test_a_nul_in_a_draft_title_or_question(fake: FakeBotApi, clock, tmp_path, database):
    ann = fake.user(2403, "Ann")
    private = Member(fake, fake.private(ann), ann)
    async with running_bot(fake, settings_for(fake, tmp_path, quizhost_db=database), clock):
        made = await private.says("/newquiz Moons\x00 and rings")
        assert made.text.startswith("New quiz “Moons and rings”.")
        added = await sends_poll(private, poll_json("Lakes\x00 of methane?", ["Ti\x00tan", "Io"], 0))
        assert "Lakes of methane?" in added.text and "\x00" not in added.text


async def test_a_nul_in_a_command_is_answered_as_the_command_without_it(fake: FakeBotApi, clock, tmp_path, database):
    group = fake.group(-2402, "Club")
    ann = Member(fake, group, fake.user(2404, "Ann"))
    fake.make_admin(group, ann.user)
    private = Member(fake, fake.private(ann.user), ann.user)
    said = {}
    async with running_bot(fake, settings_for(fake, tmp_path, quizhost_db=database), clock):
        for command in ("/quiz no\x00such", "/remove no\x00such", "/leaderboard week no\x00such", "/language e\x00o"):
            said[command] = (await ann.says(command)).text
        for command in ("/start quiz_no\x00such", "/start add_no\x00such", "/quiz no\x00such"):
            said[f"private {command}"] = (await private.says(command)).text
    failed = {command: text for command, text in said.items() if "\x00" in text or text.startswith("Something went")}
    assert failed == {}
    assert said["/language e\x00o"].startswith("Unknown language “eo”.")
