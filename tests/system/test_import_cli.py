"""`quizhost import`: the YAML it writes validates, round trips through export, skips go to
stderr with their place, exit codes, stable ids, and hostile files refused with a reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.cli import main
from bot.content.catalog import load_quiz_file
from bot.content.export import export_quiz
from bot.content.importers import import_quiz
from tests.support.heavy_files import deep_json
from tests.support.paths import FIXTURES_DIR
from tests.support.sheet_files import kahoot_xlsx, quizizz_xlsx

FIXTURES = FIXTURES_DIR / "imports"
SOURCES = [
    "physics.gift",
    "windows.gift",
    "capitals.txt",
    "trivia.json",
    "trivia-base64.json",
    "kahoot.xlsx",
    "quizizz.xlsx",
]


def source(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    if name == "kahoot.xlsx":
        path.write_bytes(kahoot_xlsx())
    elif name == "quizizz.xlsx":
        path.write_bytes(quizizz_xlsx())
    else:
        path.write_bytes((FIXTURES / name).read_bytes())
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["import", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", SOURCES)
def test_round_trip_import_then_export_json_gives_the_imported_questions(tmp_path, capsys, name):
    path = source(tmp_path, name)
    code, _, err = run(capsys, str(path), "-o", str(tmp_path / "out.yaml"))
    assert code == 0, err
    quiz, problems = load_quiz_file(tmp_path / "out.yaml")
    assert problems == [] and quiz is not None
    written = yaml.safe_load((tmp_path / "out.yaml").read_text(encoding="utf-8"))
    exported = export_quiz(quiz, "en")
    assert [
        {k: q.get(k) for k in ("id", "prompt", "options", "answer", "explanation")} for q in written["questions"]
    ] == [{k: q.get(k) for k in ("id", "prompt", "options", "answer", "explanation")} for q in exported["questions"]]
    assert [q.get("seconds") for q in written["questions"]] == [q.get("seconds") for q in exported["questions"]]


def test_skipped_questions_go_to_stderr_with_line_and_reason(tmp_path, capsys):
    path = source(tmp_path, "physics.gift")
    code, out, err = run(capsys, str(path))
    assert code == 0
    assert f"{path}: line 40: skipped: a matching question" in err
    assert f"{path}: 12 question(s) imported as 'physics', 4 skipped" in err
    assert yaml.safe_load(out)["id"] == "physics"


def test_a_question_with_several_blanks_is_skipped_naming_its_line(tmp_path, capsys):
    """Moodle reads the first braces only: the second blank's answer would be shown in the prompt."""
    path = tmp_path / "future.gift"
    path.write_text(
        "// Future forms\n::Q1:: I {=will} call you later.\n\n"
        "::Q2:: _____ I {=shall} tell you a secret? {=tell} (tell)\n\n"
        "::Q3:: Braces \\{ written \\} as text {=fine}\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, str(path))
    assert code == 0
    assert f"{path}: line 4: skipped: several blanks with answers in braces" in err
    assert f"{path}: 2 question(s) imported as 'future', 1 skipped" in err
    kept = yaml.safe_load(out)["questions"]
    assert [(q["prompt"], q["accept"]) for q in kept] == [
        ("I _____ call you later.", ["will"]),
        ("Braces { written } as text", ["fine"]),
    ]


def test_validate_accepts_the_output_and_strict_lists_questions_without_explanation(tmp_path, capsys):
    path = source(tmp_path, "capitals.txt")
    assert run(capsys, str(path), "-o", str(tmp_path / "capitals.yaml"))[0] == 0
    assert main(["validate", str(tmp_path / "capitals.yaml")]) == 0
    capsys.readouterr()
    assert main(["validate", "--strict", str(tmp_path / "capitals.yaml")]) == 1
    out = capsys.readouterr().out
    assert out.count("no explanation: the reveal shows only the right answer and the split") == 4


def test_nothing_importable_exits_1_and_says_so(tmp_path, capsys):
    path = tmp_path / "essays.gift"
    path.write_text("Write about it.{}\n\nAnd this.{}\n", encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert (code, out) == (1, "")
    assert f"{path}: line 3: skipped: an essay question" in err
    assert f"{path}: no question could be imported" in err


def test_malformed_file_exits_1_naming_the_place(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"response_code": 0, "results": [\n}', encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}: line 2: not JSON:")


def test_id_title_and_language_options(tmp_path, capsys):
    path = source(tmp_path, "trivia-list.json")
    code, out, _ = run(capsys, str(path), "--id", "history-night", "--title", "History night", "--lang", "hi")
    data = yaml.safe_load(out)
    assert code == 0 and data["id"] == "history-night"
    # the texts stay as written; the quiz says which language they are in
    assert (data["language"], data["title"]) == ("hi", "History night")
    assert data["questions"][0]["prompt"] == "The Great Fire of London happened in 1666."


@pytest.mark.parametrize("tag", ["es", "vi", "pt-BR", "ar"])
def test_any_language_tag_labels_the_quiz(tmp_path, capsys, tag):
    code, out, _ = run(capsys, str(source(tmp_path, "capitals.txt")), "--language", tag)
    assert code == 0 and yaml.safe_load(out)["language"] == tag


def test_a_bad_language_tag_is_refused(tmp_path, capsys):
    code, out, err = run(capsys, str(source(tmp_path, "capitals.txt")), "--language", "Spanish!")
    assert (code, out) == (1, "")
    assert "is not a language tag" in err


def test_a_bad_id_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, str(source(tmp_path, "trivia-list.json")), "--id", "Not An Id!")
    assert code == 1 and "id: 'Not An Id!' is not a valid id" in err


def test_question_ids_are_stable_across_imports_and_reordering(tmp_path):
    first = import_quiz(b"Q one?{=a ~b}\n\nQ two?{=c ~d}\n", "x.gift")
    again = import_quiz(b"// edited\n\nQ two?{~d =c}\n\nQ one?{=a ~b}\n\nQ three?{=e ~f}\n", "x.gift")
    ids = {q["prompt"]: q["id"] for q in first.data["questions"]}
    assert {q["prompt"]: q["id"] for q in again.data["questions"] if q["prompt"] in ids} == ids
    assert ids["Q one?"] != ids["Q two?"]


def test_the_same_question_twice_is_kept_with_a_note_naming_the_first(tmp_path):
    result = import_quiz(b"Same?{=a ~b}\n\nSame?{=a ~b}\n", "x.gift")
    assert result.count == 2 and result.skipped == ()
    assert [str(n) for n in result.notes] == ["line 3: asks the same as the question at line 1"]


def test_auto_tells_gift_from_aiken_in_a_txt_file():
    assert import_quiz(b"Capital of Peru?{=Lima ~Quito}\n", "q.txt").format == "gift"
    assert import_quiz(b"Capital of Peru?\nA. Lima\nB. Quito\nANSWER: A\n", "q.txt").format == "aiken"


def test_over_one_megabyte_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "big.gift"
    path.write_bytes(b"Q?{=a ~b}\n\n" + b"// padding\n" * 100_000)
    code, out, err = run(capsys, str(path))
    assert (code, out) == (1, "") and "1,100,011 bytes: at most 1,000,000 (1 MB) are imported" in err


def test_over_500_questions_is_refused_at_the_first_one_too_many(tmp_path, capsys):
    path = tmp_path / "many.txt"
    path.write_text("".join(f"Question {i}?\nA. yes\nB. no\nANSWER: A\n\n" for i in range(501)), encoding="utf-8")
    code, _, err = run(capsys, str(path))
    assert code == 1 and f"{path}: line 2501: more than 500 questions: split the file" in err


@pytest.mark.parametrize("name", ["quiz.gift", "quiz.txt", "quiz.json"])
def test_binary_file_with_a_quiz_extension(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_bytes(bytes(range(256)) * 4)
    code, out, err = run(capsys, str(path))
    assert (code, out) == (1, "") and "binary file" in err


def test_markup_stays_text_in_the_quiz(tmp_path, capsys):
    path = source(tmp_path, "kahoot.xlsx")
    _code, out, _ = run(capsys, str(path))
    question = next(q for q in yaml.safe_load(out)["questions"] if "bold" in q["prompt"])
    assert question["prompt"] == "What is <b>bold</b> & what is not?"
    assert question["options"][0] == "<script>alert(1)</script>"


def test_installed_command_writes_a_file_validate_accepts(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "import", str(FIXTURES / "physics.gift"), "-o", str(tmp_path / "p.yaml")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    checked = subprocess.run(
        [sys.executable, "-m", "bot.cli", "validate", str(tmp_path / "p.yaml")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert checked.returncode == 0 and "1 quiz file(s) OK" in checked.stdout
    assert (
        json.loads(
            subprocess.run(
                [sys.executable, "-m", "bot.cli", "export", "physics"],
                capture_output=True,
                text=True,
                env={**env, "QUIZHOST_QUIZZES": str(tmp_path)},
                timeout=60,
            ).stdout
        )["questions"][0]["options"][0]
        == "newton"
    )


def test_output_into_folders_not_made_yet_makes_them(tmp_path, capsys):
    out = tmp_path / "new" / "folder" / "physics.yaml"
    code, _, err = run(capsys, str(source(tmp_path, "physics.gift")), "-o", str(out))
    assert code == 0 and f"written to {out}" in err
    quiz, problems = load_quiz_file(out)
    assert quiz is not None and quiz.id == "physics" and not problems


def test_a_file_nested_too_deep_exits_1_naming_it_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_bytes(deep_json())
    assert run(capsys, str(path)) == (1, "", f"{path}: nested too deeply to read\n")
