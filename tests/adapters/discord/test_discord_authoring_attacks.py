"""Writing a quiz with forms on Discord, tried as an attacker would (issue #46), through the
interactions endpoint, where a form keeps nothing in memory and its submit names what it edits:
a form of a draft that is gone, of a question taken back, another member's form, and fields at
and past the quiz format's limits. Each gets a clear answer and changes nothing else."""

from __future__ import annotations

from bot.content.quizfile import PROMPT_MAX
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, visible_text
from tests.adapters.discord.test_discord_authoring import OPTIONS, PROMPT, RIGHT, WHY, custom_id, fills_form
from tests.support.discord_harness import (  # noqa: F401 (the fixtures)
    endpoint_settings,
    fake,
    running_endpoint_bot,
    server,
)

GONE = "That question is not in your draft any more."
NEW = {PROMPT: "Capital of Fiji?", OPTIONS: "Suva\nNadi", RIGHT: "1"}


async def test_a_form_of_a_saved_draft_or_of_someone_else_edits_nothing(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    mia = fake.add_user("Mia")
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        started = await fake.slash(boss, channel, "newquiz", title="Capitals")
        for prompt, options in (("Capital of Peru?", "Lima\nQuito"), ("Capital of Chad?", "Abuja\nN'Djamena")):
            await fills_form(fake, boss, channel, started, "Add question", prompt=prompt, options=options, right="1")
        listed = await fake.slash(boss, channel, "newquiz")
        old_edit = await fake.press(boss, int(listed["id"]), custom_id(listed, "Edit 2"))
        old_add = await fake.press(boss, int(started["id"]), custom_id(started, "Add question"))

        others = await fake.submit_modal(mia, channel, old_edit, {PROMPT: "Mia was here?"})
        assert visible_text(others) == GONE, "Mia has no draft: Boss's form edits nothing of Boss's"
        assert visible_text(await fake.submit_modal(mia, channel, old_add, NEW)) == (
            "You have no quiz draft. /newquiz starts one."
        )

        assert visible_text(await fake.slash(boss, channel, "done")).startswith("Saved “Capitals”: 2 questions.")
        assert visible_text(await fake.submit_modal(boss, channel, old_add, NEW)) == (
            "You have no quiz draft. /newquiz starts one."
        )
        renewed = await fake.slash(boss, channel, "newquiz", title="Rivers")
        for prompt, options in (("Longest river?", "Nile\nThames"), ("Widest river?", "Amazon\nRhine")):
            await fills_form(fake, boss, channel, renewed, "Add question", prompt=prompt, options=options, right="1")
        stale = await fake.submit_modal(boss, channel, old_edit, {PROMPT: "Capital of Chad, edited?"})
        assert visible_text(stale) == GONE
        listed = visible_text(await fake.slash(boss, channel, "newquiz"))
        assert "1. Longest river?\n2. Widest river?" in listed

        current = await fake.slash(boss, channel, "newquiz")
        edit_2 = await fake.press(boss, int(current["id"]), custom_id(current, "Edit 2"))
        assert "Question 2 removed." in visible_text(
            await fake.press(boss, int(current["id"]), custom_id(current, "Delete 2"))
        )
        await fills_form(fake, boss, channel, renewed, "Add question", prompt="Coldest river?", options="Lena\nNile")
        taken_back = await fake.submit_modal(boss, channel, edit_2, {PROMPT: "Widest river, edited?"})
        assert visible_text(taken_back) == GONE, "the form of a question taken back does not edit its successor"
        assert "2. Coldest river?" in visible_text(await fake.slash(boss, channel, "newquiz"))
    assert fake.violations == []


async def test_form_fields_at_and_past_the_quiz_formats_limits(fake, clock, server, tmp_path, unused_tcp_port):
    _, channel = server
    boss = fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with running_endpoint_bot(fake, endpoint_settings(tmp_path, fake, unused_tcp_port), clock):
        started = await fake.slash(boss, channel, "newquiz", title="Limits")
        longest = await fills_form(
            fake, boss, channel, started, "Add question", prompt="P" * PROMPT_MAX, options="Yes\nNo", right="1"
        )
        assert visible_text(longest).startswith("Question 1 added: PPP")
        why = await fills_form(
            fake, boss, channel, started, "Add question", prompt="Why?", options="Yes\nNo", right="2", why="W" * 1000
        )
        assert visible_text(why) == "Question 2 added: Why?"
        options = "\n".join(f"{i}" + "O" * 299 for i in range(10))  # ten options of 300 characters, the most
        wide = await fills_form(
            fake, boss, channel, started, "Add question", prompt="Wide?", options=options, right="1"
        )
        assert visible_text(wide) == "Question 3 added: Wide?"
        widest = await fills_form(  # the longest prompt and options: past one message's 4,096 characters
            fake, boss, channel, started, "Add question", prompt="P" * PROMPT_MAX, options=options, right="1"
        )
        assert visible_text(widest).startswith("That question cannot be used, nothing changed:")
        eleven = "\n".join(f"Option {i}" for i in range(11))
        many = await fills_form(fake, boss, channel, started, "Add question", prompt="Many?", options=eleven, right="1")
        assert "options: 11 given: at most 10 allowed" in visible_text(many)
        assert "1 to 2" in visible_text(
            await fills_form(
                fake, boss, channel, started, "Add question", prompt="Right?", options="Yes\nNo", right="9" * 30
            )
        )
        draft = visible_text(await fake.slash(boss, channel, "newquiz"))
        assert "\n3. Wide?" in draft and "4." not in draft
        assert WHY and RIGHT and OPTIONS  # the fields' labels, named by fills_form's keywords
    assert fake.violations == []
