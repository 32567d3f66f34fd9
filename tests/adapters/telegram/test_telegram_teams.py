"""Teams on Telegram (real PTB, the fake Bot API, a FakeClock): an admin opens two teams, four
players join with the buttons (one switches), the message is edited with the members; the quiz
locks the teams at its first question; each reveal shows the team standings; a player who
first answers after the lock is placed in the smallest team; the podium ranks the teams, then
the players. Forged or stale join buttons and non-admins are refused."""

from __future__ import annotations

import pytest

from bot.adapters.telegram import runtime as telegram_runtime
from bot.testing.fake_telegram import FakeBotApi, Sent
from tests.adapters.telegram.test_telegram_e2e import clock, fake, podium_of, tiny  # noqa: F401  (fixtures)
from tests.support import telegram_harness as th


def lineup_message(fake: FakeBotApi, group: dict) -> Sent | None:
    """The latest line-up message in the group (not a reply to a command: /teams balanced's)."""
    shown = (m for m in reversed(fake.sent_to(group)) if m.text.startswith("👥 Teams") and m.reply_to is None)
    return next(shown, None)


def join_data(message: Sent, team: int) -> str:
    return next(b["callback_data"] for b in message.buttons() if b["text"].startswith(f"{team}. "))


async def edited(fake: FakeBotApi, group: dict, shows: str) -> Sent:
    return await fake.wait_for(
        lambda: (m := lineup_message(fake, group)) is not None and shows in m.text and m,
        what=f"the teams message showing {shows!r}",
    )


async def test_two_teams_play_a_quiz_to_the_podium(fake, clock, tmp_path):
    """A restart between the first and the second question changes nothing of the teams."""
    quiz = tiny(tmp_path)
    group = fake.group(-3001, "Quiz night")
    tess_user = fake.user(80, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    ann, bob, cy, dee, eve = (
        th.Member(fake, group, fake.user(81 + i, name)) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve"))
    )
    settings = th.settings_for(fake, tmp_path)
    async with th.running_bot(fake, settings, clock):
        assert "Only chat admins can set up teams" in (await ann.says("/teams 3")).text
        assert "/teams [2-8" in (await tess.says("/teams 9")).text
        opened = await tess.says("/teams Owls Foxes")
        assert "press a team above to join it" in opened.text
        posted = await fake.wait_for(lambda: lineup_message(fake, group), what="the teams message")
        assert [b["text"] for b in posted.buttons()] == ["1. Owls", "2. Foxes"]
        assert "A team scores the mean of its members' points." in posted.text

        owls, foxes = join_data(posted, 1), join_data(posted, 2)
        assert (await ann.presses_data(posted.message_id, owls)).text == "You are in team Owls."
        assert (await bob.presses_data(posted.message_id, foxes)).text == "You are in team Foxes."
        assert (await bob.presses_data(posted.message_id, owls)).text == "You are in team Owls."  # a switch
        for player in (cy, dee):
            await player.presses_data(posted.message_id, foxes)
        shown = await edited(fake, group, "2. Foxes (2): Cy, Dee")
        assert "1. Owls (2): Ann, Bob" in shown.text
        forged = await eve.presses_data(posted.message_id, "tj:999:1")
        assert "These teams are gone" in forged.text

        await tess.says("/quiz tiny")
        q1 = await th.next_question(fake, group, 1)
        locked = await edited(fake, group, "The teams are locked")
        assert locked.buttons() == []
        late_press = await eve.presses_data(posted.message_id, owls)
        assert "The teams are locked" in late_press.text
        for player, right in ((ann, True), (bob, True), (cy, True), (dee, False)):
            letter = th.right_letter(q1, quiz) if right else th.wrong_letter(q1, quiz)
            assert (await player.presses(q1, letter)).text.startswith("Locked in")
        clock.advance(30)
        reveal = await th.reveal_of(fake, group, q1)
        teams = reveal.text[reveal.text.index("Teams:") :].splitlines()
        assert teams[1].startswith("🥇 Owls: ") and teams[1].endswith("· 👤 2")
        assert teams[2].startswith("🥈 Foxes: ")

    async with th.running_bot(fake, settings, clock):  # a deploy mid-game: the teams are the stored ones
        q2 = await th.next_question(fake, group, 2)
        assert (await eve.presses(q2, th.right_letter(q2, quiz))).text.startswith("Locked in")  # first answer: late
        for player in (ann, bob, cy, dee):
            await player.presses(q2, th.wrong_letter(q2, quiz))
        reveal = await th.reveal_of(fake, group, q2)
        assert "Eve joins team Owls (the teams were locked)." in reveal.text  # 2 and 2: the lowest number
        assert "🥇 Owls: " in reveal.text and "· 👤 3" in reveal.text

        q3 = await th.next_question(fake, group, 3)
        for player in (ann, bob, cy, dee, eve):
            await player.presses(q3, th.right_letter(q3, quiz))
        podium = await podium_of(fake, group)
        lines = podium.text.splitlines()
        # the mean of each team's points: Owls (2000 + 2000 + 2100) / 3, Foxes (2000 + 1000) / 2
        teams_at = lines.index("Teams:")
        assert lines[teams_at + 1 : teams_at + 3] == ["🥇 Owls: 2033.3 · 👤 3", "🥈 Foxes: 1500 · 👤 2"]
        assert lines[lines.index("Players:") + 1].startswith("🥇 Eve: 2100 pts")
        board = await cy.says("/leaderboard")  # the boards keep players' points
        assert "Owls" not in board.text and "Ann" in board.text


async def test_balanced_teams_come_from_the_chats_boards(fake, clock, tmp_path, monkeypatch):
    """Four players of a chat with a past (3, 2, 1 and 0 right of 3) join one team; /teams
    balanced snakes them by accuracy: the best and the worst together, the middle two together."""
    # two quizzes and the teams make more than Telegram's 20 group messages a minute: lifted here
    monkeypatch.setattr(telegram_runtime, "GROUP_MESSAGES_PER_MINUTE", 0)
    quiz = tiny(tmp_path)
    group = fake.group(-3002, "Pub quiz")
    tess_user = fake.user(90, "Tess")
    fake.make_admin(group, tess_user)
    tess = th.Member(fake, group, tess_user)
    players = [th.Member(fake, group, fake.user(91 + i, name)) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee"))]
    async with th.running_bot(fake, th.settings_for(fake, tmp_path), clock):
        assert "No teams are open here" in (await tess.says("/teams balanced")).text
        await tess.says("/quiz tiny")
        for number in (1, 2, 3):
            q = await th.next_question(fake, group, number)
            for rights, player in zip((3, 2, 1, 0), players, strict=True):
                letter = th.right_letter(q, quiz) if number <= rights else th.wrong_letter(q, quiz)
                await player.presses(q, letter)
            if number == 1:
                clock.advance(30)  # the first closes at its deadline; the others when all four answered
            await th.reveal_of(fake, group, q)
        await podium_of(fake, group)

        await tess.says("/teams 3")
        replaced = await fake.wait_for(lambda: lineup_message(fake, group), what="the teams message")
        await tess.says("/teams 2")  # another thought: the first message loses its buttons
        await fake.wait_for(lambda: "These teams are gone" in replaced.text, what="the replaced line-up's edit")
        assert replaced.buttons() == []
        posted = await fake.wait_for(
            lambda: (m := lineup_message(fake, group)) is not replaced and m, what="the second teams message"
        )
        assert [b["text"] for b in posted.buttons()] == ["1. Red", "2. Blue"]
        for player in players:
            await player.presses_data(posted.message_id, join_data(posted, 1))
        await edited(fake, group, "1. Red (4): Ann, Bob, Cy, Dee")
        await tess.says("/teams")  # no words: the same teams again at the foot of the chat, nobody lost
        again = await fake.wait_for(lambda: (m := lineup_message(fake, group)) is not posted and m, what="a repost")
        assert "1. Red (4): Ann, Bob, Cy, Dee" in again.text and len(again.buttons()) == 2
        await fake.wait_for(lambda: "The teams moved" in posted.text, what="the earlier message's edit")
        assert posted.buttons() == []
        balanced = await tess.says("/teams balanced")
        assert "4 players placed by past accuracy in this chat." in balanced.text
        assert "1. Red (2): Ann, Dee" in balanced.text and "2. Blue (2): Bob, Cy" in balanced.text
        await edited(fake, group, "1. Red (2): Ann, Dee")

        assert "Teams are off for the next quiz." in (await tess.says("/teams off")).text
        await edited(fake, group, "Teams are off")
        await tess.says("/quiz tiny")
        q = await th.next_question(fake, group, 4)
        await players[0].presses(q, th.right_letter(q, quiz))
        clock.advance(30)
        assert "Teams:" not in (await th.reveal_of(fake, group, q)).text  # a run without teams


@pytest.mark.parametrize("restart", [False, True], ids=["as-posted", "after-a-restart"])
async def test_the_first_question_closes_once_every_team_member_has_answered(fake, clock, tmp_path, restart):
    """The line-up's members are the run's known players: the first question closes as soon as
    they have all answered, no deadline waited for; also when the bot restarted after posting
    it (the teams are read back with the run)."""
    quiz = tiny(tmp_path)
    group = fake.group(-3005, "Early close")
    host_user = fake.user(95, "Hal")
    fake.make_admin(group, host_user)
    hal = th.Member(fake, group, host_user)
    ann, bob = (th.Member(fake, group, fake.user(96 + i, name)) for i, name in enumerate(("Ann", "Bob")))
    settings = th.settings_for(fake, tmp_path)
    async with th.running_bot(fake, settings, clock):
        await hal.says("/teams Owls Foxes")
        posted = await fake.wait_for(lambda: lineup_message(fake, group), what="the teams message")
        await ann.presses_data(posted.message_id, join_data(posted, 1))
        await bob.presses_data(posted.message_id, join_data(posted, 2))
        await hal.says("/quiz tiny")
        q1 = await th.next_question(fake, group, 1)
        if not restart:
            await answer_both(fake, group, quiz, q1, ann, bob)
    if restart:
        async with th.running_bot(fake, settings, clock):
            await answer_both(fake, group, quiz, q1, ann, bob)


async def answer_both(fake: FakeBotApi, group: dict, quiz, q1: Sent, ann: th.Member, bob: th.Member) -> None:
    await ann.presses(q1, th.right_letter(q1, quiz))
    await bob.presses(q1, th.wrong_letter(q1, quiz))  # no deadline is near: only this answer closes it
    assert "Teams:" in (await th.reveal_of(fake, group, q1)).text
