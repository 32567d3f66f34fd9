"""Every kind of question in a Telegram group, end to end: the shipped kinds tour (a picture,
select all that apply, true/false, a typed answer, a number, a poll, steps put in order) played by three members
through python-telegram-bot against the fake Bot API. Typed answers come as replies to the
question (deleted, since the bot may delete messages here) and through the private chat the
question's "Answer" button opens; the picture is uploaded once and sent by its file_id after.

The test writes what the group saw and what the players did to a transcript (KINDS_TRANSCRIPT,
else the test's folder)."""

from __future__ import annotations

import re

from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.fake_telegram import FakeBotApi, Sent
from bot.texts.bidi import strip
from tests.adapters.telegram.test_telegram_e2e import clock, fake  # noqa: F401 (the fixtures)
from tests.support.telegram_harness import Member, button, next_question, reveal_of, running_bot, settings_for
from tests.support.transcript import Transcript

OPTION = re.compile(r"^(?:✅ |▫️ )?([A-J])\) (.*)$")
QUIZ = Catalog.load(default_quiz_folders()).get("kinds-tour")


def letter(message: Sent, text: str) -> str:
    """The letter option `text` got in this run's order."""
    lines = strip(message.text).splitlines()
    return next(m.group(1) for line in lines if (m := OPTION.match(line)) and m.group(2) == text)


class Player(Member):
    """A member whose every action goes into the transcript."""

    def __init__(self, fake: FakeBotApi, chat: dict, user: dict, log: Transcript) -> None:
        super().__init__(fake, chat, user)
        self.log = log

    async def picks(self, message: Sent, text: str) -> str:
        """Press the option whose text is `text`; the private answer."""
        pressed = button(message, letter(message, text))
        ack = await self.presses_data(message.message_id, pressed["callback_data"])
        self.log.did(self.name, f"presses [{pressed['text']}]", ack.text)
        return ack.text or ""

    async def replies(self, question: Sent, text: str) -> int:
        typed = await self.fake.reply_to_bot(self.chat, self.user, text, question.message_id)
        self.log.did(self.name, f"replies to message {question.message_id} in the group: “{text}”")
        return typed


async def test_a_group_plays_one_question_of_each_kind_with_a_picture(fake, clock, tmp_path):
    log = Transcript("A Telegram group plays the kinds tour (quizzes/kinds-tour.yaml)")
    group = fake.group(-1301, "Training club")
    fake.bot_deletes_in.add(group["id"])  # an admin with the right to delete messages
    ann, bob, cy = (Player(fake, group, fake.user(40 + i, n), log) for i, n in enumerate(("Ann", "Bob", "Cy"), 1))
    fake.private(ann.user)  # Ann has a private chat with the bot; Bob and Cy never opened one
    fake.expected_refusals.add("Bad Request: chat not found")  # acks to Bob's and Cy's private chats
    log.note("Ann, Bob and Cy are in the group; the bot is an admin that may delete messages. Privacy mode is on.")
    async with running_bot(fake, settings_for(fake, tmp_path), clock):
        start = await ann.says("/quiz kinds-tour")
        log.did("Ann", "types /quiz kinds-tour")
        log.shows("answers", start)
        await picture_question(fake, clock, log, ann, bob, cy)
        await select_all_that_apply(fake, clock, log, ann, bob, cy)
        await true_or_false(fake, log, ann, bob, cy)
        await typed_answers(fake, log, ann, bob, cy)
        await numbers(fake, log, ann, bob, cy)
        await poll(fake, log, ann, bob, cy)
        await in_order(fake, log, ann, bob, cy)
        podium = await fake.wait_for(lambda: next((m for m in fake.sent_to(group) if "Quiz over" in m.text), None))
        log.shows("posts the podium", podium)
        assert re.search(r"Ann: \d+", podium.text) and "Bob" in podium.text and "Cy" in podium.text

        log.note("A second run in the same process: the picture goes by the file_id Telegram gave the upload.")
        await ann.says("/quiz kinds-tour")
        again = await next_question(fake, group, 8)  # the tour asked 7 questions before
        assert again.photo == fake.questions(group)[0].photo and len(fake.photo_uploads) == 1
        log.shows("posts question 1 again, the photo by its file_id", again)
        # no /stop: its reply would be the group's 21st message within a minute, held back by
        # Telegram's limit; the run stays open when the bot stops, as a restart leaves one
    assert [c.params["photo"] for c in fake.called("sendPhoto")][1] == again.photo
    log.write(tmp_path)


async def picture_question(fake, clock, log, ann, bob, cy) -> None:
    q1 = await next_question(fake, ann.chat, 1)
    assert q1.photo is not None and fake.photo_uploads == [("pipeline-bubble.png", q1.photo)]
    assert "What fraction of the GPU time slots is idle" in q1.text
    log.shows("posts question 1: one message, the picture with the question as its caption", q1)
    said = await ann.picks(q1, "3/7")
    assert said.startswith("Locked in"), said
    await bob.picks(q1, "1/4")
    await cy.picks(q1, "3/7")
    clock.advance(30)  # the first question waits for its deadline: nobody is known yet
    await reveal_of(fake, ann.chat, q1)
    assert fake.called("editMessageCaption") and f"✅ {letter(q1, '3/7')}) 3/7" in q1.text
    assert "12/28 = 3/7" in q1.text, "the explanation"
    log.shows("edits the caption of question 1 into its reveal", q1)


async def select_all_that_apply(fake, clock, log, ann, bob, cy) -> None:
    q2 = await next_question(fake, ann.chat, 2)
    assert q2.photo is None and "Select all that apply" in q2.text
    assert not any("Done" in b["text"] for b in q2.buttons()), "a group has no Done: its deadline ends the picking"
    log.shows("posts question 2", q2)
    right = [QUIZ.questions[1].options[i].get("en") for i in QUIZ.questions[1].answers]
    for text in right:
        ack = await ann.picks(q2, text)
    assert ack.startswith("Your picks:") and ack.count(",") == 2
    await bob.picks(q2, right[0])
    await bob.picks(q2, "Plain data parallelism (DDP)")
    await bob.picks(q2, right[1])
    await cy.picks(q2, "Gradient accumulation")
    assert (await cy.picks(q2, "Gradient accumulation")).startswith("No option"), "a second press takes it back"
    await cy.picks(q2, right[2])
    clock.advance(30)
    await reveal_of(fake, ann.chat, q2)
    log.shows("edits question 2 into its reveal", q2)
    assert ", ".join(sorted(letter(q2, text) for text in right)) in q2.text.split("Right answer")[1]
    assert re.search(r"Ann \+\d+", q2.text)


async def true_or_false(fake, log, ann, bob, cy) -> None:
    q3 = await next_question(fake, ann.chat, 3)
    assert [strip(b["text"]) for b in q3.buttons()] == ["A · True", "B · False"]
    log.shows("posts question 3", q3)
    await ann.picks(q3, "True")
    await bob.picks(q3, "False")
    await cy.picks(q3, "True")
    await reveal_of(fake, ann.chat, q3)  # everyone known answered: it closes at once
    log.shows("edits question 3 into its reveal", q3)
    assert "✅ A) True" in q3.text


async def typed_answers(fake, log, ann, bob, cy) -> None:
    q4 = await next_question(fake, ann.chat, 4)
    (answer,) = q4.buttons()
    assert answer["url"].startswith("https://t.me/QuizHostBot?start=answer_")
    assert "Press Answer and send your answer to the bot" in q4.text, "the group card says how its button works"
    log.shows("posts question 4", q4)
    private = Member(fake, fake.chats[ann.user["id"]], ann.user)
    payload = answer["url"].split("start=")[1]
    prompt = await private.says(f"/start {payload}")
    log.did("Ann", f"taps [{answer['text']}]: Telegram opens her private chat with the bot and sends /start {payload}")
    log.shows("answers Ann in the private chat", prompt)
    assert "Which collective operation" in prompt.text, "the question, again, in the private chat"
    assert "Send your answer as a message" in prompt.text and "Press Answer" not in prompt.text
    ack = await private.says("allreduce")
    log.did("Ann", "sends “allreduce” in the private chat")
    log.shows("answers Ann in the private chat", ack)
    assert ack.text.startswith("Locked in") and "allreduce" in ack.text

    chatter = await cy.replies(fake.questions(ann.chat)[0], "nice picture!")
    log.note("A reply to another message of the bot is ordinary chat: left alone.")
    typo = await bob.replies(q4, "all-reduse")
    wrong = await cy.replies(q4, "broadcast")
    await reveal_of(fake, ann.chat, q4)
    assert (ann.chat["id"], typo) in fake.deleted and (ann.chat["id"], wrong) in fake.deleted
    assert (ann.chat["id"], chatter) not in fake.deleted
    log.note("The bot deleted Bob's and Cy's replies at once (their answers stay private until the reveal).")
    log.shows("edits question 4 into its reveal", q4)
    assert "all-reduce" in q4.text and re.search(r"Bob \+\d+", q4.text), "a small typo is forgiven"
    assert "Cy +" not in q4.text


async def numbers(fake, log, ann, bob, cy) -> None:
    q5 = await next_question(fake, ann.chat, 5)
    assert "Press Answer and send a number to the bot" in q5.text
    log.shows("posts question 5", q5)
    await ann.replies(q5, "14")
    refused = await bob.replies(q5, "fourteen")
    await fake.wait_for(lambda: (ann.chat["id"], refused) in fake.deleted, what="the refused reply removed")
    assert not q5.edits, "a word is not a number: nothing stored, Bob may try again"
    await bob.replies(q5, "13,9")
    await cy.replies(q5, "7")
    await reveal_of(fake, ann.chat, q5)
    log.shows("edits question 5 into its reveal", q5)
    assert "14 ± 0.5" in q5.text and re.search(r"Bob \+\d+", q5.text) and "Cy +" not in q5.text
    dms = [m.text for m in fake.sent_to(fake.chats[ann.user["id"]])]
    assert any("14" in text and "Locked in" in text for text in dms), "Ann's ack went to her private chat"
    log.note(
        f"The bot deleted every reply. Ann's acknowledgement reached her private chat (“{dms[-1]}”); "
        "Bob and Cy never opened one, so theirs went nowhere and nothing was said in the group. "
        "Bob's “fourteen” was refused as not a number (nothing stored), so his “13,9” counted."
    )


async def poll(fake, log, ann, bob, cy) -> None:
    q6 = await next_question(fake, ann.chat, 6)
    log.shows("posts question 6", q6)
    await ann.picks(q6, "FSDP / ZeRO-3")
    await bob.picks(q6, "Pipeline parallelism")
    await cy.picks(q6, "FSDP / ZeRO-3")
    await reveal_of(fake, ann.chat, q6)
    log.shows("edits question 6 into its reveal", q6)
    assert "Right answer" not in q6.text and "✅" not in q6.text, "a poll has no right answer: only its split"
    assert re.search(r"^[A-D] 2 ▓▓▓▓▓▓▓░░░$", strip(q6.text), re.M), "FSDP: two of the three votes"


async def in_order(fake, log, ann, bob, cy) -> None:
    q7 = await next_question(fake, ann.chat, 7)
    assert "Put these in order" in q7.text and not any("Done" in b["text"] for b in q7.buttons())
    log.shows("posts question 7", q7)
    steps = [o.get("en") for o in QUIZ.questions[6].options]  # the file lists them in the right order
    assert (await ann.picks(q7, steps[0])).startswith("Your order: ")
    assert (await ann.picks(q7, steps[0])) == "No option placed.", "a second press takes it back"
    for step in steps[:-1]:
        said = await ann.picks(q7, step)
    assert said.endswith(" → …"), "the order so far, with what is left to place"
    assert (await ann.picks(q7, steps[-1])).startswith("Your answer: "), "every option placed: final in a group"
    assert (await ann.picks(q7, steps[0])).startswith("You already answered "), "the first complete order counts"
    for step in (steps[0], steps[1], steps[3], steps[2]):
        await bob.picks(q7, step)
    for step in reversed(steps):
        await cy.picks(q7, step)
    await reveal_of(fake, ann.chat, q7)  # every known player's order complete: it closes at once
    log.shows("edits question 7 into its reveal", q7)
    right = " → ".join(letter_marked(q7, step) for step in steps)
    assert f"Right order: {right}" in q7.text
    assert re.search(r"Ann \+\d+", q7.text) and re.search(r"Bob \+\d+", q7.text), "Bob: two places of four"
    assert "Cy +" not in q7.text


def letter_marked(message: Sent, text: str) -> str:
    """The letter option `text` had, once the reveal marked each option with its place ("2. B) ...")."""
    lines = strip(message.text).splitlines()
    return next(m.group(1) for line in lines if (m := re.match(r"^\d+\. ([A-J])\) (.*)$", line)) and m.group(2) == text)
