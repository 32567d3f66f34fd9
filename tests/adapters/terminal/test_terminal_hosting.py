"""`quizhost play` hosts a game too: the player is its host, typing /next, /pause, /resume,
/skip and /end (host-paced play in the terminal)."""

from __future__ import annotations

import re

from tests.adapters.terminal.test_terminal import play


def test_the_player_hosts_a_game_in_the_terminal(tmp_path):
    typed = "/host pipeline 3\n/next\n/pause\n/resume\na\n/next\n/next\n/skip\n/end\n"
    result = play(tmp_path, stdin=typed)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Hosted by You: the first question comes with /next." in out
    # no time limit: the question waits for its host
    assert "⏱ No time limit" in out and "3 questions: the host closes each." in out
    assert "⏸ Paused by the host.\n" in out and "▶️ Go on: answer now." in out
    assert "Question 2/3" in out and "Question 3/3" not in out, "nothing is posted but what the host asks for"
    assert "Skipped by the host: this question counts for nobody." in out
    # the questions are a random three: "a" may be right or not, and the skipped one is not counted
    assert "Quiz stopped" in out and re.search(r"You: \d+ pts · [01]/1 right", out), out


def test_a_host_may_give_the_questions_a_time_limit_in_the_terminal(tmp_path):
    result = play(tmp_path, stdin="/host pipeline 2 45s\n/next\n/pause\n/resume\n/end\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "2 questions, 45 s each." in out and "45 seconds to answer" in out
    assert "⏸ Paused by the host, 45 s left." in out and "▶️ Go on: 45 s left." in out
