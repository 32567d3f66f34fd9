"""`quizhost play trivia-night` in the terminal: each round announced before its first question,
the standings after the first round only."""

from __future__ import annotations

from tests.adapters.terminal.test_terminal import play


def test_the_terminal_announces_each_round_and_ranks_between_them(tmp_path):
    result = play(tmp_path, "trivia-night", stdin="a\n" * 8)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    marks = [
        "Round 1 of 2: Science and Nature",
        "Question 1/8",
        "Question 4/8",
        "📊 Standings after Science and Nature",
        "🥇 You: ",
        "Round 2 of 2: World and History · points ×2",
        "Question 5/8",
        "Quiz over",
    ]
    places = [out.find(mark) for mark in marks]
    assert -1 not in places and places == sorted(places), dict(zip(marks, places, strict=True))
    assert out.count("Standings after") == 1 and out.count("Round ") == 2
