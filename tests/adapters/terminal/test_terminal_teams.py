"""/teams in `quizhost play`: the line-up is shown as the reply, /join N is how the player joins
(no buttons), the quiz locks it, and the reveals and the podium show the team standings."""

from __future__ import annotations

from tests.adapters.terminal.test_terminal import play


def test_teams_at_the_keyboard(tmp_path):
    stdin = "/teams Owls Foxes top3\n/join 3\n/join 2\n/quiz pipeline 2\na\nb\n/join 1\n"
    result = play(tmp_path, stdin=stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A team scores the sum of its three best members' points." in out
    assert "Join a team with /join and its number, e.g. /join 1." in out
    assert "Give a team's number, 1 to 2: e.g. /join 1." in out
    assert "You are in team Foxes." in out and "2. Foxes (1): You" in out
    assert out.count("Teams:") == 3  # two reveals and the podium
    assert "Players:" in out
    assert "No teams are open here" in out  # the quiz took them: the next /teams opens new ones


def test_in_a_quiz_of_rounds_the_teams_are_ranked_between_rounds_only(tmp_path):
    stdin = "/teams Owls Foxes\n/join 2\n/quiz trivia-night\n" + "a\n" * 8
    result = play(tmp_path, stdin=stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # the standings after the first round and the podium rank the teams; the eight reveals do not
    assert out.count("Teams:") == 2, out
    marks = ["Question 4/8", "📊 Standings after Science and Nature", "Teams:", "🥇 Foxes:", "Players:", "Question 5/8"]
    places = [out.find(mark) for mark in marks]
    assert -1 not in places and places == sorted(places), dict(zip(marks, places, strict=True))
