"""An assignment on Telegram from /assign to the podium (real PTB, the fake Bot API, a FakeClock):
members play in private through the group message's deep link, once each, the group message
is edited as they finish (at most once a minute), the bot restarts in between, a late start
is refused, and the podium comes at the deadline with the points on the group's leaderboard.
Whoever else holds the link is refused: the assignment is the group's members' alone."""

from __future__ import annotations

import asyncio

from bot.engine.assignments import POLL_SECONDS
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th

DEADLINE = "2023-11-15 18:00"  # Berlin; the FakeClock starts at 2023-11-14 23:13 there
TO_DEADLINE = 67_600.0  # seconds from the clock's start to 17:00 UTC


def group_message(fake: FakeBotApi, group: dict) -> Sent | None:
    return next((m for m in fake.sent_to(group) if m.text.startswith("📝 Assignment")), None)


async def plays(fake: FakeBotApi, member: th.Member, quiz, right: tuple[bool, ...]) -> Sent:
    """Start the assignment in the private chat and answer every question; the private podium."""
    start = await member.says("/start assign_1")
    assert "Assignment #1, open until 2023-11-15 18:00 Europe/Berlin" in start.text
    assert "3 questions, 30 s each" in start.text
    for number, is_right in enumerate(right, 1):
        q = await th.next_question(fake, member.chat, number)
        letter = th.right_letter(q, quiz) if is_right else th.wrong_letter(q, quiz)
        assert (await member.presses(q, letter)).text == f"Locked in: {letter}"
        await th.reveal_of(fake, member.chat, q)  # a private question closes at its first answer
    return await podium_of(fake, member.chat)


async def at_deadline(fake: FakeBotApi, clock, group: dict) -> Sent:
    """Move the clock past the deadline, then on by the assignments' poll until the podium is
    posted (their loop may have gone to sleep just after the last move, for POLL_SECONDS)."""
    clock.advance(TO_DEADLINE)
    for _ in range(20):
        if podium := next((m for m in fake.sent_to(group) if "Assignment closed" in m.text), None):
            return podium
        await asyncio.sleep(0.1)
        clock.advance(POLL_SECONDS)
    raise AssertionError("no podium in the group after the deadline")


async def edited(fake: FakeBotApi, group: dict, edits: int) -> Sent:
    return await fake.wait_for(
        lambda: (m := group_message(fake, group)) is not None and m.edits >= edits and m,
        what=f"the group message's edit {edits}",
    )


async def test_an_assignment_from_start_to_podium_across_a_restart(fake, clock, tmp_path):
    quiz = tiny(tmp_path)
    group = fake.group(-2001, "Class 7B")
    tess_user = fake.user(70, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    users = {name: fake.user(71 + i, name) for i, name in enumerate(("Ann", "Bob", "Cy"))}
    ann_in_group = th.Member(fake, group, users["Ann"])
    ann, bob, cy = (th.Member(fake, fake.private(u), u) for u in users.values())
    for user in users.values():  # the class: only the group's members may play
        fake.join(group, user)
    settings = th.settings_for(fake, tmp_path)
    async with th.running_bot(fake, settings, clock):
        await tess.says("/settings tz Europe/Berlin")
        assert "Give the time as HH:MM" in (await tess.says("/assign tiny until 2023-11-15 25:00")).text
        assert "Give the date as YYYY-MM-DD" in (await tess.says("/assign tiny until someday")).text
        assert (
            "That time has passed in this chat's time zone (Europe/Berlin)"
            in (await tess.says("/assign tiny until 2023-11-14 08:00")).text
        )
        assert "Only chat admins can assign" in (await ann_in_group.says(f"/assign tiny until {DEADLINE}")).text
        assert group_message(fake, group) is None  # bad input changed nothing

        created = await tess.says(f"/assign tiny until {DEADLINE}")
        assert "Assignment #1 is open until 2023-11-15 18:00 Europe/Berlin" in created.text
        posted = await fake.wait_for(lambda: group_message(fake, group), what="the group message")
        assert posted.buttons() == [{"text": "▶️ Start", "url": f"https://t.me/{fake.username}?start=assign_1"}]
        assert "Closes 2023-11-15 18:00 Europe/Berlin (18 h 47 min left)" in posted.text
        assert "0 members have finished · 0 started" in posted.text

        await plays(fake, ann, quiz, (True, True, False))
        again = await ann.says("/start assign_1")
        assert "You have played this assignment already (once each)" in again.text and "2/3 right" in again.text
        clock.advance(30)  # within the minute of the last change: not edited yet
        await asyncio.sleep(0.2)
        assert posted.edits == 0
        clock.advance(31)
        first = await edited(fake, group, 1)
        assert "1 member has finished · 1 started" in first.text
        assert "🥇 Ann:" in first.text and "2/3 right" in first.text
        assert first.buttons()[0]["url"].endswith("?start=assign_1")  # still open: Start stays

    async with th.running_bot(fake, settings, clock):  # a deploy: new process objects, the same file
        listed = await ann_in_group.says("/assign")
        assert "#1 Tiny <Quiz> & Co: closes 2023-11-15 18:00 Europe/Berlin" in listed.text
        await plays(fake, bob, quiz, (True, True, True))
        clock.advance(61)
        second = await edited(fake, group, 2)
        assert "2 members have finished · 2 started" in second.text
        lines = second.text.splitlines()
        assert lines.index(next(x for x in lines if x.startswith("🥇 Bob:"))) < lines.index(
            next(x for x in lines if x.startswith("🥈 Ann:"))
        )

        podium = await at_deadline(fake, clock, group)
        assert "🏁 Assignment closed: Tiny <Quiz> & Co" in podium.text
        assert podium.text.index("🥇 Bob") < podium.text.index("🥈 Ann")
        closed = await edited(fake, group, 3)
        assert "Closed 2023-11-15 18:00 Europe/Berlin." in closed.text and closed.buttons() == []

        late = await cy.says("/start assign_1")
        assert "Sorry, this assignment closed 2023-11-15 18:00 Europe/Berlin" in late.text
        assert fake.questions(cy.chat) == []
        board = (await ann_in_group.says("/leaderboard")).text
        assert "Bob" in board and "Ann" in board  # the private answers count on the group's board
        assert "No assignment is open here" in (await ann_in_group.says("/assign")).text
    assert [m.text for m in fake.sent_to(group)].count(podium.text) == 1  # one podium


async def test_only_the_groups_members_may_play_its_assignment(fake, clock, tmp_path):
    """The Start link is a plain URL anyone may be forwarded: who is not in the group is told
    so, in their language, and nothing of theirs is stored; one who left is refused as well; a
    check Telegram could not answer asks to try again, and the next try lets the member in."""
    quiz = tiny(tmp_path)
    group = fake.group(-2002, "Class 7C")
    tess_user, dev_user, lea_user = fake.user(80, "Tess"), fake.user(81, "Dev"), fake.user(82, "Lea")
    mo_user = fake.user(83, "Mo", language="hi")
    fake.make_admin(group, tess_user)
    fake.join(group, dev_user)
    fake.join(group, lea_user, status="left")
    tess = th.Member(fake, group, tess_user)
    dev, lea, mo = (th.Member(fake, fake.private(u), u) for u in (dev_user, lea_user, mo_user))
    fake.expected_refusals |= {"Bad Request: user not found", "Internal Server Error"}
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        await tess.says("/settings tz Europe/Berlin")
        await tess.says(f"/assign tiny until {DEADLINE}")
        await fake.wait_for(lambda: group_message(fake, group), what="the group message")

        refused = await mo.says("/start assign_1")  # never in the group: Telegram knows no such member
        assert refused.text == "यह असाइनमेंट Class 7C के सदस्यों के लिए है।"
        assert (await lea.says("/start assign_1")).text == "This assignment is for the members of Class 7C."
        assert fake.questions(mo.chat) == [] and fake.questions(lea.chat) == []

        fake.fail("getChatMember", "500", times=3)  # every retry of the check fails
        unsure = await dev.says("/start assign_1")
        assert "could not check that you are in the assignment's group" in unsure.text
        assert fake.questions(dev.chat) == []
        await plays(fake, dev, quiz, (True, False, True))  # the next try goes through

        board = (await tess.says("/leaderboard")).text
        assert board.splitlines()[2:] == ["🥇 Dev: 2000 pts · 2/3 right · 67%"]  # no one refused is on it
        clock.advance(61)
        shown = await edited(fake, group, 1)
        assert "1 member has finished · 1 started" in shown.text  # the refused starts are no plays
