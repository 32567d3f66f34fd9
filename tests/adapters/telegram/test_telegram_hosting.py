"""A hosted game on Telegram (`quizhost run` against the fake Bot API): an admin hosts it, the
questions wait for /next (ten minutes left alone too), /pause refuses presses, /resume gives
back the time left, /skip moves no board, /end gives the podium."""

from __future__ import annotations

from bot.content.catalog import Catalog, default_quiz_folders
from tests.adapters.telegram.test_telegram_e2e import clock, podium_of, tiny  # noqa: F401
from tests.support.telegram_harness import (
    Member,
    fake,  # noqa: F401
    next_question,
    reveal_of,
    right_letter,
    running_bot,
    settings_for,
)


async def test_a_host_paces_a_game_in_a_group(fake, clock, tmp_path):
    group = fake.group(-1049, "Trivia night")
    ann, bob = Member(fake, group, fake.user(41, "Ann")), Member(fake, group, fake.user(42, "Bob"))
    cy = Member(fake, group, fake.user(43, "Cy"))
    fake.make_admin(group, ann.user)
    quiz = tiny(tmp_path)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        assert "Only a chat admin can host" in (await bob.says("/host tiny")).text
        started = await ann.says("/host tiny 30s")  # a time limit the host gives: a pause keeps what is left
        assert "Hosted by Ann" in started.text and "/next" in started.text
        clock.advance(600)  # left alone for ten minutes
        assert "Only the host" in (await bob.says("/next")).text  # a round trip: the loop had its turn
        assert fake.questions(group) == [], "nothing is posted before the host says so"

        await ann.says("/next")
        q1 = await next_question(fake, group, 1)
        clock.advance(10)
        assert "Paused" in (await ann.says("/pause")).text
        refused = await bob.presses(q1, right_letter(q1, quiz))
        assert "paused" in refused.text
        clock.advance(600)
        assert "Resumed" in (await ann.says("/resume")).text
        await fake.wait_for(lambda: any("20 s left" in m.text for m in fake.sent_to(group)), what="the time left")
        assert (await bob.presses(q1, right_letter(q1, quiz))).text.startswith("Locked in")
        await cy.presses(q1, right_letter(q1, quiz))
        await ann.says("/next")  # closes it (the first question of a group waits: nobody was known)
        await reveal_of(fake, group, q1)

        await ann.says("/next")
        q2 = await next_question(fake, group, 2)
        await bob.presses(q2, right_letter(q2, quiz))  # Cy has not answered: it is open
        assert "Skipped" in (await ann.says("/skip")).text
        skipped = await reveal_of(fake, group, q2)
        assert "Skipped by the host" in skipped.text

        assert "The game is over" in (await ann.says("/end")).text
        podium = await podium_of(fake, group, "Quiz stopped")
        assert "Bob" in podium.text
        board = await bob.says("/leaderboard")
        assert "1/1" in board.text and "2/2" not in board.text, "the skipped question counts for nobody"


def panel_button(panel, label: str) -> str:
    return next(b["callback_data"] for b in panel.buttons() if b["text"] == label)


async def test_the_host_panel_in_the_private_chat_paces_the_game_and_counts_the_answers(
    fake,
    clock,
    tmp_path,
):
    group = fake.group(-1050, "Panel night")
    ann_user = fake.user(51, "Ann")
    ann, bob = Member(fake, group, ann_user), Member(fake, group, fake.user(52, "Bob"))
    cy = Member(fake, group, fake.user(53, "Cy"))
    fake.make_admin(group, ann_user)
    private = fake.private(ann_user)
    host = Member(fake, private, ann_user)
    quiz = tiny(tmp_path)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        started = await ann.says("/host tiny")
        assert "Your host panel is in your private chat with me." in started.text
        panel = await fake.wait_for(lambda: next(iter(fake.sent_to(private)), None), what="the host panel")
        assert "Host panel" in panel.text and "Next posts the first question." in panel.text
        assert [b["text"] for b in panel.buttons()] == ["Next", "Pause", "Resume", "Skip", "Hint", "End"]

        pressed = await host.presses_data(panel.message_id, panel_button(panel, "Next"))
        assert pressed.text == "Next."
        q1 = await next_question(fake, group, 1)
        for member in (bob, cy):
            await member.presses(q1, right_letter(q1, quiz))
        clock.advance(5)  # the panel's edits are budgeted: one in a few seconds
        await fake.wait_for(lambda: "2 of 2 answered" in panel.text, what="the panel's count")
        await host.presses_data(panel.message_id, panel_button(panel, "Next"))  # closes question 1
        await reveal_of(fake, group, q1)

        await host.presses_data(panel.message_id, panel_button(panel, "Next"))
        q2 = await next_question(fake, group, 2)
        await bob.presses(q2, right_letter(q2, quiz))
        clock.advance(5)
        await fake.wait_for(lambda: "1 of 2 answered" in panel.text, what="the count of question 2")
        paused = await host.presses_data(panel.message_id, panel_button(panel, "Pause"))
        assert paused.text.startswith("Paused")
        assert "paused" in (await cy.presses(q2, right_letter(q2, quiz))).text

        forged = panel_button(panel, "End")[:-1] + ("0" if panel_button(panel, "End")[-1] != "0" else "1")
        refused = await host.presses_data(panel.message_id, forged)
        assert "not valid" in refused.text, "a button whose proof is not ours does nothing"
        assert (
            "Only the host"
            in (await Member(fake, private, bob.user).presses_data(panel.message_id, panel_button(panel, "End"))).text
        ), "the panel's buttons are its host's"
        ended = await host.presses_data(panel.message_id, panel_button(panel, "End"))
        assert ended.text == "The game is over."
        await podium_of(fake, group, "Quiz stopped")


async def test_a_host_who_never_started_the_bot_in_private_is_told_and_plays_with_commands(
    fake,
    clock,
    tmp_path,
):
    group = fake.group(-1051, "No panel")
    ann_user = fake.user(61, "Ann")
    ann = Member(fake, group, ann_user)
    fake.make_admin(group, ann_user)
    fake.remove_bot(fake.private(ann_user))  # a bot may not write first: 403 there
    fake.expected_refusals.add("Forbidden: bot was blocked by the user")
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        started = await ann.says("/host tiny")
        assert "I cannot write to you in private" in started.text
        await ann.says("/next")
        await next_question(fake, group, 1)


async def test_an_answer_after_the_hosts_hint_earns_half_the_speed_points(fake, clock, tmp_path):
    quiz = Catalog.load(default_quiz_folders()).get("trivia-night")
    assert quiz is not None
    group = fake.group(-1052, "Hint night")
    ann, bob = Member(fake, group, fake.user(71, "Ann")), Member(fake, group, fake.user(72, "Bob"))
    fake.make_admin(group, ann.user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await ann.says("/host trivia-night")  # in order: the first question has a hint
        await ann.says("/next")
        q1 = await next_question(fake, group, 1)
        assert "Hint shown." in (await ann.says("/hint")).text
        hint = await fake.wait_for(
            lambda: next((m for m in fake.sent_to(group) if m.text.startswith("💡 Hint for question 1:")), None),
            what="the hint",
        )
        asked = next(q for q in quiz.questions if q.prompt.get("en") in q1.text)
        assert asked.hint is not None and asked.hint.get("en") in hint.text
        clock.advance(10)  # a third of the 30 s: 833 speed points, half of them after the hint
        await bob.presses(q1, right_letter(q1, quiz))
        await ann.says("/end")
        podium = await podium_of(fake, group, "Quiz stopped")
        assert "Bob: 416 pts" in podium.text


async def test_the_host_panel_says_when_a_question_closes_at_its_time_limit(fake, clock, tmp_path):
    group = fake.group(-1053, "Timed night")
    ann_user = fake.user(81, "Ann")
    fake.make_admin(group, ann_user)
    private = fake.private(ann_user)
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        await Member(fake, group, ann_user).says("/host tiny 30s")
        panel = await fake.wait_for(lambda: next(iter(fake.sent_to(private)), None), what="the host panel")
        await Member(fake, private, ann_user).presses_data(panel.message_id, panel_button(panel, "Next"))
        q1 = await next_question(fake, group, 1)
        clock.advance(31)  # nobody answers: the time limit closes it, no press nor host action
        await reveal_of(fake, group, q1)
        clock.advance(5)  # the panel's edit budget
        await fake.wait_for(lambda: "Closed: Next posts the next question." in panel.text, what="the panel's close")
