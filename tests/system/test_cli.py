"""The other CLI commands: export, validate and run without tokens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env={**base, "QUIZHOST_DB": str(tmp_path / "x.db"), **(env or {})},
        cwd=tmp_path,
        timeout=60,
    )


def test_export_prints_the_quiz_with_answers_in_authoring_order(tmp_path):
    result = cli(tmp_path, "export", "pipeline", "--lang", "en", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["id"] == "pipeline" and data["language"] == "en"
    assert len(data["questions"]) == 8
    first = data["questions"][0]
    assert set(first) == {"id", "prompt", "options", "answer", "explanation"}
    assert "GPU" in first["options"][first["answer"]]


def test_export_of_an_unknown_topic_fails_clearly(tmp_path):
    result = cli(tmp_path, "export", "astrology")
    assert result.returncode == 1 and "astrology" in result.stderr and "pipeline" in result.stderr


def test_validate_is_clean_on_the_shipped_quizzes(tmp_path):
    result = cli(tmp_path, "validate")
    assert result.returncode == 0, result.stdout
    assert "OK" in result.stdout


def test_validate_names_file_and_place_and_fails(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "id: bad\ntitle: Bad\ndescription: d\nquestions:\n  - id: q1\n    prompt: p\n"
        "    options: [a, b]\n    answer: 5\n    explanation: e.\n",
        encoding="utf-8",
    )
    result = cli(tmp_path, "validate", str(bad))
    assert result.returncode == 1
    assert "bad.yaml" in result.stdout and "q1" in result.stdout and "answer" in result.stdout


def test_run_without_a_token_points_at_env_example_and_play(tmp_path):
    result = cli(tmp_path, "run")
    assert result.returncode == 2
    assert ".env.example" in result.stderr and "quizhost play" in result.stderr


def test_run_with_the_platform_unreachable_says_so_in_one_line(tmp_path):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = "123456:SECRET-token-value-of-35-characters"
    result = cli(tmp_path, "run", env={"TELEGRAM_BOT_TOKEN": token, "TELEGRAM_API_URL": f"http://127.0.0.1:{port}/bot"})
    assert result.returncode == 1
    assert "could not reach the platform" in result.stderr
    assert "Traceback" not in result.stderr and token not in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("variable", "token", "platform"),
    [
        ("TELEGRAM_BOT_TOKEN", "abc", "Telegram"),
        ("TELEGRAM_BOT_TOKEN", "bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawX", "Telegram"),  # "bot" pasted too
        ("TELEGRAM_BOT_TOKEN", "123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "Telegram"),  # a character short
        ("DISCORD_BOT_TOKEN", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl", "Discord"),  # the last part missing
        ("DISCORD_BOT_TOKEN", "Bot MTIz.GhIjKl.abcdef", "Discord"),  # the header's word pasted too
    ],
)
def test_a_malformed_token_ends_run_at_once_naming_the_platform_without_the_token(tmp_path, variable, token, platform):
    import socket

    with socket.socket() as listening:  # a platform that would answer: nothing may connect to it
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        listening.settimeout(0)
        port = listening.getsockname()[1]
        api = {"TELEGRAM_API_URL": f"http://127.0.0.1:{port}/bot"}
        result = cli(tmp_path, "run", env={variable: token, **api})
        with pytest.raises(BlockingIOError):
            listening.accept()
    assert result.returncode == 2
    assert f"quizhost: {variable} is malformed: a {platform} bot token is" in result.stderr
    assert token not in result.stderr + result.stdout and "Traceback" not in result.stderr
    assert not (tmp_path / "x.db").exists(), "nothing opened"


def test_version_is_the_packages_own(tmp_path):
    import tomllib

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8"))["project"]
    result = cli(tmp_path, "--version")
    assert result.returncode == 0 and result.stdout == f"quizhost {project['version']}\n"


def test_a_quiz_exported_as_yaml_with_its_picture_validates_and_keeps_its_difficulty(tmp_path):
    result = cli(tmp_path, "export", "kinds-tour", "--format", "yaml", "--output", "out/tour.yaml")
    assert result.returncode == 0, result.stderr
    written = tmp_path / "out" / "tour.yaml"
    shipped = Path(__file__).parents[2] / "quizzes" / "kinds-tour" / "pipeline-bubble.png"
    assert (tmp_path / "out" / "kinds-tour" / "pipeline-bubble.png").read_bytes() == shipped.read_bytes()
    assert "difficulty: medium" in written.read_text("utf-8")
    checked = cli(tmp_path, "validate", str(written))
    assert checked.returncode == 0 and "1 quiz file(s) OK" in checked.stdout, checked.stdout + checked.stderr


def test_a_yaml_export_to_standard_output_says_how_to_get_its_pictures(tmp_path):
    result = cli(tmp_path, "export", "kinds-tour", "--format", "yaml")
    assert result.returncode == 0 and result.stdout.startswith("id: kinds-tour")
    assert "give --output FILE to write them beside the YAML too" in result.stderr


def test_the_first_command_leaves_nothing_git_would_add(tmp_path):
    """`quizhost play pipeline` in a fresh clone: its database and the files beside it are ignored."""
    import shutil

    if shutil.which("git") is None:
        pytest.skip("needs git")
    shutil.copy(Path(__file__).parents[2] / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN") and k != "QUIZHOST_DB"}
    played = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "pipeline"],
        input="a\nb\nc\nd\na\nb\nc\nd\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert played.returncode == 0 and "Quiz over" in played.stdout, played.stderr
    assert (tmp_path / "quizhost.db").exists(), "the default database, beside where it was run"
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert status.stdout.splitlines() == ["?? .gitignore"]


def test_validate_warns_of_a_picture_without_alt_and_passes(tmp_path):
    (tmp_path / "pics").mkdir()
    picture = Path(__file__).resolve().parents[2] / "quizzes" / "kinds-tour" / "pipeline-bubble.png"
    (tmp_path / "pics" / "chart.png").write_bytes(picture.read_bytes())
    quiz = tmp_path / "pictures.yaml"
    quiz.write_text(
        "id: pictures\ntitle: Pictures\ndescription: d\nquestions:\n"
        "  - id: bare\n    prompt: p\n    media: pics/chart.png\n    options: [a, b]\n    answer: 0\n"
        "  - id: described\n    prompt: p\n    media: {src: pics/chart.png, alt: A chart}\n"
        "    options: [a, b]\n    answer: 0\n",
        encoding="utf-8",
    )
    result = cli(tmp_path, "validate", str(quiz))
    assert result.returncode == 0, result.stdout + result.stderr
    (warning,) = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert "pictures.yaml" in warning and "question bare: media" in warning and "alt" in warning
    assert "1 quiz file(s) OK" in result.stdout
