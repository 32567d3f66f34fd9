"""A typed question's answer on Discord counts only from the run's own channel (issue #46,
finding 2), through discord.py and the fake Discord.

The "Answer" modal's custom_id names the run and the question (`qt:<run>:<n>`), and run ids
count from 1. Submitted from a channel of another server, from a DM or from another channel of
the same server, it is refused in the submitter's language, and nothing is stored: no answer, no
name in the reveal. A member in the run's channel answers as before."""

from __future__ import annotations

from bot.testing.fake_discord_modals import text_inputs
from bot.texts import i18n
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.support.discord_harness import (  # noqa: F401
    fake,
    is_question,
    make_settings,
    running_bot,
    server,
)

CAPITALS = """\
id: capitals
title: "Capitals"
description: "One typed question."
questions:
  - id: ch
    kind: typed
    prompt: "What is the capital of Switzerland?"
    accept: ["Bern"]
"""


async def test_a_modal_submitted_outside_the_runs_channel_is_refused_and_nothing_is_stored(
    fake, clock, server, tmp_path
):
    guild, channel = server
    other_channel = fake.guilds[guild]["channels"][1]  # the same server's "random"
    other_server = fake.add_guild("Rivers server", channels=("rivers",))
    rivers = fake.guilds[other_server]["channels"][0]
    ann, eve = fake.add_user("Ann"), fake.add_user("Eve", locale="ur")
    oscar, mia = fake.add_user("Oscar", locale="hi"), fake.add_user("Mia")
    settings = make_settings(tmp_path, fake)
    (tmp_path / "quizzes" / "capitals.yaml").write_text(CAPITALS, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await fake.slash(ann, channel, "quiz", topic="capitals")
        q1 = await fake.wait_message(channel, is_question(1))
        answer = next(b for b in q1.buttons() if b["custom_id"].startswith("quizhost:qt:"))
        assert answer["custom_id"] == "quizhost:qt:1:1", "a guessable id: the channel is what decides"
        modal = await fake.press(ann, q1.id, answer["custom_id"])
        field = text_inputs(modal)[0]["label"]

        from_other_server = await fake.submit_modal(eve, rivers, modal, {field: "Bern"})
        assert strip(from_other_server["content"]) == i18n.t("ur", "This button is not valid.")
        from_a_dm = await fake.submit_modal(oscar, fake.dm_channel(oscar), modal, {field: "Bern"})
        assert strip(from_a_dm["content"]) == i18n.t("hi", "This button is not valid.")
        from_another_channel = await fake.submit_modal(mia, other_channel, modal, {field: "Bern"})
        assert from_another_channel["content"] == "This button is not valid."

        mine = await fake.submit_modal(ann, channel, modal, {field: "Bern"})
        assert mine["content"] == "Locked in: Bern"
        clock.advance(31)
        revealed = await fake.wait_message(channel, lambda m: m.id == q1.id and "Right answer" in m.text)
        assert "Ann +" in revealed.text
        assert not any(name in revealed.text for name in ("Eve", "Oscar", "Mia"))

    store = await SqliteStore.open(settings.quizhost_db)
    try:
        assert [a.player_key for a in await store.run_answers(1)] == [f"discord:{ann.id}"]
    finally:
        await store.close()
