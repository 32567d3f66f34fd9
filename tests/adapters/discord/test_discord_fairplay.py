"""A Discord server that asks for a minimum account age to score (/settings min_age): an account
younger than that is refused in its own language and changes nothing; an older one scores; the
setting outlives a restart and holds in hosted games too."""

from __future__ import annotations

import sqlite3

from bot.testing.fake_discord_modals import text_inputs
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, visible_text
from tests.support.discord_harness import (  # noqa: F401
    button_id,
    fake,
    is_question,
    make_settings,
    right_letter,
    running_bot,
    server,
)

DAY = 86400
TYPED_QUIZ = """\
id: typed
title: One typed question
description: For the age rule on typed answers.
questions:
  - id: red
    kind: typed
    prompt: Which planet is red? Type its name.
    accept: [Mars]
"""
REFUSED_IN_HINDI = "यहाँ स्कोर करने के लिए आपका खाता कम से कम 7 दिन पुराना होना चाहिए।"


def panel_id(shown: dict, label: str) -> str:
    buttons = [c for row in shown.get("components", []) for c in row.get("components", [])]
    return next(b["custom_id"] for b in buttons if b.get("label") == label)


def read(data: dict) -> str:
    """What the player reads: Discord shows an escaped underscore as an underscore."""
    return visible_text(data).replace("\\_", "_")


def answered(db) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {key for (key,) in conn.execute("SELECT player_key FROM answers")}


async def test_a_two_day_old_account_is_refused_where_the_server_asks_seven_days(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=clock.now() - 900 * DAY)
    young = fake.add_user("Young", locale="hi", made_at=clock.now() - 2 * DAY)
    old = fake.add_user("Old", made_at=clock.now() - 10 * DAY)
    settings = make_settings(tmp_path, fake)
    async with running_bot(fake, settings, clock):
        denied = await fake.slash(old, channel, "settings", min_age="7d")
        assert denied["ephemeral"] and "Only chat admins" in denied["content"]
        wrong = read(await fake.slash(boss, channel, "settings", min_age="400d"))
        assert "Usage: /settings min_age 7d" in wrong
        shown = read(await fake.slash(boss, channel, "settings", min_age="7d"))
        assert "Minimum Discord account age to score: 7 days" in shown

    async with running_bot(fake, settings, clock):  # a new process: the chat still asks 7 days
        assert "age to score: 7 days" in read(await fake.slash(boss, channel, "settings"))
        await fake.slash(old, channel, "quiz", topic="tiny")
        q1 = await fake.wait_message(channel, is_question(1))
        refused = await fake.press(young, q1.id, button_id(q1, right_letter(q1)))
        assert refused["ephemeral"] and refused["content"] == REFUSED_IN_HINDI
        taken = await fake.press(old, q1.id, button_id(q1, right_letter(q1)))
        assert taken["content"] == f"Locked in: {right_letter(q1)}"
        clock.advance(30)
        reveal = await fake.wait_message(channel, lambda m: "Right answer" in m.text)
        assert "Old +" in reveal.text and "Young" not in reveal.text
        await fake.slash(boss, channel, "stop")
    assert answered(tmp_path / "quizhost.db") == {f"discord:{old.id}"}
    assert fake.violations == []


async def test_a_hosted_game_refuses_a_young_account_too_and_off_lets_it_in(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=clock.now() - 900 * DAY)
    young = fake.add_user("Young", made_at=clock.now() - 5 * 3600)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(boss, channel, "settings", min_age="12h")
        shown = await fake.slash(boss, channel, "host", topic="tiny")
        await fake.press(boss, int(shown["id"]), panel_id(shown, "Next"))
        q1 = await fake.wait_message(channel, is_question(1))
        refused = await fake.press(young, q1.id, button_id(q1, right_letter(q1)))
        assert refused["content"] == "Your account must be at least 12 hours old to score here."
        await fake.press(boss, int(shown["id"]), panel_id(shown, "End"))
        assert answered(tmp_path / "quizhost.db") == set()

        # off: the next game takes the same account's answer
        assert "age to score: none" in read(await fake.slash(boss, channel, "settings", min_age="off"))
        await fake.slash(boss, channel, "quiz", topic="tiny")
        q1 = await fake.wait_message(channel, lambda m: is_question(1)(m) and m.id != q1.id)
        taken = await fake.press(young, q1.id, button_id(q1, right_letter(q1)))
        assert taken["content"].startswith("Locked in")
        await fake.slash(boss, channel, "stop")
    assert answered(tmp_path / "quizhost.db") == {f"discord:{young.id}"}
    assert fake.violations == []


async def test_a_typed_answer_from_a_young_account_is_refused_too(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD, made_at=clock.now() - 900 * DAY)
    young = fake.add_user("Young", made_at=clock.now() - 2 * DAY)
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "typed.yaml").write_text(TYPED_QUIZ, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await fake.slash(boss, channel, "settings", min_age="7d")
        await fake.slash(boss, channel, "quiz", topic="typed")
        q1 = await fake.wait_message(channel, is_question(1))
        answer = next(b for b in q1.buttons() if b["custom_id"].startswith("quizhost:qt:"))
        modal = await fake.press(young, q1.id, answer["custom_id"])  # the form opens: only its answer counts
        field = text_inputs(modal)[0]
        shown = await fake.submit_modal(young, channel, modal, {field["label"]: "Mars"})
        assert shown["ephemeral"] and shown["content"] == "Your account must be at least 7 days old to score here."
        await fake.slash(boss, channel, "stop")
    assert answered(tmp_path / "quizhost.db") == set()
    assert fake.violations == []
