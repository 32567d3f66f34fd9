"""quizhost as an operator installs it: a wheel built from the project's files (what a clean clone
has), installed into a fresh virtualenv, serves every command from a folder far from any checkout.

Slow (it builds a wheel and installs the dependencies into a new virtualenv, about a minute), so it
is marked `slow`: `pytest -m "not slow"` leaves it out; the default run and .ci/run include it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import ROOT_DIR
from tests.system.test_platform_bench import NUMBER, TINY, figures_of, rows

ROOT = ROOT_DIR
DEVANAGARI = re.compile(r"[\u0900-\u097F]")

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Installed:
    """A fresh virtualenv holding only the wheel and its dependencies, and a folder to run in."""

    venv: Path
    folder: Path

    def quizhost(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        # no PYTHONPATH, no checkout on the path, no token or .env of this machine
        env = {"PATH": f"{self.venv / 'bin'}{os.pathsep}/usr/bin:/bin", "HOME": str(self.folder)}
        return subprocess.run(
            [str(self.venv / "bin" / "quizhost"), *args],
            cwd=self.folder,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )


def project_files() -> list[str]:
    """The files a clean clone would have: tracked ones and new ones git does not ignore."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted({name for name in listed.split("\0") if name and (ROOT / name).is_file()})


def run(*command: str | Path, cwd: Path) -> None:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("builds the wheel from a git checkout's files")
    work = tmp_path_factory.mktemp("package")
    source = work / "source"
    for name in project_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", work / "dist", "./source", cwd=work
    )
    (wheel,) = (work / "dist").glob("quizhost-*.whl")
    venv.create(work / "venv", with_pip=True)
    run(work / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=work)
    folder = work / "elsewhere"
    folder.mkdir()
    return Installed(work / "venv", folder)


def test_the_installed_package_is_the_one_that_runs(installed):
    code = "import bot, bot.testing.fake_telegram, quizzes; print(bot.__file__); print(quizzes.__file__)"
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", code],
        cwd=installed.folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    code_file, quizzes_file = map(Path, done.stdout.split())
    assert code_file.is_relative_to(installed.venv), done.stdout
    # the shipped quizzes are a top-level package of the wheel, beside bot and storage
    assert quizzes_file.parent.parent == code_file.parent.parent
    assert sorted(p.name for p in quizzes_file.parent.glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "quizzes").glob("*.yaml")
    )
    assert (quizzes_file.parent / "quiz.schema.json").is_file()


def test_validate_finds_every_shipped_quiz(installed):
    done = installed.quizhost("validate")
    shipped = len(list((ROOT / "quizzes").glob("*.yaml")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{shipped} quiz file(s) OK" in done.stdout


def test_export_prints_the_pipeline_quiz_in_hindi(installed):
    done = installed.quizhost("export", "pipeline", "--lang", "hi", "--format", "json")
    assert done.returncode == 0, done.stderr
    quiz = json.loads(done.stdout)
    assert quiz["id"] == "pipeline" and quiz["language"] == "hi"
    assert len(quiz["questions"]) == 8
    assert all(DEVANAGARI.search(q["prompt"]) for q in quiz["questions"])


def test_play_runs_a_quiz_from_piped_input(installed):
    done = installed.quizhost("play", stdin="/quiz pipeline\nB\n")
    assert done.returncode == 0, done.stderr
    assert "Question 1/8 · Model and Pipeline Parallelism" in done.stdout
    assert "Locked in: B" in done.stdout
    assert re.search(r"Right answer: [A-D]\) ", done.stdout)  # options are shuffled per run
    assert (installed.folder / "quizhost.db").is_file()  # the database is made where it runs


def test_bench_drives_the_telegram_adapter_against_the_shipped_fake(installed):
    done = installed.quizhost("bench", "--platform", "telegram", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = rows(done.stdout)
    for mode in ("polling", "webhook"):
        figures_of(found, mode, presses=6)


def test_bench_drives_the_discord_adapter_against_the_shipped_fake(installed):
    done = installed.quizhost("bench", "--platform", "discord", *TINY)
    assert done.returncode == 0, done.stderr[-3000:]
    found = rows(done.stdout)
    figures_of(found, "gateway", presses=6)
    assert re.fullmatch(NUMBER, found["raw_aiohttp_per_s"][0])
