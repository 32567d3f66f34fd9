"""`quizhost play trivia-night` in the terminal: each round announced before its first question,
the standings after the first round only; `quizhost export` writes its rounds back."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from bot.content.catalog import Catalog, default_quiz_folders
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


def test_quizhost_export_writes_the_rounds_back_and_validate_reads_them(tmp_path):
    for fmt in ("yaml", "json"):
        written = tmp_path / f"night.{fmt}"
        exported = quizhost(tmp_path, "export", "trivia-night", "--format", fmt, "--output", str(written))
        assert exported.returncode == 0, exported.stderr
        folder = tmp_path / fmt
        folder.mkdir()
        (folder / "night.yaml").write_text(written.read_text(encoding="utf-8"), encoding="utf-8")  # JSON is YAML
        checked = quizhost(tmp_path, "validate", str(folder))
        assert checked.returncode == 0 and "1 quiz file(s) OK" in checked.stdout, checked.stdout
        again = Catalog.load([folder]).get("trivia-night")
        shipped = Catalog.load(default_quiz_folders()).get("trivia-night")
        assert again is not None and shipped is not None
        # an export is in one language (English here): the rest of each round and question is the same
        assert [(r.name.get("en"), r.question_ids, r.multiplier) for r in again.rounds] == [
            (r.name.get("en"), r.question_ids, r.multiplier) for r in shipped.rounds
        ]
        english = [(q.id, q.answer, q.hint and q.hint.get("en"), q.prompt.get("en")) for q in shipped.questions]
        assert [(q.id, q.answer, q.hint and q.hint.get("en"), q.prompt.get("en")) for q in again.questions] == english


def quizhost(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZHOST_", "TELEGRAM_", "DISCORD_"))}
    env.update(QUIZHOST_DB=str(tmp_path / "cli.db"))
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )


WRITING_ROUNDS = """\
/newquiz Rivers night
/round Warm-up
Longest river? | *Nile | Amazon > About 6650 km.
/hint It ends in Egypt.
/round Finale x2
Which flows into the Atlantic? | *Amazon | Ganges
/done
"""


def test_a_quiz_of_rounds_written_in_the_terminal_exports_its_rounds_and_hint(tmp_path):
    written = play(tmp_path, stdin=WRITING_ROUNDS)
    assert written.returncode == 0, written.stderr
    assert "Hint for question 1: It ends in Egypt." in written.stdout
    assert "Round 2: Finale. The next questions belong to it. points ×2" in written.stdout
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db")}
    env.pop("QUIZHOST_QUIZZES", None)
    exported = subprocess.run(
        [sys.executable, "-m", "bot.cli", "export", "rivers-night", "--chat", "console:terminal", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    rounds = json.loads(exported.stdout)["rounds"]
    assert [(r["name"], r.get("multiplier"), [q["id"] for q in r["questions"]]) for r in rounds] == [
        ("Warm-up", None, ["q1"]),
        ("Finale", 2, ["q2"]),
    ]
    assert rounds[0]["questions"][0]["hint"] == "It ends in Egypt."
