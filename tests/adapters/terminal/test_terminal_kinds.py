"""`quizhost play` with every kind of question, from piped input as a person would type it:
letters toggle picks and "done" or Enter ends them, typed and numeric answers are typed, a
picture is said in words and a sound is a link."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

QUIZ = {
    "id": "kinds",
    "title": "Every kind",
    "description": "One question of each kind",
    "questions": [
        {
            "id": "primes",
            "kind": "multi",
            "prompt": "Which are prime?",
            "options": ["2", "4", "5", "9"],
            "answer": [0, 2],
            "shuffle": False,
        },
        {"id": "boil", "kind": "truefalse", "prompt": "Water boils at 100 °C at sea level.", "answer": True},
        {"id": "eth", "kind": "typed", "prompt": "Which Swiss city has the ETH?", "accept": ["Zürich"]},
        {"id": "pi", "kind": "numeric", "prompt": "Pi to two places?", "answer": 3.14, "tolerance": 0.005},
        {"id": "tabs", "kind": "poll", "prompt": "Tabs or spaces?", "options": ["Tabs", "Spaces"], "shuffle": False},
        {
            "id": "lion",
            "prompt": "Which animal is this?",
            "options": ["Lion", "Tiger"],
            "answer": 0,
            "shuffle": False,
            "media": {"src": "pictures/lion.jpg", "alt": "a big cat with a mane"},
            "explanation": "The mane gives it away.",
            "explanation_media": {"src": "https://example.org/roar.mp3"},
        },
    ],
}


def play(tmp_path: Path, stdin: str) -> subprocess.CompletedProcess:
    folder = tmp_path / "quizzes"
    (folder / "pictures").mkdir(parents=True)
    (folder / "kinds.yaml").write_text(yaml.safe_dump(QUIZ, allow_unicode=True), encoding="utf-8")
    (folder / "pictures" / "lion.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a picture")
    env = {
        **os.environ,
        "QUIZHOST_DB": str(tmp_path / "play.db"),
        "QUIZHOST_QUIZZES": str(folder),
        "NO_COLOR": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "kinds"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def test_every_kind_is_played_from_the_keyboard(tmp_path):
    result = play(tmp_path, stdin="a c\nb\nb\n\nb\nzurch\npi\n3,14\nb\na\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Select all that apply" in out and "type letters to pick, then done" in out
    assert "→ Your picks: A, C" in out and "→ Your picks: A, B, C" in out
    assert "→ Your answer: A, C" in out, "Enter made the picks final"
    assert "Right answers: A, C" in out
    assert "True or false?" in out
    assert "Type your answer" in out and "→ Locked in: zurch" in out
    assert "Reply with your answer" not in out and "Press Answer" not in out, "no button, nothing to reply to"
    assert "Right answer: Zürich" in out
    assert "Type a number" in out and "→ Not a number: pi." in out and "→ Locked in: 3,14" in out
    assert "Right answer: 3.14 ± 0.005" in out
    assert "Poll results" in out and "1 vote" in out and "Your vote: B" in out
    assert "[image: a big cat with a mane]" in out
    assert "Listen: https://example.org/roar.mp3" in out
    assert "Quiz over" in out
    # the picks (right), False (wrong), the typo (right), 3,14 (right), the poll (no answer), the lion
    assert "4/5 right" in out, out[-600:]
