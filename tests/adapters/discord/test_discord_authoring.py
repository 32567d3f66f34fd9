"""Writing a quiz with forms on Discord (issue #23), end to end: the real wiring and discord.py
against the fake Discord. /newquiz, "Add question" opens a modal, the draft is an embed with
Edit and Delete buttons, /done saves it to the server (admins) or to the author's DMs; members
/suggest with a modal."""

from __future__ import annotations

from typing import Any

from bot.testing.fake_discord import FakeDiscord, FakeUser
from bot.testing.fake_discord_modals import text_inputs
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, visible_text
from tests.support.discord_harness import (  # noqa: F401
    endpoint_settings,
    fake,
    is_question,
    make_settings,
    prompt_of,
    running_bot,
    running_endpoint_bot,
    server,
)

PROMPT, OPTIONS, RIGHT = "Question", "Options, one per line", "Right option(s): 2, or 1, 3 (empty: a poll)"
WHY, SECONDS = "Why (optional)", "Seconds (5 to 300, optional)"


def custom_id(shown: dict[str, Any], label: str) -> str:
    buttons = [c for row in shown.get("components", []) for c in row.get("components", [])]
    return next(b["custom_id"] for b in buttons if b.get("label") == label)


async def fills_form(fake: FakeDiscord, user: FakeUser, channel: int, shown: dict, label: str, **values: str) -> dict:
    """`user` presses the button `label` under `shown`, fills in the form it opens and sends it."""
    form = await fake.press(user, int(shown["id"]), custom_id(shown, label))
    assert form["type"] == 9, f"no form opened: {form}"
    fields = {"prompt": PROMPT, "options": OPTIONS, "right": RIGHT, "why": WHY, "seconds": SECONDS}
    return await fake.submit_modal(user, channel, form, {fields[k]: v for k, v in values.items()})


async def test_a_quiz_made_of_forms_is_edited_saved_to_the_server_and_played(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        started = await fake.slash(boss, channel, "newquiz", title="Capitals")
        assert started["ephemeral"] and visible_text(started).startswith("New quiz “Capitals”.")
        form = await fake.press(boss, int(started["id"]), custom_id(started, "Add question"))
        assert [f["label"] for f in text_inputs(form)] == [PROMPT, OPTIONS, RIGHT, WHY, SECONDS]
        first = await fake.submit_modal(
            boss,
            channel,
            form,
            {PROMPT: "Capital of France?", OPTIONS: "Berlin\nParis\n\nRome", RIGHT: "2", SECONDS: "20"},
        )
        assert first["ephemeral"] and visible_text(first) == "Question 1 added: Capital of France?"
        bad = await fills_form(
            fake, boss, channel, started, "Add question", prompt="Capital of Peru?", options="Lima\nQuito", right="5"
        )
        assert visible_text(bad) == "Which is right: the numbers of the right options, from 1 to 2"
        late = await fills_form(
            fake,
            boss,
            channel,
            started,
            "Add question",
            prompt="Capital of Peru?",
            options="Lima\nQuito",
            right="1",
            seconds="900",
        )
        assert visible_text(late) == "Seconds: a whole number from 5 to 300"
        await fills_form(
            fake,
            boss,
            channel,
            started,
            "Add question",
            prompt="Capital of Peru?",
            options="Lima\nQuito",
            right="A",
            why="Lima, on the coast.",
        )
        await fills_form(
            fake,
            boss,
            channel,
            started,
            "Add question",
            prompt="Which are in Africa?",
            options="Cairo\nOslo\nDakar",
            right="1, 3",
        )

        draft = await fake.slash(boss, channel, "newquiz")
        assert draft["embeds"][0]["title"] == "📝 Capitals"
        assert "1. Capital of France?\n2. Capital of Peru?\n3. Which are in Africa?" in visible_text(draft)
        form = await fake.press(boss, int(draft["id"]), custom_id(draft, "Edit 1"))
        assert [f.get("value") for f in text_inputs(form)] == [
            "Capital of France?",
            "Berlin\nParis\nRome",
            "2",
            None,
            "20",
        ]
        edited = await fake.submit_modal(boss, channel, form, {PROMPT: "What is the capital of France?"})
        assert visible_text(edited) == "Question 1 replaced: What is the capital of France?"
        removed = await fake.press(boss, int(draft["id"]), custom_id(draft, "Delete 3"))
        assert "Question 3 removed." in visible_text(removed)

        saved = await fake.slash(boss, channel, "done")
        assert not saved["ephemeral"], "saved into the server: the channel sees it"
        assert visible_text(saved).startswith("Saved “Capitals”: 2 questions. /quiz capitals plays it here")
        await fake.slash(boss, channel, "quiz", topic="capitals")
        q1 = await fake.wait_message(channel, is_question(1))
        assert prompt_of(q1) == "What is the capital of France?"
    assert fake.violations == []


async def test_a_member_saves_in_their_dms_and_suggests_with_a_form(fake, clock, server, tmp_path):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    mia = fake.add_user("Mia")
    settings = make_settings(tmp_path, fake, discord_guild_ids="")  # DMs see global commands only
    async with running_bot(fake, settings, clock):
        started = await fake.slash(mia, channel, "newquiz", title="Rivers")
        await fills_form(
            fake, mia, channel, started, "Add question", prompt="Longest river?", options="Nile\nThames", right="1"
        )
        refused = await fake.slash(mia, channel, "done")
        assert (
            visible_text(refused)
            == "Only admins save a quiz here: send /done in a direct message with me to keep it there."
        )
        dm = fake.dm_channel(mia)
        kept = await fake.slash(mia, dm, "done")
        assert visible_text(kept).startswith("Saved “Rivers”: 1 question. /quiz rivers plays it here")
        assert "No quiz matches" in visible_text(await fake.slash(mia, channel, "quiz", topic="rivers"))

        opened = fake.push_slash(mia, channel, "suggest")
        form = await opened.shown
        assert form["type"] == 9 and form["title"] == "Suggest a question"
        thanks = await fake.submit_modal(
            mia, channel, form, {PROMPT: "Deepest lake?", OPTIONS: "Baikal\nVictoria", RIGHT: "1"}
        )
        assert visible_text(thanks) == "Thanks! Your question is suggestion #1: the group's admins will decide."
        queue = await fake.slash(boss, channel, "suggestions")
        assert "#1 · Mia: Deepest lake?" in visible_text(queue)
        approved = await fake.slash(boss, channel, "suggestions", what="approve 1 lakes")
        assert visible_text(approved) == "Approved #1 by Mia into “Lakes” (1 question). /quiz lakes plays it."
        told = await fake.wait_message(dm, lambda m: "Deepest lake?" in m.text)
        assert told.text == "Your suggested question “Deepest lake?” was approved into “Lakes”."
    assert fake.violations == []


async def test_forms_and_suggestions_work_through_the_endpoint_too(fake, clock, server, tmp_path, unused_tcp_port):
    """Over HTTP the form is the interaction's reply and its submit comes back to the endpoint:
    no gateway, nothing kept in a process's memory between the two."""
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    mia = fake.add_user("Mia")
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        started = await fake.slash(boss, channel, "newquiz", title="Capitals")
        assert started["ephemeral"] and visible_text(started).startswith("New quiz “Capitals”.")
        added = await fills_form(
            fake, boss, channel, started, "Add question", prompt="Capital of Peru?", options="Lima\nQuito", right="1"
        )
        assert visible_text(added) == "Question 1 added: Capital of Peru?"
        draft = await fake.slash(boss, channel, "newquiz")
        form = await fake.press(boss, int(draft["id"]), custom_id(draft, "Edit 1"))
        assert [f.get("value") for f in text_inputs(form)][:3] == ["Capital of Peru?", "Lima\nQuito", "1"]
        edited = await fake.submit_modal(boss, channel, form, {PROMPT: "What is the capital of Peru?"})
        assert visible_text(edited) == "Question 1 replaced: What is the capital of Peru?"
        saved = await fake.slash(boss, channel, "done")
        assert visible_text(saved).startswith("Saved “Capitals”: 1 question.")

        opened = fake.push_slash(mia, channel, "suggest")
        suggest = await opened.shown
        assert suggest["type"] == 9 and suggest["title"] == "Suggest a question"
        thanks = await fake.submit_modal(mia, channel, suggest, {PROMPT: "Deepest lake?", OPTIONS: "Baikal\nVictoria"})
        assert visible_text(thanks) == "Thanks! Your question is suggestion #1: the group's admins will decide."
        queue = await fake.slash(boss, channel, "suggestions")
        assert "#1 · Mia: Deepest lake?" in visible_text(queue)
    assert fake.identifies == [], "the bot opened the gateway"
    assert fake.violations == []
