"""Plain text for screen readers in `quizhost play` (/settings plain on, kept for the next
session like any setting): a whole session with teams, the kinds tour (a picture said in
words, every kind of question, the podium), the boards and a hosted game prints no block bar
and no decorative symbol, counts the split in words and says the right answer as a sentence."""

from __future__ import annotations

import re

from tests.adapters.terminal.test_terminal import play, shipped
from tests.support.plain_text import unplain

TOUR_ANSWERS = "a\na\ndone\na\nallreduce\n14\na\na\nb\nc\nd\ndone\n"  # an option, picks, typed, a number, an order
BOARDS = "/leaderboard\n/stats\n/quizstats kinds-tour\n/review\na\n/stop\n"  # and a review card of a miss


def test_a_whole_session_in_plain_text(tmp_path):
    alt = shipped("kinds-tour").questions[0].media.alt.get("en")
    first = play(tmp_path, stdin="/settings plain on\n")
    assert first.returncode == 0, first.stderr
    assert "Plain text for screen readers: on" in first.stdout

    game = play(
        tmp_path, stdin="/teams Owls Foxes\n/join 1\n/quiz kinds-tour\n" + TOUR_ANSWERS + "/leaderboard\n/stats\n"
    )
    writing = "/newquiz Rivers\nLongest river? | *Nile | Amazon > About 6650 km.\n/done\n"  # a quiz of the chat's own
    hosted = play(tmp_path, stdin=writing + "/host pipeline 1\n/next\na\n/next\n/end\n")  # a game waits for its host
    assert game.returncode == hosted.returncode == 0, game.stderr + hosted.stderr
    out = game.stdout
    assert f"[image: {alt}]" in out, "the picture said in words"
    assert re.search(r"^A: 1 answer, 100%$", out, re.M), "the split counted in words"
    assert re.search(r"^Right answer: [A-D], 3/7\.$", out, re.M), "the right answer as a sentence"
    assert (
        "Teams:\n1. Owls: " in out and "Quiz over" in out and re.search(r"^Quiz (over|stopped): ", hosted.stdout, re.M)
    )
    assert "Saved “Rivers”: 1 question." in hosted.stdout, "written in a plain chat, saved in its own language"
    assert unplain(out.splitlines() + hosted.stdout.splitlines()) == []
