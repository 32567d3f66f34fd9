"""Writing a quiz in the chat on Telegram (issue #23), end to end: `quizhost run` against the fake
Bot API. The author sends quiz polls (made in the chat and forwarded), undoes, edits and moves
questions across a restart, saves; an admin adds the quiz to a group through its startgroup
link and the group plays it; anyone copies it with the share link."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.telegram import runtime as telegram_runtime
from bot.content.drafts import quiz_data
from bot.content.quiz_check import check_quiz_data
from bot.domain.model import Quiz
from bot.testing.fake_telegram import Sent
from bot.testing.fake_telegram_polls import poll_json
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of  # noqa: F401 (the fixtures)
from tests.support.chat_transcript import Transcript
from tests.support.telegram_harness import Member, next_question, reveal_of, right_letter, running_bot, settings_for

TRANSCRIPT = Path("/tmp/authoring-transcript.md")

LARGEST = poll_json("Which planet is the largest?", ["Mars", "Jupiter", "Venus"], 1, "Jupiter is 11 Earths wide.")
MOONS_WRONG = poll_json("How many moons has Mars?", ["One", "Three"], 0)
MOONS = poll_json("How many moons has Mars?", ["One", "Two", "Three"], 1, "Phobos and Deimos.")
CLOSEST = poll_json("Which planet is closest to the Sun?", ["Venus", "Mercury", "Earth"], 1)
SUN = poll_json("What is the Sun?", ["A planet", "A star", "A moon"], 1, "A G-type main-sequence star.")
DWARF = poll_json("Which one is a dwarf planet?", ["Pluto", "Saturn"], 0, "Since 2006.")
OOPS = poll_json("Is this question a mistake?", ["Yes", "No"], 0)


async def sends_poll(member: Member, poll: dict, forwarded_from: dict | None = None) -> Sent:
    """The member sends a poll in their private chat; returns the bot's answer to it."""
    fake = member.fake
    seen = {m.message_id for m in fake.sent_to(member.chat)}
    await fake.send_poll(member.chat, member.user, poll, forwarded_from)
    return await fake.wait_for(
        lambda: next((m for m in fake.sent_to(member.chat) if m.message_id not in seen), None), what="the poll's answer"
    )


async def answer_in(member: Member, action) -> Sent:
    """Run `action` (a link opened, a press) and return the bot's next message in the member's chat."""
    fake = member.fake
    seen = {m.message_id for m in fake.sent_to(member.chat)}
    await action
    return await fake.wait_for(
        lambda: next((m for m in fake.sent_to(member.chat) if m.message_id not in seen), None), what="the answer"
    )


def the_quiz(title: str, polls: list[dict]) -> Quiz:
    """The quiz those polls make, as a test knows it (to press the right buttons)."""
    questions = [
        {
            "id": f"q{i}",
            "prompt": p["question"],
            "options": [o["text"] for o in p["options"]],
            "answer": p["correct_option_ids"][0],
        }
        for i, p in enumerate(polls, 1)
    ]
    parsed, issues = check_quiz_data(quiz_data("made", title, questions, "-"))
    assert parsed is not None, issues
    return parsed.to_quiz()


def link_of(message: Sent, label: str) -> str:
    return next(b["url"] for b in message.buttons() if b["text"] == label)


async def test_a_quiz_of_five_polls_is_written_saved_added_to_a_group_and_played(fake, clock, tmp_path, monkeypatch):
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)  # the group plays in a second
    ann_user, dee = fake.user(301, "Ann"), fake.user(302, "Dee")
    ann = Member(fake, fake.private(ann_user), ann_user)
    group = fake.group(-3001, "Astronomy club")
    ann_in_group, bob, cy = (
        Member(fake, group, ann_user),
        Member(fake, group, fake.user(303, "Bob")),
        Member(fake, group, fake.user(304, "Cy")),
    )
    fake.make_admin(group, ann_user)
    log = Transcript(fake)
    log.chat(ann.chat, "Ann's private chat with the bot")
    log.chat(group, "The group “Astronomy club”")
    settings = settings_for(fake, tmp_path)

    async with running_bot(fake, settings, clock):
        start = await log.step(ann.chat, "Ann", "/newquiz Space facts", ann.says("/newquiz Space facts"))
        assert start.text.startswith("New quiz “Space facts”.")
        assert start.reply_keyboard == [[{"text": "Make a quiz poll", "request_poll": {"type": "quiz"}}]]
        first = await log.step(
            ann.chat, "Ann", "(a quiz poll made with the button) " + LARGEST["question"], sends_poll(ann, LARGEST)
        )
        assert first.text == "Question 1 added: Which planet is the largest?"
        assert [b["text"] for b in first.buttons()] == ["Undo"]
        await log.step(ann.chat, "Ann", "(a quiz poll) " + MOONS_WRONG["question"], sends_poll(ann, MOONS_WRONG))
        third = await log.step(
            ann.chat, "Ann", "(forwarded from Dee) " + CLOSEST["question"], sends_poll(ann, CLOSEST, dee)
        )
        assert third.text == "Question 3 added: Which planet is closest to the Sun?"
        hidden = {k: v for k, v in SUN.items() if k != "correct_option_ids"}  # a quiz whose answer Telegram hid
        refused = await log.step(
            ann.chat, "Ann", "(forwarded, its answer hidden) " + SUN["question"], sends_poll(ann, hidden, dee)
        )
        assert "hides this quiz poll's right answer" in refused.text

    async with running_bot(fake, settings, clock):  # a restart in the middle of the draft
        fourth = await log.step(ann.chat, "Ann", "(forwarded from Dee) " + SUN["question"], sends_poll(ann, SUN, dee))
        assert fourth.text == "Question 4 added: What is the Sun?", "the draft kept its three questions"
        await log.step(ann.chat, "Ann", "(a quiz poll) " + DWARF["question"], sends_poll(ann, DWARF))
        oops = await log.step(ann.chat, "Ann", "(a quiz poll) " + OOPS["question"], sends_poll(ann, OOPS))
        undone = await log.step(
            ann.chat,
            "Ann",
            "presses Undo",
            answer_in(ann, ann.presses_data(oops.message_id, oops.buttons()[0]["callback_data"])),
            message=False,
        )
        assert undone.text.startswith("📝 Space facts\n\nQuestion 6 removed.")
        assert [b["text"] for b in undone.buttons()][:3] == ["Add question", "Edit 1", "Delete 1"]
        again = await ann.presses_data(oops.message_id, oops.buttons()[0]["callback_data"])  # twice: nothing more
        assert again.text == "That question is not in your draft any more."
        bad = await log.step(ann.chat, "Ann", "/edit 9", ann.says("/edit 9"))
        assert bad.text == "Give a question number: the draft has 5 questions."
        asked = await log.step(ann.chat, "Ann", "/edit 2", ann.says("/edit 2"))
        assert asked.text.startswith("Send the new poll for question 2")
        replaced = await log.step(
            ann.chat, "Ann", "(a quiz poll) " + MOONS["question"] + " (the right one)", sends_poll(ann, MOONS)
        )
        assert replaced.text == "Question 2 replaced: How many moons has Mars?"
        moved = await log.step(ann.chat, "Ann", "/move 5 1", ann.says("/move 5 1"))
        assert "1. Which one is a dwarf planet?" in moved.text and "5. What is the Sun?" in moved.text
        saved = await log.step(ann.chat, "Ann", "/done", ann.says("/done"))
        assert saved.text.startswith("Saved “Space facts”: 5 questions. /quiz space-facts plays it here")
        assert [b["text"] for b in saved.buttons()] == ["Play in a group", "Play here", "Copy to my chats"]
        made_by_ann = log.sent_by["Ann"]

        group_link = link_of(saved, "Play in a group")
        assert group_link.startswith("https://t.me/QuizHostBot?startgroup=add_")
        no = await log.step(
            group,
            "Bob",
            "opens the “Play in a group” link",
            answer_in(bob, fake.open_link(group_link, bob.user, group)),
        )
        assert no.text == "Only chat admins can add or remove quizzes."
        added = await log.step(
            group,
            "Ann",
            "opens the “Play in a group” link",
            answer_in(ann_in_group, fake.open_link(group_link, ann_user, group)),
        )
        assert added.text == "Added “Space facts” to this chat's quizzes: /quiz space-facts starts it."
        await log.step(
            group,
            "Ann",
            "presses “Start it now”",
            answer_in(ann_in_group, ann_in_group.presses_data(added.message_id, added.buttons()[0]["callback_data"])),
            message=False,
        )
        quiz = the_quiz("Space facts", [DWARF, MOONS, CLOSEST, SUN, LARGEST])
        for number in range(1, 6):
            question = await next_question(fake, group, number)
            right = right_letter(question, quiz)
            wrong = next(b["text"][0] for b in question.buttons() if b["text"][0] != right)
            await log.step(group, "Bob", f"presses {right}", bob.presses(question, right), message=False)
            await log.step(
                group,
                "Cy",
                f"presses {wrong if number % 2 else right}",
                cy.presses(question, wrong if number % 2 else right),
                message=False,
            )
            if number == 1:
                clock.advance(30)  # the first question waits for its deadline: who plays is known after it
            await reveal_of(fake, group, question)
        podium = await podium_of(fake, group)
        assert "Bob" in podium.text.splitlines()[2] and "Cy" in podium.text

        cy_private = Member(fake, fake.private(cy.user), cy.user)
        log.chat(cy_private.chat, "Cy's private chat with the bot")
        copy_link = link_of(saved, "Copy to my chats")
        copied = await log.step(
            cy_private.chat, "Cy", "opens the share link", answer_in(cy_private, fake.open_link(copy_link, cy.user))
        )
        assert copied.text == "Added “Space facts” to this chat's quizzes: /quiz space-facts starts it."

    log.write(
        TRANSCRIPT,
        "Writing a quiz from quiz polls on Telegram (fake Bot API, test_telegram_authoring.py)",
        [
            f"Ann sent {made_by_ann} messages in her private chat to make the five-question quiz "
            "(/newquiz, 8 polls: one refused, one undone, one replacing question 2; /edit 9, /edit 2, /move, /done; "
            "one press of Undo besides). "
            "Without the mistakes it takes 7: /newquiz, five polls, /done.",
            "The bot restarted after Ann's fourth poll (the draft was kept).",
        ],
    )
