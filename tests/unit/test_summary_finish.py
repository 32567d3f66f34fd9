"""Who "did not finish" a run in its teacher's summary: whoever left before the last question
that counts. A poll after it asks for a vote, which is no one's accuracy: skipping it is not
leaving early."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.commands.results import Line
from bot.commands.summary import RunTally
from bot.domain.worth import NOT_ANSWERED, RIGHT, VOTED, Worth

START = datetime(2026, 12, 5, tzinfo=UTC)


def line(player: str, number: int, worth: Worth, scored: bool = True) -> Line:
    given = worth is not NOT_ANSWERED
    return Line(
        1, START, "q", "Quiz", number, f"q{number}", f"Question {number}?", player, player, (), "", "",
        worth, scored, 1.0 if given else None, 900 if worth is RIGHT else 0, START if given else None,
    )  # fmt: skip


def summed(*lines: Line, asked: int) -> list[str]:
    tally = RunTally(1, "Quiz", START)
    for each in lines:
        tally.add(each)
    return [p.name for p in tally.summary(asked).did_not_finish]


def test_skipping_a_closing_poll_is_not_leaving_before_the_end():
    ann = [line("Ann", 1, RIGHT), line("Ann", 2, RIGHT), line("Ann", 3, VOTED, scored=False)]
    bob = [line("Bob", 1, RIGHT), line("Bob", 2, RIGHT), line("Bob", 3, NOT_ANSWERED, scored=False)]
    cy = [line("Cy", 1, RIGHT), line("Cy", 2, NOT_ANSWERED), line("Cy", 3, VOTED, scored=False)]
    dee = [line("Dee", 1, RIGHT), line("Dee", 2, NOT_ANSWERED), line("Dee", 3, NOT_ANSWERED, scored=False)]
    assert summed(*ann, *bob, *cy, *dee, asked=3) == ["Dee"], "Cy voted last: she was there to the end"


def test_a_poll_before_the_last_scored_question_does_not_move_the_finish():
    ann = [line("Ann", 1, VOTED, scored=False), line("Ann", 2, RIGHT)]
    bob = [line("Bob", 1, VOTED, scored=False), line("Bob", 2, NOT_ANSWERED)]
    assert summed(*ann, *bob, asked=2) == ["Bob"]
