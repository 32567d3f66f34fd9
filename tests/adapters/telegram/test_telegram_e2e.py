"""Telegram end to end: `quizhost run` (its real wiring, real PTB) against the fake Bot API.

Time is a FakeClock: a test moves it past a deadline instead of waiting 30 s.
"""

from __future__ import annotations

import asyncio
import re
import traceback

import pytest
from telegram.error import InvalidToken

from bot.adapters.telegram import runtime as telegram_runtime
from bot.app.wiring import run
from bot.commands.table import descriptions
from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.clock import FakeClock
from bot.testing.fake_telegram import ANONYMOUS_ADMIN, FakeBotApi
from bot.texts.bidi import strip
from tests.support.telegram_harness import (
    Member,
    button,
    clean_environment,
    next_question,
    quiz_folder,
    reveal_of,
    right_letter,
    running_bot,
    settings_for,
    wrong_letter,
)


@pytest.fixture
async def fake(monkeypatch):
    clean_environment(monkeypatch)
    monkeypatch.setattr(telegram_runtime, "RETRY_BASE_SECONDS", 0.01)  # back-off without the wait
    api = FakeBotApi()
    await api.start()
    yield api
    await api.stop()
    assert api.unanswered() == [], "every button press must be answered"
    unexpected = [(c.method, c.error) for c in api.refused() if c.error not in api.expected_refusals]
    assert unexpected == [], "Telegram would have refused these calls"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def tiny(tmp_path):
    return Catalog.load([quiz_folder(tmp_path)]).get("tiny")


def podium_of(fake: FakeBotApi, chat: dict, heading: str = "Quiz over"):
    return fake.wait_for(
        lambda: next((m for m in fake.sent_to(chat) if heading in m.text), None), what=f"the podium ({heading})"
    )


async def test_a_group_of_three_plays_the_whole_pipeline_quiz(fake, clock, tmp_path, monkeypatch):
    # 8 questions make 26 group messages in a second of wall time; AIORateLimiter would
    # spread them over a minute and more (Telegram's 20/minute). Lifted for this test only.
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)
    quiz = Catalog.load(default_quiz_folders()).get("pipeline")
    group = fake.group(-1001, "Pipeline fans")
    ann, bob, cy = (Member(fake, group, fake.user(10 + i, name)) for i, name in enumerate(("Ann", "Bob", "Cy"), 1))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        start = await ann.says("/quiz@QuizHostBot pipeline")
        assert "Model and Pipeline Parallelism" in start.text and "8 questions" in start.text
        await first_question_with_every_kind_of_press(fake, clock, quiz, ann, bob, cy)
        await questions_two_to_eight(fake, quiz, ann, bob, cy)

        podium = await podium_of(fake, group)
        lines = podium.text.splitlines()[2:]  # under the title
        assert lines[0].startswith("🥇 Ann: 10500") and lines[1].startswith("🥈 Bob: 6700")
        assert lines[2].startswith("🥉 Cy: 1000")
        # what counts against Telegram's 20 messages a minute in a group: 2 per question (the
        # question and its edit into the reveal; there were 3 with a reveal reply) plus the start
        # reply and the podium
        group_sends = [c for c in fake.calls if c.params.get("chat_id") == group["id"] and c.status == 200]
        assert len(group_sends) == 2 * 8 + 2
        board = await cy.says("/leaderboard")
        assert [line.split(":")[0] for line in board.text.splitlines()[2:5]] == ["🥇 Ann", "🥈 Bob", "🥉 Cy"]
        assert "10500" in board.text and "8/8" in board.text and "1/7" in board.text
        stats = await bob.says("/me")
        assert "Bob" in stats.bold[0] and "6700" in stats.text and "75%" in stats.text
        assert "Best streak: 4" in stats.text
    assert len(fake.questions(group)) == 8 and all(q.keyboard == [] for q in fake.questions(group))


async def first_question_with_every_kind_of_press(fake, clock, quiz, ann, bob, cy) -> None:
    """Right (Ann, at once), wrong (Bob, after 15 s), repeated, forged, garbage and late presses."""
    q1 = await next_question(fake, ann.chat, 1)
    assert q1.text.startswith("Question 1/8") and q1.bold == [q1.text.splitlines()[0]]
    right, wrong = right_letter(q1, quiz), wrong_letter(q1, quiz)
    assert (await ann.presses(q1, right)).text == f"Locked in: {right}"
    clock.advance(15)
    assert (await bob.presses(q1, wrong)).text == f"Locked in: {wrong}"
    assert (await bob.presses(q1, right)).text == f"You already answered {wrong}"
    assert "not valid" in (await cy.presses_data(q1.message_id, "qa:999:1:0")).text
    assert "not valid" in (await cy.presses_data(q1.message_id, "'; DROP TABLE answers; --")).text
    late = button(q1, right)["callback_data"]  # pressed as the question closes
    clock.advance(15)  # the deadline: the question closes

    reveal = await reveal_of(fake, ann.chat, q1)
    assert reveal is q1 and not [m for m in fake.sent_to(ann.chat) if m.reply_to == q1.message_id], (
        "the reveal is the question's edit: no reply"
    )
    assert q1.keyboard == [], "a closed question keeps no buttons"
    assert f"✅ {right}) " in q1.text and len(re.findall(r"^[A-D] 1 [▓░]{10}$", q1.text, re.M)) == 2  # the split
    assert quiz.questions[0].explanation.get("en") in reveal.text
    assert "Ann +1000" in reveal.text and "Bob +" not in reveal.text
    assert "closed" in (await cy.presses_data(q1.message_id, late)).text


async def questions_two_to_eight(fake, quiz, ann, bob, cy) -> None:
    """Each closes once everyone who plays has answered: Cy wrong until the last, Bob wrong on 4."""
    for number in range(2, 9):
        q = await next_question(fake, ann.chat, number)
        right, wrong = right_letter(q, quiz), wrong_letter(q, quiz)
        assert (await cy.presses(q, right if number == 8 else wrong)).text.startswith("Locked in")
        assert (await ann.presses(q, right)).text == f"Locked in: {right}"
        assert (await bob.presses(q, wrong if number == 4 else right)).text.startswith("Locked in")
        reveal = await reveal_of(fake, ann.chat, q)
        question = next(x for x in quiz.questions if x.prompt.get("en") in q.text)
        assert question.explanation.get("en") in reveal.text


async def test_a_private_chat_plays_from_a_deep_link_and_closes_at_each_answer(fake, clock, tmp_path):
    dev = fake.user(21, "Dev", "Patel")
    chat = fake.private(dev)
    me = Member(fake, chat, dev)
    quiz = tiny(tmp_path)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        start = await me.says("/start quiz_tiny")  # t.me/QuizHostBot?start=quiz_tiny
        assert "3 questions" in start.text
        for number, correct in ((1, True), (2, False), (3, True)):
            q = await next_question(fake, chat, number)
            letter = right_letter(q, quiz) if correct else wrong_letter(q, quiz)
            assert (await me.presses(q, letter)).text == f"Locked in: {letter}"
            reveal = await reveal_of(fake, chat, q)  # no clock move: the only player has answered
            assert ("Dev Patel +1000" in reveal.text) is correct
        podium = await podium_of(fake, chat)
        assert "Dev Patel: 2000" in podium.text
        dev["first_name"] = "Devi"  # renamed in Telegram: the next update carries the new name
        assert (await me.says("/stats")).bold == ["📊 Devi Patel in this chat"]
        assert "🥇 Devi Patel: 2000" in (await me.says("/leaderboard")).text
        group_board = await Member(fake, fake.group(-1021), dev).says("/leaderboard")
        assert "No answers yet" in group_board.text, "each chat has its own leaderboard"
    menu = [c["command"] for c in fake.commands[""]]
    assert menu == list(descriptions("en")) and set(fake.commands) == {"", "en", "hi", "sn", "ur"}


async def test_only_the_starter_or_an_admin_may_stop_a_group_quiz(fake, clock, tmp_path):
    # one group per case: each stays inside Telegram's 20 messages a minute per group
    first, second, third = fake.group(-1031), fake.group(-1032), fake.group(-1033)
    users = {name: fake.user(30 + i, name) for i, name in enumerate(("Ann", "Bob", "Cy"), 1)}
    ann, bob, cy = (Member(fake, first, users[n]) for n in ("Ann", "Bob", "Cy"))
    fake.make_admin(first, users["Cy"])
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/quiz tiny")
        q1 = await next_question(fake, first, 1)
        refusal = await bob.says("/stop")  # says() checks that it answers Bob's own message
        assert "Only the person who started this quiz or a chat admin" in refusal.text
        assert "Only the person" in (await bob.says("/stop@QuizHostBot")).text
        assert len(fake.called("getChatMember")) == 1, "admin rights are cached briefly"
        assert (await bob.presses(q1, "A")).text == "Locked in: A", "a refused /stop changes nothing"
        assert "Quiz stopped by Cy" in (await cy.says("/stop")).text  # an admin
        assert "Bob" in (await podium_of(fake, first, "Quiz stopped")).text
        assert q1.keyboard == []

        starter = Member(fake, second, users["Ann"])
        await starter.says("/quiz tiny")
        await next_question(fake, second, 1)
        assert "Quiz stopped by Ann" in (await starter.says("/stop")).text

        await Member(fake, third, users["Bob"]).says("/quiz tiny")
        await next_question(fake, third, 1)
        anonymous = Member(fake, third, fake.user(ANONYMOUS_ADMIN, "Group", language=None))
        stopped = await anonymous.says("/stop", sender_chat=third)  # an admin posting as the group
        assert "Quiz stopped by Quiz group" in stopped.text


async def test_only_admins_change_a_groups_language_and_settings(fake, clock, tmp_path):
    group = fake.group(-1034)
    bob, cy = Member(fake, group, fake.user(32, "Bob")), Member(fake, group, fake.user(33, "Cy"))
    fake.make_admin(group, cy.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Only chat admins" in (await bob.says("/language hi")).text
        assert "Only chat admins" in (await bob.says("/settings time 20")).text
        assert "Question time: 20 s" in (await cy.says("/settings time 20")).text
        picker = await bob.says("/language")
        ql = next(b["callback_data"] for b in picker.buttons() if b["callback_data"] == "ql:hi")
        refused = await bob.presses_data(picker.message_id, ql)
        assert refused.show_alert and "Only chat admins" in refused.text
        accepted = await cy.presses_data(picker.message_id, "ql:sn")
        assert accepted.text is None and not accepted.show_alert
        await fake.wait_for(lambda: any("chiShona" in m.text for m in fake.sent_to(group)), what="the new language")


async def test_commands_for_other_bots_are_left_alone_and_the_catalog_starts_a_quiz(fake, clock, tmp_path):
    group = fake.group(-1035)
    eve = Member(fake, group, fake.user(35, "Eve"))
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await fake.send_text(group, eve.user, "/quiz@OtherBot tiny")
        await fake.send_text(group, eve.user, "/weather")  # a bare command some other bot knows
        assert "Unknown command /weather" in (await eve.says("/weather@QuizHostBot")).text
        assert len(fake.sent_to(group)) == 1, "nothing answered the other bots' commands"
        catalog = await eve.says("/quiz")
        assert {b["callback_data"] for b in catalog.buttons()} >= {"qp:tiny", "qp:pipeline"}
        picked = await eve.presses_data(catalog.message_id, "qp:tiny")
        assert picked.text is None  # answered silently; the chat sees the start
        assert (await next_question(fake, group, 1)).text.startswith("Question 1/3")
        assert "3 questions" in "".join(m.text for m in fake.sent_to(group))
        assert "already running" in (await eve.says("/quiz pipeline")).text


async def test_429_5xx_and_dropped_connections_lose_nothing(fake, clock, tmp_path):
    group = fake.group(-1004)
    ann = Member(fake, group, fake.user(41, "Ann"))
    settings = settings_for(fake, tmp_path)
    quiz = tiny(tmp_path)
    fake.fail("sendMessage", "429", retry_after=1, when=lambda p: "reply_markup" in p)  # question 1
    # a dropped connection may have posted it: sent again (here it had not: posted once)
    fake.fail("sendMessage", "drop", when=lambda p: "Question 2/3" in p["text"])
    fake.fail("editMessageText", "drop")  # a reveal (the closing edit), twice: tried until it lands
    fake.fail("editMessageText", "500")
    fake.fail("answerCallbackQuery", "500")
    fake.fail("sendMessage", "drop", when=lambda p: "Quiz over" in p["text"])  # the podium
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz tiny")
        for number in (1, 2, 3):
            q = await next_question(fake, group, number)
            assert (await ann.presses(q, right_letter(q, quiz))).text.startswith("Locked in")
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline
            await reveal_of(fake, group, q)
        await podium_of(fake, group)
    assert fake.failures_left() == 0
    first_posts = [c for c in fake.calls if c.method == "sendMessage" and "Question 1/3" in c.params["text"]]
    assert [c.status for c in first_posts] == [429, 200]
    second_posts = [c for c in fake.calls if c.method == "sendMessage" and "Question 2/3" in c.params["text"]]
    assert [c.status for c in second_posts] == [0, 200]
    sent = fake.sent_to(group)
    titles = [m.text.splitlines()[0] for m in fake.questions(group)]
    assert titles == [f"Question {n}/3 · Tiny <Quiz> & Co" for n in (1, 2, 3)]
    assert [q.edits for q in fake.questions(group)] == [1, 1, 1]
    assert sum("Right answer" in m.text for m in sent) == 3 and sum("Quiz over" in m.text for m in sent) == 1
    assert [c.status for c in fake.calls if c.method == "editMessageText"] == [0, 500, 200, 200, 200]


async def test_a_restart_resumes_the_run_and_old_buttons_still_behave(fake, tmp_path):
    clock = FakeClock()
    settings = settings_for(fake, tmp_path)
    group = fake.group(-1005)
    ann, bob = Member(fake, group, fake.user(51, "Ann")), Member(fake, group, fake.user(52, "Bob"))
    quiz = tiny(tmp_path)
    async with running_bot(fake, settings, clock):
        await ann.says("/quiz tiny")
        q1 = await next_question(fake, group, 1)
        right = right_letter(q1, quiz)
        await ann.presses(q1, right)
    # stopped in the middle of question 1; started again on the same database
    async with running_bot(fake, settings, clock):
        assert (await bob.presses(q1, wrong_letter(q1, quiz))).text.startswith("Locked in")
        assert (await ann.presses(q1, right)).text == f"You already answered {right}"
        clock.advance(30)
        assert "Ann +1000" in (await reveal_of(fake, group, q1)).text
        q2 = await next_question(fake, group, 2)
        old_button = button(q2, right_letter(q2, quiz))["callback_data"]
    clock.advance(120)  # down past question 2's deadline
    async with running_bot(fake, settings, clock):
        assert "Nobody answered" in (await reveal_of(fake, group, q2)).text  # closed at once
        assert "closed" in (await ann.presses_data(q2.message_id, old_button)).text
        q3 = await next_question(fake, group, 3)
        # Telegram sends a press on a message it no longer shows in full without the message
        data = button(q3, right_letter(q3, quiz))["callback_data"]
        assert (await ann.presses_data(q3.message_id, data, inaccessible=True)).text.startswith("Locked in")
        clock.advance(30)  # Bob played question 1: question 3 waits for him or its deadline
        assert "Ann: 2000" in (await podium_of(fake, group)).text  # no streak bonus: question 2 broke it


async def test_webhook_mode_takes_updates_with_the_secret_only(fake, clock, tmp_path, unused_tcp_port):
    url = f"http://127.0.0.1:{unused_tcp_port}/telegram/hook"
    settings = settings_for(
        fake,
        tmp_path,
        telegram_webhook_url=url,
        telegram_webhook_listen=f"127.0.0.1:{unused_tcp_port}",
        telegram_webhook_secret="s3cret_token-1",
    )
    group = fake.group(-1006)
    ann = Member(fake, group, fake.user(61, "Ann"))
    async with running_bot(fake, settings, clock):
        assert fake.webhook == {"url": url, "secret_token": "s3cret_token-1"}
        await ann.says("/quiz tiny")  # the fake POSTs it to the webhook with the secret
        q1 = await next_question(fake, group, 1)
        assert (await ann.presses(q1, "B")).text == "Locked in: B"

        forged = fake.text_update(group, ann.user, "/stop")
        assert await fake.post_to_webhook(forged, "wrong-secret") == 403
        assert await fake.post_to_webhook(fake.text_update(group, ann.user, "/stop"), None) == 403
        await ann.says("/help")  # handled after the forged ones, had they been taken
        assert q1.keyboard != [] and not any("stopped" in m.text for m in fake.sent_to(group))
    assert fake.called("getUpdates") == []


async def test_quiz_texts_with_html_characters_show_as_written(fake, clock, tmp_path):
    dev = fake.user(71, "<Dev> & co")
    chat = fake.private(dev)
    me = Member(fake, chat, dev)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await me.says("/quiz small")
        q1 = await next_question(fake, chat, 1)
        assert q1.bold == ["Question 1/3 · Tiny <Quiz> & Co"], "only the title is bold"
        assert "Is 1 < 2 & 3 > 2 in <b>Python</b>?" in q1.text
        assert ") <b>no</b>" in q1.text and ") &amp; maybe" in q1.text
        assert {b["text"][4:] for b in q1.buttons()} == {"<b>no</b>", "yes & always", "only if x > y", "&amp; maybe"}
        await me.presses(q1, right_letter(q1, tiny(tmp_path)))
        reveal = await reveal_of(fake, chat, q1)
        assert "so the <i>whole</i> & is true." in reveal.text and "<Dev> & co +1000" in reveal.text
        stats = await me.says("/stats")
        assert stats.bold == ["📊 <Dev> & co in this chat"]


async def test_an_urdu_speaker_gets_the_quiz_in_urdu_laid_out_right_to_left(fake, clock, tmp_path):
    quiz = Catalog.load(default_quiz_folders()).get("pipeline")
    ali = fake.user(81, "Ali", language="ur-PK")  # the client's language picks the run's
    chat = fake.private(ali)
    me = Member(fake, chat, ali)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await me.says("/quiz pipeline 2")
        q1 = await next_question(fake, chat, 1)
        assert quiz.title.get("ur") in q1.bold[0]
        # every line opens with a right-to-left mark, so Telegram lays it out from the right
        assert all(line.startswith("\u200f") for line in q1.text.splitlines() if line)
        letter = right_letter(q1, quiz, "ur")
        assert strip((await me.presses(q1, letter)).text).endswith(letter)
        reveal = await reveal_of(fake, chat, q1)
        question = next(x for x in quiz.questions if x.prompt.get("ur") in strip(q1.text))
        assert question.explanation.get("ur") in strip(reveal.text) and "Ali" in reveal.text


async def test_a_wrong_token_stops_the_bot_with_a_message_that_does_not_show_it(fake, clock, tmp_path):
    settings = settings_for(fake, tmp_path, telegram_bot_token="999:WRONG-secret-token")
    fake.expected_refusals.add("Unauthorized")
    with pytest.raises(InvalidToken) as refused:
        await asyncio.wait_for(run(settings, clock=clock, stop=asyncio.Event()), 10)
    shown = "".join(traceback.format_exception(refused.value))
    assert "TELEGRAM_BOT_TOKEN" in shown and "WRONG-secret-token" not in shown


async def test_a_group_upgraded_to_a_supergroup_keeps_its_quiz_and_leaderboard(fake, clock, tmp_path):
    """Telegram gives an upgraded group a new id and tells the bot with a service message."""
    quiz = tiny(tmp_path)
    old = {"id": -1051, "type": "group", "title": "Upgraded"}
    fake.chats[old["id"]] = old
    new = fake.group(-1001051, "Upgraded")
    ann_user = fake.user(51, "Ann")
    ann_old, ann_new = Member(fake, old, ann_user), Member(fake, new, ann_user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann_old.says("/quiz tiny")
        first = await next_question(fake, old, 1)
        assert (await ann_old.presses(first, right_letter(first, quiz))).text.startswith("Locked in")
        migrated = fake.text_update(old, ann_user, "")
        del migrated["message"]["text"]
        migrated["message"]["migrate_to_chat_id"] = new["id"]
        await fake._deliver(migrated)
        await fake.wait_for(
            lambda: any(
                c.method == "getUpdates" and c.params.get("offset", 0) > migrated["update_id"] for c in fake.calls
            ),
            what="the migration handled",
        )
        clock.advance(30)  # question 1's deadline: the answer and question 2 go to the new id
        second = await next_question(fake, new, 1)
        assert "Question 2/3" in strip(second.text)
        assert any("+1000" in m.text for m in fake.sent_to(new)), "the reveal of question 1"
        assert (await ann_new.presses(second, right_letter(second, quiz))).text.startswith("Locked in")
        board = await ann_new.says("/leaderboard")
        assert "🥇 Ann" in board.text and "2/2" in board.text
