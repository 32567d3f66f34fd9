"""`quizhost play` with questions put in order, from piped input as a person would type it:
letters place the options one after another, a letter typed again takes it back, "done" submits,
and the reveal shows the right order; scored all or nothing, or by the share of places right."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

QUIZ = {
    "id": "order",
    "title": "In order",
    "description": "Questions put in order",
    "questions": [
        {
            # two options are never shown in the right order: always B, then A
            "id": "closest",
            "kind": "ordering",
            "prompt": "From the Sun outwards?",
            "options": ["Mercury", "Venus"],
            "explanation": "Mercury is the closest planet to the Sun; Venus is the second.",
        },
        {
            "id": "sizes",
            "kind": "ordering",
            "scoring": "partial",
            "prompt": "Smallest first?",
            "options": ["one", "two", "three", "four"],
        },
        {
            "id": "planets",
            "kind": "ordering",
            "prompt": "The outer planets from the Sun outwards?",
            "options": ["Jupiter", "Saturn", "Uranus", "Neptune"],
        },
    ],
}


def play(tmp_path: Path, stdin: str) -> str:
    folder = tmp_path / "quizzes"
    folder.mkdir()
    (folder / "order.yaml").write_text(yaml.safe_dump(QUIZ, allow_unicode=True), encoding="utf-8")
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db"), "QUIZHOST_QUIZZES": str(folder), "NO_COLOR": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "order"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def shown_options(out: str, prompt: str) -> list[str]:
    """The option texts in the order (A, B, ...) the question headed `prompt` showed them."""
    card = out[out.index(prompt) :]
    return [m.group(1) for m in itertools.takewhile(bool, _option_lines(card))]


def _option_lines(card: str):
    for line in card.splitlines()[2:]:
        yield re.fullmatch(r"\s+[A-J]\) (.+)", line)


def test_an_order_is_typed_taken_back_submitted_and_revealed(tmp_path):
    out = play(tmp_path, "b\nb\nb a\ndone\na b c d\ndone\na b c d\ndone\n")

    assert "Put these in order: press them first to last (press one again to take it back)" in out
    assert "→ Your order: B → …" in out
    assert "→ No option placed." in out, "the second press took it back"
    assert "→ Your order: B → A" in out and "→ Your answer: B → A" in out, "complete, then Done"
    assert "Right order: B → A" in out and "Mercury is the closest planet" in out
    assert re.search(r"Your answer: B → A \(right\), \+\d+ points", out)

    sizes = shown_options(out, "Smallest first?")
    in_place = sum(1 for place, text in enumerate(sizes) if QUIZ["questions"][1]["options"][place] == text)
    said = re.search(r"Your answer: A → B → C → D \((right|wrong|partly right, (\d+)%)\), \+(\d+) points", out)
    points = int(said.group(3))
    if 0 < in_place < 4:
        assert said.group(2) == str(round(100 * in_place / 4)), "partly right, by the share in place"
    assert round(in_place / 4 * 500) <= points <= round(in_place / 4 * 1000), "that share of the speed points"

    outer = out[out.index("The outer planets") :]
    assert re.search(r"Your answer: A → B → C → D \(wrong\), \+0 points", outer), "all or nothing: never shown solved"
    assert "Quiz over" in out
