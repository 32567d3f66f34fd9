"""`quizhost play` across sessions: a quiz left open, and the language chosen with --lang."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot.adapters.console.terminal import ConsoleAdapter
from bot.app.settings import load_settings
from bot.app.wiring import open_house, open_terminal
from bot.content.catalog import Catalog, default_quiz_folders
from bot.testing.clock import FakeClock
from bot.texts.i18n import t
from tests.support.house import remember


async def a_terminal(tmp_path: Path, clock: FakeClock, topic: str, out: io.StringIO):
    """One `quizhost play` session on the same database, up to its first lines."""
    settings = load_settings(None, quizhost_db=str(tmp_path / "play.db"))
    context = open_house(settings, clock=clock, pause=0.0)
    house = remember(await context.__aenter__())
    engine = house.engine
    console = ConsoleAdapter(out=out, colour=False)
    engine.attach(console)
    commands = house.commands
    await engine.resume()
    await open_terminal(house, console, topic, None)
    return context, engine, console, commands


async def test_a_quiz_left_open_shows_its_question_again_at_once(tmp_path):
    first = Catalog.load(default_quiz_folders()).get("pipeline").questions[0].prompt.get("en")
    clock, before = FakeClock(), io.StringIO()
    context, engine, _, _ = await a_terminal(tmp_path, clock, "pipeline", before)
    await engine.run_due()
    assert first in before.getvalue()
    await context.__aexit__(None, None, None)  # the terminal was closed with question 1 open

    clock.advance(10)  # back within the question's 30 s
    after = io.StringIO()
    context, engine, console, commands = await a_terminal(tmp_path, clock, "", after)
    try:
        shown = after.getvalue()
        assert "Question 1/8" in shown and first in shown, "the open question is shown before anything else happens"
        assert "📚 Quizzes" not in shown, "no catalogue offered while a quiz is running"
        await console.handle_line(commands, "b")
        assert "Locked in: B" in after.getvalue()
    finally:
        await context.__aexit__(None, None, None)


def play(tmp_path: Path, *args: str, stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db"), "NO_COLOR": "1"}
    env.pop("QUIZHOST_QUIZZES", None)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )


def test_play_lang_sets_the_terminal_chats_language_and_says_so(tmp_path):
    chosen = play(tmp_path, "--lang", "hi", stdin="")
    assert chosen.returncode == 0, chosen.stderr
    assert t("hi", "Language set to {name}.", name="हिन्दी") in chosen.stdout
    later = play(tmp_path, stdin="/settings\n")  # no --lang: the terminal chat kept Hindi, as /language keeps it
    assert t("hi", "⚙️ Settings") in later.stdout
    assert t("hi", "📚 Quizzes") in later.stdout


def test_play_help_says_that_lang_is_kept():
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    words = " ".join(result.stdout.split())  # argparse wraps the help to the terminal's width
    assert "--lang" in words and "like /language, it is kept for the next games" in words
