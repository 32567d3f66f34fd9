"""A hosted game on Telegram (`quizhost run` against the fake Bot API): an admin hosts it, the
questions wait for /next (ten minutes left alone too), /pause refuses presses, /resume gives
back the time left, /skip moves no board, /end gives the podium."""

from __future__ import annotations

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
        started = await ann.says("/host tiny")
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
