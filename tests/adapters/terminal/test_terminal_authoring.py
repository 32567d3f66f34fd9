"""/newquiz in the terminal (issue #23): a question per line in the fixed layout, edited, moved and
saved; `quizhost export --chat` gives its quiz file back, every field kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.adapters.terminal.test_terminal import play

WRITING = """\
/newquiz Rivers of the world
Longest river? | *Nile | Amazon > About 6650 km.
Nile | Amazon
Which flow into the Atlantic? | *Amazon | *Congo | Ganges
Your favourite river? | Nile | Thames | Mekong
/edit 1 Longest river in Africa? | *Nile | Congo > About 6650 km.
/move 3 1
/delete 7
/done
"""


def export(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db")}
    env.pop("QUIZHOST_QUIZZES", None)
    command = [sys.executable, "-m", "bot.cli", "export", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)


def test_a_quiz_written_line_by_line_is_saved_and_exports_as_its_file(tmp_path):
    result = play(tmp_path, stdin=WRITING)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Question 1 added: Longest river?" in out and "Question 3 added: Your favourite river?" in out
    assert "Write a question as: prompt | option | *right option | option > explanation" in out  # the bad line
    assert "Question 1 replaced: Longest river in Africa?" in out
    assert "Give a question number: the draft has 3 questions." in out  # /delete 7 changed nothing
    assert "Saved “Rivers of the world”: 3 questions. /quiz rivers-of-the-world plays it here" in out

    exported = export(tmp_path, "rivers-of-the-world", "--chat", "console:terminal", "--format", "yaml")
    assert exported.returncode == 0, exported.stderr
    assert yaml.safe_load(exported.stdout) == {
        "id": "rivers-of-the-world",
        "difficulty": "medium",
        "language": "en",
        "title": "Rivers of the world",
        "description": "A quiz You wrote in the chat.",
        "questions": [
            {
                "id": "q3",
                "kind": "poll",
                "prompt": "Your favourite river?",
                "options": ["Nile", "Thames", "Mekong"],
                "explanation": None,
            },
            {
                "id": "q1",
                "prompt": "Longest river in Africa?",
                "options": ["Nile", "Congo"],
                "answer": 0,
                "explanation": "About 6650 km.",
            },
            {
                "id": "q2",
                "kind": "multi",
                "prompt": "Which flow into the Atlantic?",
                "options": ["Amazon", "Congo", "Ganges"],
                "answer": [0, 1],
                "explanation": None,
            },
        ],
    }
    missing = export(tmp_path, "nothing-here", "--chat", "console:terminal")
    assert missing.returncode == 1 and "chat console:terminal has no quiz “nothing-here”" in missing.stderr
