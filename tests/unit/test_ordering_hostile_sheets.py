"""Hostile Quizizz sheets with Reorder rows, imported with `quizhost import` as an author
would: a Correct Answer naming an option twice or one that is not there, and a formula cell
(read without a stored value, so empty) before the other items. Each row is skipped with the
file and the row named; the rows kept are unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.sheet_files import quizizz_xlsx

FORMULA = '=HYPERLINK("http://x","y")'


def test_bad_reorder_rows_are_named_by_file_and_row_and_skipped(tmp_path: Path) -> None:
    rows = [
        ("Kept?", "Reorder", "a", "b", "c", None, None, None, 30, None, None),
        ("Twice?", "Reorder", "a", "b", "c", None, None, "1,2,2", 30, None, None),
        ("Missing?", "Reorder", "a", "b", "c", None, None, "1,2,6", 30, None, None),
        ("Formula?", "Reorder", FORMULA, "b", "c", None, None, None, 30, None, None),
        ("Gap?", "Reorder", "a", None, "c", None, None, None, 30, None, None),
    ]
    sheet, out = tmp_path / "reorder.xlsx", tmp_path / "reorder.yaml"
    sheet.write_bytes(quizizz_xlsx(rows))
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "import", str(sheet), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    once = "of a Reorder question must name each of its options once, in the right order (like 2,1,3)"
    assert f"{sheet}: row 4: skipped: Correct Answer '1,2,2' {once}" in said
    assert f"{sheet}: row 5: skipped: Correct Answer '1,2,6' {once}" in said
    gap = "of a Reorder question is empty, but an option after it is not"
    assert f"{sheet}: row 6: skipped: Option 1 {gap}" in said, "a 3-item order must not become a 2-item one"
    assert f"{sheet}: row 7: skipped: Option 2 {gap}" in said
    kept = yaml.safe_load(out.read_text(encoding="utf-8"))["questions"]
    assert [(q["prompt"], q["options"]) for q in kept] == [("Kept?", ["a", "b", "c"])]
