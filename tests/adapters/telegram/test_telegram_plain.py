"""Plain text for screen readers on Telegram (/settings plain on): a whole game in a group with
teams (the kinds tour: a picture, every kind of question, the podium), the boards, the
settings, a hosted game, every message the bot sent and every private answer it gave read
back from the fake Bot API: no block bars, no decorative symbols, the split counted in words,
the right answer said as a sentence, the picture's description first in its caption. A
private chat's player sets it for themself; a chat without it keeps the bars, counts first."""

from __future__ import annotations

import asyncio
import json
import re

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of, tiny  # noqa: F401 (fixtures)
from tests.support.plain_text import BARS, unplain
from tests.support.telegram_harness import Member, next_question, reveal_of, right_letter, running_bot, settings_for

TOUR = Catalog.load(default_quiz_folders()).get("kinds-tour")
ALT = TOUR.questions[0].media.alt.get("en")  # type: ignore[union-attr]


def everything_said(fake: FakeBotApi) -> list[str]:
    """Every text, caption, button label and private answer the bot sent, edits included."""
    said = []
    for call in fake.calls:
        params = call.params
        said += [str(params[key]) for key in ("text", "caption") if params.get(key)]
        markup = params.get("reply_markup")
        rows = (json.loads(markup) if isinstance(markup, str) else markup or {}).get("inline_keyboard", [])
        said += [button["text"] for row in rows for button in row]
        if isinstance(params.get("media"), str):  # editMessageMedia: the caption rides in the media
            said += [json.loads(params["media"]).get("caption") or ""]
    return said


async def play_the_tour(fake: FakeBotApi, clock, group: dict, ann: Member, bob: Member) -> list[Sent]:
    """Ann and Bob answer every question (options by pressing, texts by replying); each closes."""
    questions = []
    for number in range(1, len(TOUR.questions) + 1):
        q = await next_question(fake, group, number)
        letters = [b["text"][0] for b in q.buttons() if b.get("callback_data", "").startswith("qa:")]
        if letters:
            await ann.presses(q, letters[0])
            await bob.presses(q, letters[-1])
        else:
            await fake.reply_to_bot(group, ann.user, "14" if "number" in q.text else "allreduce", q.message_id)
        questions.append(await closed(fake, clock, q))
    return questions


async def closed(fake: FakeBotApi, clock, question: Sent) -> Sent:
    """The question once closed: at once when everyone known answered, else at its deadline (the
    clock moves a second at a time, so a question posted meanwhile keeps its time)."""
    while not (question.edits and not question.keyboard):
        clock.advance(1)
        await asyncio.sleep(0.01)
    return question


async def test_a_whole_game_with_teams_a_picture_boards_and_a_host_in_plain_text(fake, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)
    group = fake.group(-5001, "Listening club")
    fake.bot_deletes_in.add(group["id"])
    fake.expected_refusals.add("Bad Request: chat not found")  # Ann's typed answer's ack: she has no private chat
    tess_user = fake.user(90, "Tess")
    fake.make_admin(group, tess_user)
    fake.private(tess_user)  # the host's panel goes to her private chat
    tess = Member(fake, group, tess_user)
    ann, bob = Member(fake, group, fake.user(91, "Ann")), Member(fake, group, fake.user(92, "Bob"))
    quiz = tiny(tmp_path)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Only chat admins" in (await ann.says("/settings plain on")).text
        said = await tess.says("/settings plain on")
        assert "Plain text for screen readers: on" in said.text and "Settings" in said.text
        await tess.says("/teams Owls Foxes")
        lineup = await fake.wait_for(lambda: next((m for m in fake.sent_to(group) if m.buttons()), None))
        for member, team in ((ann, 0), (bob, 1)):
            await member.presses_data(lineup.message_id, lineup.buttons()[team]["callback_data"])

        await tess.says("/quiz kinds-tour")
        q1, q2, *_, poll, ordering = await play_the_tour(fake, clock, group, ann, bob)
        podium = await podium_of(fake, group)
        for member in (ann, bob):
            await member.says("/leaderboard")
            await member.says("/stats")
        await tess.says("/help")
        await tess.says("/quizzes")
        assert "Question statistics" in (await tess.says("/quizstats kinds-tour")).text

        await tess.says("/host tiny")
        await tess.says("/next")
        hosted = await next_question(fake, group, 8)
        await ann.presses(hosted, right_letter(hosted, quiz))
        await tess.says("/next")
        await reveal_of(fake, group, hosted)
        await tess.says("/end")
        await podium_of(fake, group, "Quiz stopped")

    right = next(line for line in q1.text.splitlines() if line.startswith("Right answer: "))
    assert re.fullmatch(r"Right answer: [A-D], 3/7\.", right), "the right answer as a sentence, letter and text"
    assert re.search(r"^[A-D]: 1 answer, 50%$", q1.text, re.M), "the split counted in words"
    assert q1.photo and q1.text.startswith(f"Picture: {ALT}"), "the caption says the picture first"
    assert fake.called("sendPhoto")[0].params["caption"].startswith(f"Picture: {ALT}")
    assert "Right answers: " in q2.text and "Poll results" in poll.text and "Right order: " in ordering.text
    assert re.search(r"^Teams:\n1\. \w+: \d+ · 1 member$", q2.text, re.M)
    assert re.search(r"^1\. (Ann|Bob): \d+ pts", podium.text, re.M), "places in words, no medals"
    assert unplain(everything_said(fake)) == []


async def test_a_player_reads_their_private_chat_in_plain_text_while_a_group_keeps_its_bars(fake, clock, tmp_path):
    quiz = tiny(tmp_path)
    ann_user = fake.user(95, "Ann")
    private = Member(fake, fake.private(ann_user), ann_user)
    group = fake.group(-5002, "Sighted club")
    ann = Member(fake, group, ann_user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Plain text for screen readers: on" in (await private.says("/settings plain on")).text
        await private.says("/quiz tiny")
        mine = await next_question(fake, private.chat, 1)
        await private.presses(mine, right_letter(mine, quiz))
        await reveal_of(fake, private.chat, mine)
        assert re.search(r"^[A-D]: 1 answer, 100%$", mine.text, re.M)
        assert not BARS.search(mine.text) and "✅" not in mine.text

        await ann.says("/quiz tiny")
        q = await next_question(fake, group, 1)
        await ann.presses(q, right_letter(q, quiz))
        clock.advance(30)
        await reveal_of(fake, group, q)
        assert re.search(rf"^{right_letter(q, quiz)} 1 ▓{{10}}$", q.text, re.M), "the count before its bar"
        assert "✅ Right answer: " in q.text
