"""Quiz files that try to hurt: alias bombs, deep nesting, huge files. Each is refused with
one clear problem naming the budget it broke, before any tree is built from it."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import yaml

from bot.content.catalog import default_quiz_folders, load_quiz_file
from bot.content.yamlguard import DEFAULT_BUDGET, Budget, check_budget, check_events

LEVELS = "abcdefghi"


def alias_bomb(repeated_key: bool = True) -> str:
    """Nine anchors, each nine of the one before: 9**9 (387 million) values in about 300 bytes."""
    lines = ["id: bomb", "a: &a [x, x, x, x, x, x, x, x, x]"]
    for before, name in itertools.pairwise(LEVELS):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{before}"] * 9) + "]")
    if repeated_key:
        lines.append("id: bomb-again")  # a repeated key: locating it used to walk the expanded tree
    return "\n".join(lines) + "\n"


def test_the_alias_bomb_with_a_repeated_key_is_one_problem_naming_the_aliases(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb(), encoding="utf-8")
    assert bomb.stat().st_size < 1024
    quiz, problems = load_quiz_file(bomb)
    assert quiz is None
    # one problem: the repeated key was never looked for, since no node tree was ever built
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.place == "file" and "aliases are expanded" in problem.message
    assert problem.line is not None and problem.line < len(alias_bomb().splitlines())  # before the repeat


def test_the_budget_is_decided_on_the_events_each_read_once():
    events = list(yaml.parse(alias_bomb()))
    consumed = 0

    def counted():
        nonlocal consumed
        for event in events:
            consumed += 1
            yield event

    assert check_events(counted()) is not None
    assert consumed < len(events)  # refused part-way through the file's own events: nothing expanded


def test_deep_nesting_and_many_aliases_are_refused():
    deep = "id: deep\nx: " + "[" * (DEFAULT_BUDGET.max_depth + 1) + "]" * (DEFAULT_BUDGET.max_depth + 1) + "\n"
    assert "levels deep" in check_budget(deep).message
    many = "a: &a x\nb: [" + ", ".join(["*a"] * (DEFAULT_BUDGET.max_aliases + 1)) + "]\n"
    assert "aliases" in check_budget(many).message


def test_a_file_over_the_size_budget_is_refused_by_its_size():
    over = check_budget("id: big\n# " + "x" * 200 + "\n", Budget(max_bytes=100))
    assert over is not None and "bytes" in over.message and over.line == 1


def test_the_shipped_quizzes_are_well_within_every_budget():
    shipped = sorted(default_quiz_folders()[0].glob("*.yaml"))
    assert len(shipped) >= 2
    for path in shipped:
        text = path.read_text(encoding="utf-8")
        assert check_budget(text, Budget(max_bytes=len(text.encode()) * 4, max_nodes=50_000)) is None


def test_anchors_used_honestly_still_load_and_a_repeated_key_is_placed(tmp_path):
    text = """\
id: anchors
title: Anchors
description: &why Shared text.
questions:
  - id: q1
    prompt: Which?
    options: [a, b]
    answer: 0
    explanation: *why
  - id: q2
    prompt: Which?
    prompt: Which one?
    options: [a, b]
    answer: 1
    explanation: *why
"""
    path = tmp_path / "anchors.yaml"
    path.write_text(text, encoding="utf-8")
    quiz, problems = load_quiz_file(path)
    assert quiz is None and len(problems) == 1
    assert problems[0].line == 12 and "prompt" in problems[0].place and "twice" in problems[0].message
    path.write_text(text.replace("    prompt: Which?\n    prompt", "    prompt"), encoding="utf-8")
    quiz, problems = load_quiz_file(path)
    assert problems == [] and quiz is not None and quiz.questions[1].explanation.get("en") == "Shared text."


def test_validate_counts_loaded_and_failed_files(tmp_path):
    shipped = default_quiz_folders()[0] / "pipeline.yaml"
    (tmp_path / "good.yaml").write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bomb.yaml").write_text(alias_bomb(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "validate", str(tmp_path)],
        capture_output=True,
        text=True,
        env={**env, "QUIZHOST_DB": str(tmp_path / "x.db")},
        timeout=60,
    )
    assert result.returncode == 1
    assert "bomb.yaml:" in result.stdout and "aliases" in result.stdout
    assert "2 quiz file(s): 1 loaded, 1 failed" in result.stderr
