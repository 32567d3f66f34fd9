"""A typed question's "Answer" deep link carries its own proof, and only the group's members may
use it (issue #46, findings 2 and 10), through python-telegram-bot against the fake Bot API.

Oscar is in no group and Eve is in another one; both open t.me/<bot>?start=... with payloads of
their own making: a guessed run id as links were before they were signed, an altered proof, and
a real link a member forwarded. Each is refused in their language, and nothing of theirs is
stored: no awaited answer, no answer, no row on the group's board, no name in its reveal. Ann,
a member, plays as before. Then a player who opened two groups' questions answers both, and is
told each time which question (its number and group) the message went to."""

from __future__ import annotations

import asyncio

from bot.testing.fake_telegram_polls import poll_json
from bot.texts import i18n
from bot.texts.bidi import strip
from storage.sqlite.store import SqliteStore
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, next_question, reveal_of, running_bot, settings_for

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
RIVERS = """\
id: rivers
title: "Rivers"
description: "One typed question."
questions:
  - id: rhine
    kind: typed
    prompt: "Which river flows through Basel?"
    accept: ["Rhine"]
"""


def payload_of(question) -> str:
    (answer,) = question.buttons()
    return answer["url"].split("start=")[1]


async def silent_after(fake, member: Member, text: str) -> list[str]:
    """Send `text` in the member's private chat; what the bot said there in the next half second."""
    before = len(fake.sent_to(member.chat))
    await fake.send_text(member.chat, member.user, text)
    await asyncio.sleep(0.5)  # time for a reply, if there were one
    return [m.text for m in fake.sent_to(member.chat)[before:]]


async def test_outsiders_with_guessed_altered_or_borrowed_links_are_refused_and_nothing_is_stored(
    fake, clock, tmp_path
):
    cities, rivers = fake.group(-100910, "Cities club"), fake.group(-100920, "Rivers club")
    ann_user, eve_user = fake.user(911, "Ann"), fake.user(921, "Eve", language="ur")
    oscar_user = fake.user(931, "Oscar", language="hi")
    fake.join(rivers, eve_user)  # Eve is in the other group only; Oscar in none
    fake.expected_refusals.add("Bad Request: user not found")  # getChatMember of Oscar and Eve in Cities
    ann, eve, oscar = (Member(fake, fake.private(u), u) for u in (ann_user, eve_user, oscar_user))
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "capitals.yaml").write_text(CAPITALS, encoding="utf-8")
    async with running_bot(fake, settings, clock):
        await fake.send_text(cities, ann_user, "/quiz capitals")  # Ann speaks in the group: a member
        q1 = await next_question(fake, cities, 1)
        real = payload_of(q1)
        borrowed = await oscar.says(f"/start {real}")  # Ann forwarded her link
        assert borrowed.text == i18n.t("hi", "This question is for the members of its group only.")
        assert not any("Locked in" in said or "लॉक" in said for said in await silent_after(fake, oscar, "Bern"))

        run, number, proof = real.removeprefix("answer_").split("_")
        assert (run, number) == ("1", "1") and len(proof) == 20
        guessed = await oscar.says(f"/start answer_{run}_{number}")  # as links were before they were signed
        assert guessed.text == i18n.t(
            "hi",
            "This Answer link is from an older version of the bot and no longer works: "
            "reply to the question in the group instead.",
        )
        altered = await oscar.says(f"/start answer_{run}_{number}_{'0' * 20}")
        assert altered.text == i18n.t("hi", "This button is not valid.")
        assert "Switzerland" not in guessed.text + altered.text + borrowed.text, "the question is not shown"
        assert await silent_after(fake, oscar, "Bern") == [], "ordinary chat: nothing awaited his message"

        borrowed = await eve.says(f"/start {real}")
        assert strip(borrowed.text) == i18n.t("ur", "This question is for the members of its group only.")
        moved = await eve.says(f"/start answer_{run}_2_{proof}")  # the proof of question 1 on another number
        assert strip(moved.text) == i18n.t("ur", "This button is not valid.")
        assert await silent_after(fake, eve, "Bern") == [], "ordinary chat: nothing awaited her message"

        shown = await ann.says(f"/start {real}")
        assert "What is the capital of Switzerland?" in shown.text
        locked = await ann.says("Bern")
        assert locked.text == "Locked in: Bern\n(question 1 in Cities club)"
        clock.advance(31)
        await reveal_of(fake, cities, q1)
        assert "Ann +" in q1.text and "Oscar" not in q1.text and "Eve" not in q1.text
        await fake.wait_for(lambda: any("Quiz over" in m.text for m in fake.sent_to(cities)), what="the podium")
        board = await Member(fake, cities, ann_user).says("/leaderboard")
        assert "Ann" in board.text and "Oscar" not in board.text and "Eve" not in board.text

    store = await SqliteStore.open(settings.quizhost_db)
    try:
        assert [a.player_key for a in await store.run_answers(1)] == ["telegram:911"]
        for user in (oscar_user, eve_user):
            assert await store.awaited_answer(f"telegram:{user['id']}", clock.now()) is None
    finally:
        await store.close()


async def test_a_player_sent_to_two_groups_questions_answers_both_and_is_told_which(fake, clock, tmp_path):
    cities, rivers = fake.group(-100940, "Cities club"), fake.group(-100950, "Rivers club")
    ann_user, bob_user = fake.user(941, "Ann"), fake.user(951, "Bob")
    ann = Member(fake, fake.private(ann_user), ann_user)
    settings = settings_for(fake, tmp_path)
    (tmp_path / "quizzes" / "capitals.yaml").write_text(CAPITALS, encoding="utf-8")
    (tmp_path / "quizzes" / "rivers.yaml").write_text(RIVERS, encoding="utf-8")
    fake.join(rivers, ann_user)
    async with running_bot(fake, settings, clock):
        await fake.send_text(cities, ann_user, "/quiz capitals")
        await fake.send_text(rivers, bob_user, "/quiz rivers")
        capital, river = await next_question(fake, cities, 1), await next_question(fake, rivers, 1)
        assert "capital" in (await ann.says(f"/start {payload_of(capital)}")).text
        assert "river" in (await ann.says(f"/start {payload_of(river)}")).text  # both open at once

        first = await ann.says("Rhine")  # the one she opened last
        assert first.text.startswith("Locked in: Rhine")
        second = await ann.says("Bern")  # no longer lost: the other question still holds
        assert second.text.startswith("Locked in: Bern")
        assert first.text.endswith("\n(question 1 in Rivers club)"), "she is told where each answer went"
        assert second.text.endswith("\n(question 1 in Cities club)")
        clock.advance(31)
        await reveal_of(fake, cities, capital)
        await reveal_of(fake, rivers, river)
    assert "Ann +" in capital.text and "Ann +" in river.text


async def test_an_outsider_cannot_open_a_groups_suggest_privately_link(fake, clock, tmp_path):
    """`/start sg_<group id>` names any group: an outsider is refused in his language and the
    poll he sends after it queues nothing; a member's opens as before."""
    group = fake.group(-100960, "Astronomy club")
    ann_user, oscar_user = fake.user(961, "Ann"), fake.user(962, "Oscar", language="hi")
    fake.make_admin(group, ann_user)
    fake.join(group, ann_user)
    fake.expected_refusals.add("Bad Request: user not found")  # getChatMember of Oscar
    ann, oscar = Member(fake, fake.private(ann_user), ann_user), Member(fake, fake.private(oscar_user), oscar_user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        refused = await oscar.says("/start sg_-100960")
        assert refused.text == i18n.t("hi", "Only the group's members can suggest questions to it.")
        await fake.send_poll(oscar.chat, oscar_user, poll_json("Junk?", ["a", "b"], 0))  # would be his suggestion
        await asyncio.sleep(0.5)  # time for it to be taken, if it were
        opened = await ann.says("/start sg_-100960")
        assert opened.text.startswith("Send me the quiz poll you suggest to the group")
        listing = await Member(fake, group, ann_user).says("/suggestions")
        assert listing.text == "No suggestion is waiting. Members send theirs with /suggest."
