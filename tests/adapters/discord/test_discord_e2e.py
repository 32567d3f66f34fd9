"""quizhost on Discord end to end: the real `quizhost run` wiring, the real discord.py, a fake Discord.

The fake listens on 127.0.0.1 (REST and gateway) and refuses what Discord refuses; a fake clock
moves question deadlines, so no test waits for a timer.
"""

from __future__ import annotations

import asyncio
import logging
import re

import discord
import pytest

from bot.app.wiring import run
from bot.testing.fake_discord_modals import text_inputs
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MANAGE_MESSAGES, MEMBER_PERMISSIONS
from bot.texts import i18n
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    fake,
    is_question,
    make_settings,
    question_stored,
    right_letter,
    running_bot,
    server,
    wrong_letter,
)


async def test_three_members_play_a_whole_quiz_in_a_channel(fake, clock, server, tmp_path):
    _, channel = server
    ann, bob, cy = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Cy")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        started = await fake.slash(ann, channel, "quiz", topic="tiny")
        assert not started["ephemeral"] and "Tiny Test Quiz" in started["embeds"][0]["title"]

        # question 1: right, wrong, repeated, forged and foreign presses, then a late one
        q1 = await fake.wait_message(channel, is_question(1))
        assert "<t:" in q1.data["embeds"][0]["description"]  # the live countdown
        right, wrong = right_letter(q1), wrong_letter(q1)
        ack = await fake.press(ann, q1.id, button_id(q1, right))
        assert ack["ephemeral"] and ack["content"] == f"Locked in: {right}"
        assert (await fake.press(bob, q1.id, button_id(q1, wrong)))["content"] == f"Locked in: {wrong}"
        again = await fake.press(bob, q1.id, button_id(q1, right))
        assert again["ephemeral"] and again["content"] == f"You already answered {wrong}"
        forged = await fake.press(cy, q1.id, "quizhost:qa:999999:1:0", forge=True)
        assert forged["ephemeral"] and "not valid" in forged["content"]
        foreign = await fake.press(cy, q1.id, "evil:drop-table", forge=True)
        assert foreign["ephemeral"] and "not valid" in foreign["content"]

        late_button = button_id(q1, right)  # as Cy's client still shows it
        clock.advance(30)
        reveal1 = await fake.wait_message(channel, lambda m: "Right answer" in m.text)
        assert reveal1.id == q1.id, "the reveal is the question's edit, not a message of its own"
        assert "Iron oxide dust" in reveal1.text and "Ann +1000" in reveal1.text and "Bob" not in reveal1.text
        closed = fake.messages[q1.id]
        assert closed.buttons() == [], "the live buttons are gone"
        assert f"✅ {right}) Mars" in closed.text
        bars = re.findall(r"^([A-D]) (\d+) [▓░]{10}$", closed.text, re.M)
        assert sorted(count for _, count in bars) == ["0", "0", "1", "1"]  # forged: not counted
        late = await fake.press(cy, q1.id, late_button, stale=True)  # the edit had not reached Cy
        assert late["ephemeral"] and "closed" in late["content"]

        # question 2: all three answer right at once, so it closes before its deadline
        # (Cy first: the question waits for everyone who has answered in this run)
        q2 = await fake.wait_message(channel, is_question(2))
        for player in (cy, ann, bob):
            assert (await fake.press(player, q2.id, button_id(q2, right_letter(q2))))["content"].startswith("Locked")
        reveal2 = await fake.wait_message(channel, lambda m: "Jupiter has more mass" in m.text)
        assert "Ann +1100 (0.0 s) 🔥2" in reveal2.text

        # question 3: Ann wrong at once, Bob right after 10 s, Cy silent until the deadline
        q3 = await fake.wait_message(channel, is_question(3))
        await fake.press(ann, q3.id, button_id(q3, wrong_letter(q3)))
        clock.advance(10)
        await fake.press(bob, q3.id, button_id(q3, right_letter(q3)))
        clock.advance(20)
        podium = await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
        assert podium.text.index("Ann: 2100") < podium.text.index("Bob: 1933") < podium.text.index("Cy: 1000")

        board = await fake.slash(cy, channel, "leaderboard", period="all")
        assert not board["ephemeral"] and "Leaderboard" in board["embeds"][0]["title"]
        assert "🥇 Ann: 2100 pts · 2/3 right · 67%" in board["embeds"][0]["description"]
        week = await fake.slash(cy, channel, "leaderboard", period="week", topic="tiny")
        assert "🥉 Cy: 1000 pts" in week["embeds"][0]["description"]
        stats = (await fake.slash(bob, channel, "stats"))["embeds"][0]
        assert "Points: 1933" in stats["description"] and "Best streak: 2" in stats["description"]
    assert fake.violations == []


async def test_a_dm_quiz_on_the_shipped_pipeline_quiz_closes_at_each_first_answer(
    fake, clock, server, tmp_path, caplog
):
    caplog.set_level(logging.DEBUG)
    dee = fake.add_user("Dee", locale="en-GB")
    dm = fake.dm_channel(dee)
    settings = make_settings(tmp_path, fake, discord_guild_ids="")  # DMs see global commands only
    async with running_bot(fake, settings, clock):
        assert fake.syncs == [None]
        started = await fake.slash(dee, dm, "quiz", topic="pipeline")
        assert "Pipeline" in started["embeds"][0]["title"]
        for number in range(1, 9):
            question = await fake.wait_message(dm, is_question(number))
            assert len(question.buttons()) == 4
            await fake.press(dee, question.id, question.buttons()[0]["custom_id"])
            # no clock move: a private chat closes as soon as its one player has answered
            closed = fake.messages[question.id]
            await fake.wait_for(lambda closed=closed: all(b.get("disabled") for b in closed.buttons()))
        podium = await fake.wait_message(dm, lambda m: "Quiz over" in m.text)
        assert "Dee:" in podium.text
        changed = await fake.slash(dee, dm, "settings", time=20)  # in a DM the player is the admin
        assert "Question time: 20 s" in (changed.get("content") or changed["embeds"][0]["description"])
    assert fake.violations == []
    assert fake.token not in caplog.text  # not even in discord.py's debug logs


async def test_a_wrong_token_stops_quizhost_run_with_a_clear_message(fake, clock, server, tmp_path, caplog):
    settings = make_settings(tmp_path, fake, discord_bot_token="not-the-right-token")
    with pytest.raises(discord.LoginFailure):
        await asyncio.wait_for(run(settings, clock=clock, stop=asyncio.Event()), 10)
    assert "Discord refused the token" in caplog.text and "not-the-right-token" not in caplog.text
    assert fake.connected_shards == [] and fake.syncs == []
    caplog.clear()  # the refusal is the expected error here


async def test_stop_is_refused_to_members_and_allowed_to_the_starter_and_managers(fake, clock, server, tmp_path):
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    mod = fake.add_user("Mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        for stopper in (ann, mod, boss):
            await fake.slash(ann, channel, "quiz", topic="tiny", count=2)
            await fake.wait_message(channel, lambda m: m.buttons() and "Question 1/2" in m.text)
            refused = await fake.slash(bob, channel, "stop")
            assert refused["ephemeral"] and "Only the person who started" in refused["content"]
            stopped = await fake.slash(stopper, channel, "stop")
            assert not stopped["ephemeral"] and f"Quiz stopped by {stopper.name}" in stopped["content"]
            assert "Quiz stopped" in fake.channel_messages(channel)[-2].text  # the podium came first
        denied = await fake.slash(mod, channel, "settings", time=10)  # settings need Manage Server
        assert denied["ephemeral"] and "Only chat admins" in denied["content"]
        allowed = await fake.slash(boss, channel, "settings", time=10, pause=2)
        assert "Question time: 10 s · pause between questions: 2 s" in allowed["embeds"][0]["description"]
    assert fake.violations == []


async def test_a_press_on_a_question_posted_before_a_restart_still_counts(fake, clock, server, tmp_path):
    _, channel = server
    ann = fake.add_user("Ann")
    settings = make_settings(tmp_path, fake)
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        q1 = await fake.wait_message(channel, is_question(1))
        await question_stored(settings.quizhost_db, q1.id)
    assert len(fake.identifies) == 1
    async with running_bot(fake, settings, clock):  # a new process: new client, new engine, same database
        ack = await fake.press(ann, q1.id, button_id(q1, right_letter(q1)))
        assert ack["content"] == f"Locked in: {right_letter(q1)}"
        clock.advance(30)
        reveal = await fake.wait_message(channel, lambda m: "Right answer" in m.text)
        assert "Ann +1000" in reveal.text and reveal.id == q1.id
        assert fake.messages[q1.id].buttons() == []
    assert len(fake.identifies) == 2 and fake.violations == []
    assert len([m for m in fake.channel_messages(channel) if is_question(1)(m)]) == 1  # resumed, not re-asked


async def test_rate_limited_routes_are_retried_and_nothing_is_lost(fake, clock, server, tmp_path):
    _, channel = server
    ann = fake.add_user("Ann")
    fake.rate_limit("POST", r"/channels/\d+/messages$", times=2, retry_after=0.1)
    fake.rate_limit("PATCH", r"/channels/\d+/messages/\d+$", times=1, retry_after=0.1)
    fake.rate_limit("POST", r"/interactions/\d+/[^/]+/callback$", times=1, retry_after=0.1)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(ann, channel, "quiz", topic="tiny")
        for number in (1, 2, 3):
            question = await fake.wait_message(channel, is_question(number))
            ack = await fake.press(ann, question.id, button_id(question, right_letter(question)))
            assert ack["content"].startswith("Locked in")
            clock.advance(30 if number == 1 else 0)  # from question 2 on, Ann is the whole run
        podium = await fake.wait_message(channel, lambda m: "Quiz over" in m.text)
        assert "Ann: 3300" in podium.text  # 1000 + 1100 + 1200: every answer stored
    assert len(fake.rate_limited) == 4
    assert fake.violations == []


async def test_quiz_topic_autocomplete_offers_matching_quizzes(fake, clock, server, tmp_path):
    _, channel = server
    eve = fake.add_user("Eve", locale="hi")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        choices = await fake.autocomplete(eve, channel, "quiz", focused="topic", topic="pipe")
        assert [c["value"] for c in choices] == ["pipeline"]
        assert {c["value"] for c in await fake.autocomplete(eve, channel, "quiz", focused="topic", topic="")} >= {
            "pipeline",
            "tiny",
        }
        assert [c["value"] for c in await fake.autocomplete(eve, channel, "quiz", focused="topic", topic="sma")] == [
            "tiny"
        ]
        assert await fake.autocomplete(eve, channel, "quiz", focused="topic", topic="zzzz") == []
    assert fake.violations == []


HINDI_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Start a quiz: /quiz [topic] [count]"
msgstr "प्रश्नोत्तरी शुरू करें"

msgid "this week"
msgstr "इस सप्ताह"
"""


async def test_command_descriptions_are_synced_in_hindi_where_translated(fake, clock, server, tmp_path, monkeypatch):
    locales = tmp_path / "locales"
    (locales / "hi" / "LC_MESSAGES").mkdir(parents=True)
    (locales / "hi" / "LC_MESSAGES" / "quizhost.po").write_text(HINDI_PO, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", locales)
    i18n.catalog.cache_clear()
    try:
        async with running_bot(fake, make_settings(tmp_path, fake), clock):
            commands = {c["name"]: c for c in fake.commands[fake.syncs[0]]}
    finally:
        i18n.catalog.cache_clear()
    assert set(commands) == {
        "quiz",
        "quizzes",
        "leaderboard",
        "stats",
        "stop",
        "language",
        "settings",
        "upload",
        "remove",
        "help",
        "dashboard",
        "board",
        "review",
        "quizstats",
        "schedule",
        "assign",
        "newquiz",  # writing a quiz with forms, and suggesting questions (issue #23)
        "done",
        "suggest",
        "suggestions",
        "teams",  # a chat's teams for its next quiz, and joining one by typing (issue #49)
        "join",
        "round",  # a draft's rounds and hints (issue #49)
        "hint",
        *("host", "next", "pause", "resume", "skip", "end"),  # a hosted game (issue #49)
        "screen",  # the big screen (issue #49)
    }
    assert [o["type"] for o in commands["upload"]["options"]] == [11]  # an attachment
    assert commands["quiz"]["description"] == "Start a quiz: /quiz [topic] [count]"
    assert commands["quiz"]["description_localizations"] == {"hi": "प्रश्नोत्तरी शुरू करें"}
    assert not commands["stats"].get("description_localizations")  # untranslated: English for everyone
    period = next(o for o in commands["leaderboard"]["options"] if o["name"] == "period")
    assert period["choices"][0]["name_localizations"] == {"hi": "इस सप्ताह"}
    assert fake.violations == []


async def test_dashboard_revoke_is_for_managers_and_speaks_the_channels_language(fake, clock, server, tmp_path):
    _, channel = server
    bob = fake.add_user("Bob")
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        commands = {c["name"]: c for c in fake.commands[fake.syncs[0]]}
        action = commands["dashboard"]["options"][0]
        assert (action["name"], [c["value"] for c in action["choices"]]) == ("action", ["revoke"])
        denied = await fake.slash(bob, channel, "dashboard", action="revoke")
        assert "Only chat admins can end" in denied["content"]
        revoked = await fake.slash(boss, channel, "dashboard", action="revoke")
        assert not revoked["ephemeral"] and "stopped working" in revoked["content"]
        await fake.slash(boss, channel, "language", code="ur")
        revoked = await fake.slash(boss, channel, "dashboard", action="revoke")
        assert "/dashboard" in revoked["content"] and "لنک کام کرنا بند کر چکے ہیں" in revoked["content"]
    assert fake.violations == []


TYPED_QUIZ = """\
id: typed-one
title: One Typed Question
description: A typed answer, for the restart test.
questions:
  - id: collective
    kind: typed
    prompt: Which collective operation averages the gradients? Type its name.
    accept: [all-reduce, allreduce]
"""


async def test_after_a_restart_an_old_questions_answer_button_opens_its_form_and_forged_ids_are_refused(
    fake, clock, server, tmp_path
):
    """Every press is routed by its custom_id, so the new process, whose discord.py never saw the
    question's message, opens the typed answer's form from it, takes the answer, and still
    refuses made-up and foreign ids clearly."""
    _, channel = server
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "typed-one.yaml").write_text(TYPED_QUIZ, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="typed-one")
        question = await fake.wait_message(channel, is_question(1))
        await question_stored(settings.quizhost_db, question.id)
    async with running_bot(fake, settings, clock):  # a new process: new client, new engine, same database
        answer = next(b["custom_id"] for b in question.buttons() if b["custom_id"].startswith("quizhost:qt:"))
        form = await fake.press(ann, question.id, answer)
        assert form["type"] == 9 and form["custom_id"] == answer, "the Answer button opened its form"
        field = text_inputs(form)[0]
        shown = await fake.submit_modal(ann, channel, form, {field["label"]: "All-Reduce"})
        assert shown["ephemeral"] and shown["content"].startswith("Locked in")
        forged = await fake.press(bob, question.id, "quizhost:qa:999999:1:0", forge=True)
        assert forged["ephemeral"] and forged["content"] == "This button is not valid."
        foreign = await fake.press(bob, question.id, "someone-elses:button", forge=True)
        assert foreign["ephemeral"] and foreign["content"] == "This button is not valid."
        clock.advance(30)
        reveal = await fake.wait_message(channel, lambda m: "Right answer" in m.text)
        assert reveal.id == question.id and "Ann +" in reveal.text and "Bob" not in reveal.text
    assert fake.violations == []
