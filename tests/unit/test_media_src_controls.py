"""A control character in a media `src` (a NUL, a bell, a tab inside, DEL, a C1 control) is no
file name or URL: every format a src can come from refuses it as a problem with its place, and
`quizhost validate` names it instead of ending in a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.content.importers import import_quiz
from bot.content.validate import validate
from tests.support.sheet_files import KAHOOT_HEADER, workbook_bytes

CONTROLS = ["\x00", "\x07", "\t", "\x1b", "\x7f", "\x85", "\x9f"]
SOURCES = ["pics/a{c}b.png", "sound/a{c}b.mp3", "https://example.org/a{c}b.png", "{c}pics/a.png", "pics/a.png{c}"]
# white space around a src is trimmed, as it always was (a tab, NEL): the src left is clean
SRCS = [s.format(c=c) for c in CONTROLS for s in SOURCES if s.format(c=c).strip() == s.format(c=c)]


def quiz(src: str, key: str = "media") -> dict[str, object]:
    question = {"id": "q1", "prompt": "P?", "options": ["x", "y"], "answer": 0, key: src}
    if key == "explanation_media":
        question["explanation"] = "Why."
    return {"id": "controls", "title": "Controls", "description": "d", "questions": [question]}


@pytest.mark.parametrize("src", SRCS)
@pytest.mark.parametrize("key", ["media", "explanation_media"])
def test_validate_names_the_file_question_and_field_of_a_control_character_in_a_src(
    tmp_path: Path, src: str, key: str
) -> None:
    control = next(c for c in CONTROLS if c in src)
    # written by PyYAML, which escapes what YAML may not hold raw ("\\x85", "\\0")
    (tmp_path / "as-text.yaml").write_text(yaml.safe_dump(quiz(src, key)), encoding="utf-8")
    as_mapping = quiz({"src": src, "alt": "a"}, key)  # type: ignore[arg-type]
    (tmp_path / "as-mapping.yaml").write_text(yaml.safe_dump(as_mapping), encoding="utf-8")

    found = validate([tmp_path])

    assert (found.files, found.loaded) == (2, 0)
    code = f"U+{ord(control):04X}"
    assert sorted((Path(p.path).name, p.place, p.message) for p in found.problems) == [
        (name, f"question 'q1' {key}", f"media {src!r} holds the control character {code}: a file name or URL has none")
        for name in ("as-mapping.yaml", "as-text.yaml")
    ]


def test_validate_of_a_yaml_file_with_a_nul_in_a_src_names_its_line(tmp_path: Path) -> None:
    text = 'id: nul\ntitle: Nul\ndescription: d\nquestions:\n  - id: q1\n    prompt: P?\n    media: "a\\0b.png"\n'
    (tmp_path / "nul.yaml").write_text(text + '    options: ["x", "y"]\n    answer: 0\n', encoding="utf-8")
    (problem,) = validate([tmp_path]).problems
    assert (problem.line, problem.place) == (7, "question 'q1' media")
    assert problem.message == "media 'a\\x00b.png' holds the control character U+0000: a file name or URL has none"


@pytest.mark.parametrize("control", ["\t", "\x01", "\x7f", "\x85"])
def test_a_gift_picture_with_a_control_character_skips_its_question_at_its_line(control: str) -> None:
    # a text file is told from a binary one by its first 8 KB: a control character after them is read
    comment = "// " + "x" * 9000 + "\n"
    picture = f'<img src="https://example.org/ma{control}rs.jpg">'
    gift = f"{comment}Fine? {{=a ~b}}\n\n[html]Which? {picture} {{=Mars ~Venus}}\n"
    imported = import_quiz(gift.encode(), "planets.gift")
    assert imported.data is not None and len(imported.data["questions"]) == 1
    (skipped,) = imported.skipped
    assert skipped.where == "line 4" and f"holds the control character U+{ord(control):04X}" in skipped.reason


@pytest.mark.parametrize("control", ["\t", "\x7f", "\x85"])
def test_a_kahoot_image_link_with_a_control_character_skips_its_row(control: str) -> None:
    header = (*KAHOOT_HEADER, "Image link")
    link = f"https://example.org/ma{control}rs.jpg"
    rows = [
        (1, "Fine?", "a", "b", None, None, 20, 1, None),
        (2, "Which planet is this?", "Mars", "Venus", None, None, 20, 1, link),
    ]
    imported = import_quiz(workbook_bytes([header, *rows]), "k.xlsx")
    assert imported.data is not None and len(imported.data["questions"]) == 1
    (skipped,) = imported.skipped
    assert skipped.where.startswith("row ") and f"holds the control character U+{ord(control):04X}" in skipped.reason
