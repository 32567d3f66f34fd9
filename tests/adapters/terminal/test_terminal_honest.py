"""Honest numbers in the terminal: `quizhost play kinds-tour` answered right, partly right,
wrong, with a vote and a question left to its deadline; each reveal says what the answer was
worth and the podium counts every scored question asked."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

from bot.content.catalog import Catalog, default_quiz_folders

QUIZ = Catalog.load(default_quiz_folders()).get("kinds-tour")
OPTION = re.compile(r"^\s+([A-J])\) (.*)$")


def texts(question: int) -> list[str]:
    return [o.get("en") for o in QUIZ.questions[question].options]


# what the player does at each question: option texts to pick (in order), a text to type, or
# None to let the question reach its deadline
MULTI = texts(1)
PLAN: list[list[str] | str | None] = [
    ["3/7"],  # right
    [MULTI[i] for i in QUIZ.questions[1].answers[:2]],  # two of the three right: partly right
    ["False"],  # wrong
    None,  # not answered
    "14",  # right
    ["FSDP / ZeRO-3"],  # a vote
    [texts(6)[i] for i in (0, 1, 3, 2)],  # two steps of four in place: partly right
]


async def play(tmp_path: Path) -> str:
    env = {
        **os.environ,
        "QUIZHOST_DB": str(tmp_path / "play.db"),
        "QUIZHOST_QUESTION_SECONDS": "5",
        "QUIZHOST_PAUSE_SECONDS": "0",
        "NO_COLOR": "1",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "play", "kinds-tour",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    out: list[str] = []
    letters: dict[str, str] = {}
    asked = 0
    while line := (await asyncio.wait_for(proc.stdout.readline(), 60)).decode():
        out.append(line)
        if m := OPTION.match(line):
            letters[m.group(2)] = m.group(1)
        if "seconds to answer" in line:
            plan = PLAN[asked]
            asked += 1
            if isinstance(plan, list):
                typed = [letters[text] for text in plan] + (["done"] if "then done" in line else [])
                proc.stdin.write("".join(f"{t}\n" for t in typed).encode())
            elif isinstance(plan, str):
                proc.stdin.write(f"{plan}\n".encode())
            letters = {}
            await proc.stdin.drain()
        if "Quiz over" in line:
            proc.stdin.write(b"/quit\n")
            await proc.stdin.drain()
    assert await proc.wait() == 0
    return "".join(out)


async def test_each_answer_is_worth_what_the_reveal_and_the_podium_say(tmp_path):
    out = await play(tmp_path)
    verdicts = re.findall(r"^Your (?:answer|vote): .*?(?: \((.+?)\), \+\d+ points)?$", out, re.M)
    assert verdicts == ["right", "partly right, 67%", "wrong", "right", "", "partly right, 50%"]
    assert re.search(r"^Your vote: [A-D]$", out, re.M), "a vote: no verdict, no points"
    assert "Nobody answered." in out[out.index("Question 4/7") : out.index("Question 5/7")], "left to its deadline"
    podium = out[out.index("Quiz over") :]
    assert re.search(r": \d+ pts · 2/6 right · 53% · 2 partly right", podium), podium
