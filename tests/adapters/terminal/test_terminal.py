"""`quizhost play` as a person uses it, through a real subprocess with piped input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.content.catalog import Catalog, default_quiz_folders
from tests.support.heavy_files import deep_json
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR


def play(
    tmp_path: Path, *args: str, stdin: str, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db"), "NO_COLOR": "1", **(extra_env or {})}
    env.pop("QUIZHOST_QUIZZES", None)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def shipped(quiz_id: str):
    quiz = Catalog.load(default_quiz_folders()).get(quiz_id)
    if quiz is None:
        pytest.fail(f"the shipped quiz {quiz_id!r} is missing")
    return quiz


def test_a_whole_quiz_from_piped_input(tmp_path):
    quiz = shipped("pipeline")
    result = play(tmp_path, "pipeline", stdin="a\nb\nc\nd\na\nb\nc\nd\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for number in range(1, 9):
        assert f"Question {number}/8" in out
    for question in quiz.questions:
        assert question.prompt.get("en") in out
        assert question.explanation.get("en").split("\n")[0] in out
    assert "Quiz over" in out and "pts" in out
    assert out.count("Locked in") == 8
    assert "\033[" not in out, "no colour codes when the output is not a terminal"


def test_the_leaderboard_remembers_the_game(tmp_path):
    play(tmp_path, "pipeline", stdin="a\n" * 8)
    result = play(tmp_path, stdin="/leaderboard\n/stats\n")
    assert "Leaderboard" in result.stdout and "You" in result.stdout
    assert "Answered: 8" in result.stdout


def test_unknown_topic_and_unknown_input_get_clear_messages(tmp_path):
    result = play(tmp_path, "no-such-quiz", stdin="hello\n/nonsense\n")
    assert result.returncode == 0
    assert "No quiz matches “no-such-quiz”" in result.stdout and "pipeline" in result.stdout
    assert "Unknown command /nonsense" in result.stdout
    assert "Type a letter to answer" in result.stdout


def test_end_of_input_in_the_middle_stops_the_run_cleanly(tmp_path):
    result = play(tmp_path, "pipeline", stdin="a\n")
    assert result.returncode == 0, result.stderr
    assert "Quiz stopped" in result.stdout
    assert "Traceback" not in result.stderr


def test_bad_setting_names_the_variable(tmp_path):
    result = play(tmp_path, "pipeline", stdin="", extra_env={"QUIZHOST_QUESTION_SECONDS": "soon"})
    assert result.returncode == 2
    assert "QUIZHOST_QUESTION_SECONDS" in result.stderr


def test_a_reader_that_leaves_early_ends_nothing_badly(tmp_path):
    """`quizhost play | head -3`: the game finishes unseen and the answers are still stored."""
    env = {**os.environ, "QUIZHOST_DB": str(tmp_path / "play.db"), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "pipeline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(b"a\n" * 8, timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err
    result = play(tmp_path, stdin="/stats\n")
    assert "Answered: 8" in result.stdout


def test_a_letter_past_the_last_option_is_refused_and_the_question_stays_open(tmp_path):
    result = play(tmp_path, "pipeline", "1", stdin="e\nb\n")
    assert result.returncode == 0, result.stderr
    assert "That is not one of the options." in result.stdout
    assert "Locked in: B" in result.stdout and "Quiz over" in result.stdout


def test_the_terminals_help_and_newquiz_speak_of_typing_and_quit_leaves(tmp_path):
    result = play(tmp_path, stdin="/help\n/newquiz Rivers\nLongest river? | *Nile | Amazon\n/quit\n/quiz pipeline\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "press a button" not in out and "poll per question" not in out and "Send quiz polls" not in out
    assert "type a letter (or your answer) to answer" in out and "/quit: leave quizhost" in out
    assert "/assign" not in out, "no group to assign to in the terminal"
    assert "New quiz “Rivers”. Type each question on a line: prompt | option | *right option" in out
    assert "Question 1 added: Longest river?" in out
    assert "Question 1/" not in out, "nothing after /quit is read"


def test_quit_stops_a_running_quiz_and_leaves(tmp_path):
    result = play(tmp_path, "pipeline", stdin="a\n/quit\nb\nc\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Locked in") == 1 and "Quiz stopped: Model and Pipeline Parallelism" in result.stdout


def test_stop_ends_a_review_and_the_cards_left_stay_due(tmp_path):
    missed = play(tmp_path, "pipeline", stdin="a\n" * 8)  # A is wrong for most questions
    due = missed.stdout.count("(wrong)")
    assert due >= 2, missed.stdout
    result = play(tmp_path, stdin="/review\na\n/stop\nb\n/review\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"{due} cards are due ({due} in your deck)" in out
    stopped = out.index("⏹ Review stopped")
    assert "of 1 right.\nThe cards you did not get to stay due: /review asks them again." in out[stopped:]
    assert f"Question 2/{due} · Review" not in out, "no card after /stop"
    assert "No question is open right now." in out[stopped:], "b answers nothing"
    assert f"{due - 1} cards are due ({due} in your deck)" in out[stopped:], "/review again asks the rest"


def test_upload_in_the_terminal_is_playable_at_once(tmp_path):
    quiz_file = tmp_path / "capitals.txt"
    quiz_file.write_text("Capital of France?\nA. Berlin\nB. Paris\nANSWER: B\n", encoding="utf-8")
    result = play(tmp_path, stdin=f"/upload {quiz_file}\n/quizzes\n/quiz capitals\nb\n/upload {tmp_path}/nope.gift\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Saved capitals: 1 question." in out and "• capitals (capitals): 1 question" in out
    assert "Capital of France?" in out and "Right answer: " in out
    assert f"Cannot read {tmp_path}/nope.gift" in out


def test_an_upload_in_the_terminal_lists_each_questions_answer_key(tmp_path):
    quiz_file = tmp_path / "keys.yaml"
    quiz_file.write_text(
        "id: keys\ntitle: Keys\ndescription: Every kind\nquestions:\n"
        '  - {id: one, prompt: "Capital of France?", options: [Lyon, Paris], answer: 1}\n'
        '  - {id: some, kind: multi, prompt: "Which are primes?", options: ["2", "4", "5"], answer: [0, 2]}\n'
        '  - {id: typed, kind: typed, prompt: "Spell the word\\nfor a hue", accept: [colour, color]}\n'
        '  - {id: number, kind: numeric, prompt: "Pi to two places?", answer: 3.14, tolerance: 0.01}\n'
        '  - {id: vote, kind: poll, prompt: "Tea or coffee?", options: [Tea, Coffee]}\n'
        f'  - {{id: long, kind: truefalse, prompt: "{"Is this long? " * 10}", answer: false}}\n',
        encoding="utf-8",
    )
    result = play(tmp_path, stdin=f"/upload {quiz_file}\n")
    assert result.returncode == 0, result.stderr
    assert (
        "Saved keys: 6 questions.\nStart it with /quiz keys.\n\nAnswer keys:\n"
        "1. Capital of France?: Paris\n"
        "2. Which are primes?: 2, 5\n"
        "3. Spell the word for a hue: colour / color\n"
        "4. Pi to two places?: 3.14 ± 0.01\n"
        "5. Tea or coffee?: A poll: no answer is right.\n"
        "6. Is this long? Is this long? Is this long? Is this long? Is …: False\n"
    ) in result.stdout


def test_a_file_nested_too_deep_is_refused_in_the_terminal_without_a_traceback(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_bytes(deep_json())
    result = play(tmp_path, stdin=f"/upload {deep}\n/quizzes\n")
    assert result.returncode == 0, result.stderr
    assert "Nothing was saved: deep.json has these problems:\n• file: nested too deeply to read" in result.stdout
    assert "Traceback" not in result.stderr and "Something went wrong" not in result.stdout
