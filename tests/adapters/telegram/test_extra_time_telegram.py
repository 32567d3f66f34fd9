"""Extra time on Telegram (real PTB, the fake Bot API, a FakeClock): an admin gives a member ×2
on an assignment (`/assign … extra`, the member picked from the mention list); on a 20 s question
their card says 40 s, an answer at 35 s is taken and one at 41 s is not, and answering at the same
share of their window earns them what a ×1 classmate earns at that share of 20 s. The rule and
the run's factor are stored: both outlive a restart. A standing rule is given by replying to a
member's message (`/settings extra 1.5x`) and listed in /settings."""

from __future__ import annotations

from pathlib import Path

from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th
from tests.support.discord_harness import question_stored

DEADLINE = "2023-11-15 18:00"


async def shown(fake: FakeBotApi, member: th.Member, number: int, db: Path) -> Sent:
    """Question `number` in the member's chat, once shown: its clock runs from the moment it is stored."""
    question = await th.next_question(fake, member.chat, number)
    await question_stored(db, question.message_id)
    return question


async def answers(fake: FakeBotApi, clock, member: th.Member, quiz, number: int, after: float, db: Path) -> Sent:
    """Answer question `number` right, `after` seconds after it is shown; its reveal."""
    question = await shown(fake, member, number, db)
    clock.advance(after)
    letter = th.right_letter(question, quiz)
    assert (await member.presses(question, letter)).text == f"Locked in: {letter}"
    return await th.reveal_of(fake, member.chat, question)


async def stops(fake: FakeBotApi, member: th.Member, times: int) -> None:
    """/stop, and wait for both its reply and the run's end message (the `times`-th of each in the
    chat), which come in either order."""
    await member.says("/stop")

    def both() -> bool:
        sent = [m.text for m in fake.sent_to(member.chat)]
        return min(sum(t.startswith(head) for t in sent) for head in ("⏹ Quiz stopped", "Quiz stopped by")) >= times

    await fake.wait_for(both, what="the stopped quiz")


async def test_a_member_with_double_time_on_an_assignment(fake, clock, tmp_path):
    quiz = tiny(tmp_path)
    group = fake.group(-2101, "Class 8A")
    tess_user, ann_user, bob_user = fake.user(90, "Tess"), fake.user(91, "Ann"), fake.user(92, "Bob")
    fake.make_admin(group, tess_user)
    for user in (ann_user, bob_user):
        fake.join(group, user)
    tess = th.Member(fake, group, tess_user)
    ann, bob = th.Member(fake, fake.private(ann_user), ann_user), th.Member(fake, fake.private(bob_user), bob_user)
    settings = th.settings_for(fake, tmp_path)
    db = settings.quizhost_db
    async with th.running_bot(fake, settings, clock):
        await tess.says("/settings time 20")
        refused = await tess.says(f"/assign tiny until {DEADLINE} extra Ann 3x", mentions=[ann_user])
        assert "Extra time is 1.5x or 2x" in refused.text
        unnamed = await tess.says(f"/assign tiny until {DEADLINE} extra 2x")
        assert "Name one member" in unnamed.text
        created = await tess.says(f"/assign tiny until {DEADLINE} extra Ann 2x", mentions=[ann_user])
        assert "Assignment #1 is open" in created.text
        assert "Ann has ×2 time on each question of this assignment." in created.text

    async with th.running_bot(fake, settings, clock):  # the rule is stored
        start = await ann.says("/start assign_1")
        assert "Your extra time: ×2.\n3 questions, 40 s each. Get ready!" in start.text
        first = await shown(fake, ann, 1, db)  # stored before the restart: resumed, not asked again
        assert "⏱ 40 seconds to answer" in first.text

    async with th.running_bot(fake, settings, clock):  # the run's factor is stored with it
        ann_first = await answers(fake, clock, ann, quiz, 1, 35.0, db)  # within her 40 s
        assert "Ann +562 (35.0 s)" in ann_first.text  # 35 s of 40: 1000 * (1 - 0.875 / 2), to even
        second = await shown(fake, ann, 2, db)
        button = th.button(second, th.right_letter(second, quiz))["callback_data"]
        clock.advance(41.0)  # past her 40 s: the question closes unanswered
        await th.reveal_of(fake, ann.chat, second)
        assert (await ann.presses_data(second.message_id, button)).text == "This question is closed."
        ann_third = await answers(fake, clock, ann, quiz, 3, 20.0, db)  # half her window
        assert "Ann +750 (20.0 s)" in ann_third.text

        start = await bob.says("/start assign_1")
        assert "Your extra time" not in start.text
        bob_first = await shown(fake, bob, 1, db)
        assert "⏱ 20 seconds to answer" in bob_first.text
        clock.advance(17.5)  # the share of his 20 s that Ann used of her 40: the same points
        await bob.presses(bob_first, th.right_letter(bob_first, quiz))
        assert "Bob +562 (17.5 s)" in (await th.reveal_of(fake, bob.chat, bob_first)).text
        bob_second = await shown(fake, bob, 2, db)
        button = th.button(bob_second, th.right_letter(bob_second, quiz))["callback_data"]
        clock.advance(21.0)  # past Bob's 20 s
        await th.reveal_of(fake, bob.chat, bob_second)
        assert (await bob.presses_data(bob_second.message_id, button)).text == "This question is closed."
        bob_third = await shown(fake, bob, 3, db)
        clock.advance(10.0)  # half his window: what Ann earned at 20 s of 40
        await bob.presses(bob_third, th.right_letter(bob_third, quiz))
        assert "Bob +750 (10.0 s)" in (await th.reveal_of(fake, bob.chat, bob_third)).text


async def test_a_standing_rule_given_by_replying_to_a_member(fake, clock, tmp_path):
    """The group's rule holds for each assignment of the group until it is taken back; in a
    private chat a player names nobody, and the rule is for their own play there."""
    group = fake.group(-2102, "Class 8B")
    tess_user, bob_user = fake.user(93, "Tess"), fake.user(94, "Bob")
    fake.make_admin(group, tess_user)
    fake.join(group, bob_user)
    tess, bob_in_group = th.Member(fake, group, tess_user), th.Member(fake, group, bob_user)
    bob = th.Member(fake, fake.private(bob_user), bob_user)
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        said = await fake.send_text(group, bob_user, "I read slowly")
        refused = await bob_in_group.says("/settings extra 2x", reply_to=said)
        assert "Only chat admins can change this." in refused.text
        shown = await tess.says("/settings extra 1.5x", reply_to=said)
        assert "Extra time in assignments and private play: Bob ×1.5" in shown.text
        assert "Extra time is 1.5x or 2x" in (await tess.says("/settings extra 3x", reply_to=said)).text
        assert "Name one member" in (await tess.says("/settings extra 2x")).text
        await tess.says(f"/assign tiny until {DEADLINE}")
        start = await bob.says("/start assign_1")
        assert "Your extra time: ×1.5.\n3 questions, 45 s each. Get ready!" in start.text
        assert "⏱ 45 seconds to answer" in (await th.next_question(fake, bob.chat, 1)).text
        await stops(fake, bob, 1)

        off = await tess.says("/settings extra off", reply_to=said)
        assert "Extra time in" not in off.text and "/settings extra @member 1.5x, 2x or off" in off.text
        await tess.says(f"/assign tiny until {DEADLINE}")
        assert "Your extra time" not in (await bob.says("/start assign_2")).text
        await stops(fake, bob, 2)

        mine = await bob.says("/settings extra 2x")  # his own play, in his private chat
        assert "Extra time in assignments and private play: Bob ×2" in mine.text
        assert "3 questions, 60 s each" in (await bob.says("/quiz tiny")).text
        questions = await fake.wait_for(lambda: len(fake.questions(bob.chat)) >= 3 and fake.questions(bob.chat))
        assert "⏱ 60 seconds to answer" in questions[-1].text
