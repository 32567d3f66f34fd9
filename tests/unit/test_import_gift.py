"""GIFT (Moodle) imports: what becomes a question, what is skipped and why, at which line."""

from __future__ import annotations

import pytest

from bot.content.importers import Malformed, import_quiz
from tests.support.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "imports"


def physics():
    return import_quiz((FIXTURES / "physics.gift").read_bytes(), "physics.gift")


def by_prompt(imported, start: str) -> dict:
    return next(q for q in imported.data["questions"] if q["prompt"].startswith(start))


def test_multiple_choice_keeps_options_answer_and_the_right_answers_feedback():
    q = by_prompt(physics(), "Which unit measures force?")
    assert q["options"] == ["newton", "joule", "watt"]
    assert q["answer"] == 0
    assert q["explanation"] == "Named after Isaac Newton."


def test_full_credit_by_percentage_and_general_feedback_over_answer_feedback():
    q = by_prompt(physics(), "What is the speed of light")
    assert q["prompt"] == "What is the speed of light in vacuum, roughly?\nIt is the same for every observer."
    assert q["options"][q["answer"]] == "300,000 km/s"
    assert q["explanation"] == "About 299,792 km/s: the metre is defined from it."


def test_missing_word_question_gets_a_blank():
    q = by_prompt(physics(), "Sound travels")
    assert q["prompt"] == "Sound travels _____ in air than in water."
    assert q["options"][q["answer"]] == "slower"
    assert "explanation" not in q


def test_true_false_becomes_a_truefalse_question_with_the_feedback_for_a_right_answer():
    q = by_prompt(physics(), "Electrons carry")
    assert (q["kind"], q["answer"], q["explanation"]) == ("truefalse", True, "Yes: the charge is −e.")
    assert "options" not in q  # the bot shows True and False in the chat's language
    q = by_prompt(physics(), "Protons are lighter")
    assert (q["kind"], q["answer"]) == ("truefalse", False)


def test_html_and_markdown_become_plain_text():
    q = by_prompt(physics(), "Which particle has no electric charge?")
    assert q["prompt"] == "Which particle has no electric charge?\nPick one."
    assert q["options"][q["answer"]] == "neutron"
    assert q["explanation"] == "Neutrons are neutral & sit in the nucleus."
    q = by_prompt(physics(), "Which law says")
    assert q["prompt"] == "Which law says F = ma?"
    assert q["options"][q["answer"]] == "Newton's second law"


def test_escapes_are_the_characters_they_stand_for():
    q = by_prompt(physics(), "Escapes")
    assert q["prompt"] == "Escapes: a {brace}, a ~tilde, a #hash, an = sign,\na new line and a backslash \\ here."
    assert q["options"] == ["plain", "fancy"]


def test_categories_become_tags_and_names_stay_out_of_the_prompt():
    imported = physics()
    assert imported.data["tags"] == ["Science", "Physics", "Optics"]
    assert all("::" not in q["prompt"] for q in imported.data["questions"])
    assert imported.count == 12


@pytest.mark.parametrize(
    "line, reason",
    [
        (40, "a matching question"),
        (44, "an essay question"),
        (48, "several right answers (2 options have full credit): Moodle takes any one of them"),
        (50, "a description, not a question"),
    ],
)
def test_each_skipped_kind_is_named_with_its_line(line: int, reason: str):
    skipped = {s.where: s.reason for s in physics().skipped}
    assert reason in skipped.pop(f"line {line}")


def test_nothing_but_the_kinds_quizhost_cannot_ask_is_skipped():
    assert [s.where for s in physics().skipped] == [f"line {n}" for n in (40, 44, 48, 50)]


def test_numerical_short_answer_and_several_right_answers_become_their_kinds():
    imported = physics()
    assert by_prompt(imported, "When was Newton born?") | {"id": ""} == {
        "id": "",
        "kind": "numeric",
        "prompt": "When was Newton born?",
        "answer": 1643,
        "tolerance": 1,
    }
    assert by_prompt(imported, "What is the SI unit")["accept"] == ["kilogram", "kg"]
    vectors = by_prompt(imported, "Which of these are vectors?")
    assert (vectors["kind"], vectors["options"], vectors["answer"], vectors["scoring"]) == (
        "multi",
        ["velocity", "force", "mass"],
        [0, 1],
        "partial",
    )
    assert imported.in_source == 15  # the description is not a question


def test_a_bom_and_windows_line_ends_read_like_any_file():
    imported = import_quiz((FIXTURES / "windows.gift").read_bytes(), "windows.gift")
    assert [q["prompt"] for q in imported.data["questions"]] == ["Capital of Italy?", "Multi-line\nquestion?"]
    assert imported.skipped == ()


def test_unpaired_brace_is_skipped_at_its_line():
    imported = import_quiz(b"Good?{=yes ~no}\n\nBroken {=a ~b\n", "x.gift")
    assert [str(s) for s in imported.skipped] == [
        "line 3: '{' and '}' do not pair up: escape a literal brace as \\{ or \\}"
    ]


def test_one_option_is_not_a_question():
    imported = import_quiz(b"Lonely?{~%100%only}\n", "x.gift")
    assert [str(s) for s in imported.skipped] == ["line 1: fewer than two options"]
    assert imported.quiz is None


def test_a_file_that_is_not_utf8_names_the_line():
    with pytest.raises(Malformed, match="line 3: not UTF-8"):
        import_quiz(b"Q?{=a ~b}\n\n\xff\xfe broken{=a ~b}\n", "x.gift")


def test_embedded_answers_cloze_is_refused_with_a_reason_never_imported_as_garbage():
    cloze = "::walk:: Ed became {1:MC:~a~an~=the~—} first man to walk {1:MC:~a~an~=the~—} length of the Amazon.\n"
    imported = import_quiz(("Fine? {=yes ~no}\n\n" + cloze).encode(), "cloze.gift")
    assert [q["prompt"] for q in imported.data["questions"]] == ["Fine?"]
    (skipped,) = imported.skipped
    assert skipped.where == "line 3" and "embedded-answers (Cloze)" in skipped.reason


def test_html_in_moodles_default_format_becomes_text_with_its_line_breaks():
    gift = (
        "::happy:: <b>The science of happiness</b>\nWhich word fits? <i>City Lights</i> is on TV"
        '<div id="gtx-trans" style="position: absolute">x</div> {=tonight ~yesterday}\n'
    )
    (question,) = import_quiz(gift.encode(), "h.gift").data["questions"]
    assert question["prompt"] == "The science of happiness\nWhich word fits? City Lights is on TV\nx"
    assert "<" not in question["prompt"]


def test_text_that_only_looks_like_markup_stays_as_written():
    (question,) = import_quiz(b"If a<b and c>d, is a<d? {=not always ~always}\n", "m.gift").data["questions"]
    assert question["prompt"] == "If a<b and c>d, is a<d?"
