"""GIFT questions beyond one right option: each of Moodle's kinds as quizhost's kind, the credit
Moodle gives in part reported, pictures and sounds kept as media or reported, HTML as text."""

from __future__ import annotations

from typing import Any

import pytest

from bot.content.importers import import_quiz


def one(gift: str) -> dict[str, Any]:
    imported = import_quiz(gift.encode(), "kinds.gift")
    assert imported.data is not None, imported.skipped
    (question,) = imported.data["questions"]
    return {k: v for k, v in question.items() if k != "id"}


def notes(gift: str) -> list[str]:
    return [str(note) for note in import_quiz(gift.encode(), "kinds.gift").notes]


def test_short_answer_accepts_its_full_credit_answers_and_reports_the_partial_ones():
    gift = "Jesus Christ was from {=Nazareth#Yes! =%75%Nazereth#Misspelled. =%25%Bethlehem}.\n"
    assert one(gift) == {
        "kind": "typed",
        "prompt": "Jesus Christ was from _____.",
        "accept": ["Nazareth"],
        "explanation": "Yes!",
    }
    assert notes(gift) == [
        "line 1: 'Nazereth' gives 75% of the credit in the source: here it is not accepted",
        "line 1: 'Bethlehem' gives 25% of the credit in the source: here it is not accepted",
    ]


@pytest.mark.parametrize(
    "answers, expected",
    [
        ("{#3.14:0.01}", {"answer": 3.14, "tolerance": 0.01}),
        ("{#1822}", {"answer": 1822}),
        ("{#1..2}", {"answer": {"min": 1, "max": 2}}),
        ("{#=3.14:0 =%50%3.1:0.1}", {"answer": 3.14}),
        ("{#\n=2024:0#Right.\n~#Look it up.}", {"answer": 2024, "explanation": "Right."}),
    ],
)
def test_numerical_answers_become_a_numeric_question(answers: str, expected: dict[str, Any]):
    assert one(f"Give the number. {answers}\n") == {"kind": "numeric", "prompt": "Give the number.", **expected}


def test_a_numerical_answer_with_partial_credit_is_reported():
    assert notes("Pi? {#=3.14:0 =%50%3.1:0.1}\n") == [
        "line 1: the answer 3.1:0.1 (50% of the credit in the source) is not kept: one answer is"
    ]


def test_a_numerical_answer_that_is_no_number_is_skipped_with_the_reason():
    (skipped,) = import_quiz(b"Pi? {#three}\n", "k.gift").skipped
    assert "not a number, a number:tolerance or a min..max range" in skipped.reason


def test_several_right_options_become_multi_with_partial_credit_as_moodle_gives_it():
    assert one("Which are vectors? {~%50%velocity ~%50%force ~%-100%mass}\n") == {
        "kind": "multi",
        "prompt": "Which are vectors?",
        "options": ["velocity", "force", "mass"],
        "answer": [0, 1],
        "scoring": "partial",
    }


def test_one_full_credit_option_among_checkboxes_is_a_one_answer_question():
    assert one("Pick it. {~%100%right ~wrong ~also wrong}\n")["answer"] == 0


def test_a_partial_credit_option_of_a_one_answer_question_is_reported_as_wrong_here():
    gift = "Difficult question.{~wrong answer ~%50%half credit answer =full credit answer}\n"
    assert one(gift)["answer"] == 2
    assert notes(gift) == [
        "line 1: 'half credit answer' gives 50% of the credit in the source: here it counts as wrong"
    ]


@pytest.mark.parametrize(
    "key, answer, explanation",
    [
        ("T", True, None),
        ("FALSE#Wrong: it is not.#Right: it is not.", False, "Right: it is not."),
        ("F#It is not.", False, "It is not."),
    ],
)
def test_true_false_becomes_truefalse_with_the_feedback_that_explains_it(key, answer, explanation):
    question = one(f"Grant is buried in Grant's tomb.{{{key}}}\n")
    assert (question["kind"], question["answer"], question.get("explanation")) == ("truefalse", answer, explanation)
    assert "options" not in question


@pytest.mark.parametrize(
    "gift, reason",
    [
        ("Explain it.{}\n", "an essay question (no answers between the braces): a teacher grades those"),
        (
            "Match them.{=a -> 1 =b -> 2 =c -> 3}\n",
            "a matching question (=... -> ...): quizhost asks one thing at a time",
        ),
        (
            "Pick the noble gases.{=helium =neon ~oxygen}\n",
            "several right answers (2 options have full credit): Moodle takes any one of them, "
            "which no quizhost kind asks",
        ),
        (
            "Ed was {1:MC:~a~=the} first.\n",
            "an embedded-answers (Cloze) question: each blank has answers of its own, which quizhost cannot ask",
        ),
    ],
)
def test_what_quizhost_cannot_ask_is_refused_with_the_reason_never_imported(gift: str, reason: str):
    imported = import_quiz(gift.encode(), "k.gift")
    assert imported.data is None
    assert [str(s) for s in imported.skipped] == [f"line 1: {reason}"]
    assert imported.in_source == 1


def test_a_description_is_left_out_and_is_not_counted_as_a_question():
    imported = import_quiz(b"Read the text first.\n\nFine? {=yes ~no}\n", "k.gift")
    assert [str(s) for s in imported.skipped] == ["line 1: no answers in braces: a description, not a question"]
    assert (imported.count, imported.in_source) == (1, 1)


def test_html_lists_paragraphs_and_breaks_become_lines_with_no_tag_left():
    gift = (
        "[html]<p>Which is <b>true</b>?</p><ul><li>one</li><li>two</li></ul><div>Pick</div>"
        "<span>now</span><br>please {=yes ~no}\n"
    )
    assert one(gift)["prompt"] == "Which is true?\n• one\n• two\nPick\nnow\nplease"


def test_markdown_text_is_kept_as_text_without_its_marks():
    assert one("[markdown]Who is in **Grant's tomb**? {=no one =nobody}\n")["prompt"] == "Who is in Grant's tomb?"


def test_a_picture_by_url_becomes_the_questions_media_and_the_explanations():
    gift = (
        '[html]Which planet is this? <img src="https://example.org/mars.jpg" alt="a red planet"> '
        '{=Mars ~Venus ####[html]<img src="https://example.org/mars-map.png">}\n'
    )
    question = one(gift)
    assert question["prompt"] == "Which planet is this?"
    assert question["media"] == {"src": "https://example.org/mars.jpg", "alt": "a red planet"}
    assert question["explanation_media"] == "https://example.org/mars-map.png"


def test_a_picture_stored_in_moodle_is_reported_and_the_question_kept():
    gift = '[html]Which planet? <img src="@@PLUGINFILE@@/mars.jpg"> {=Mars ~Venus}\n'
    assert "media" not in one(gift)
    assert notes(gift) == [
        "line 1: the question: @@PLUGINFILE@@/mars.jpg is stored inside the source tool, not in this file: "
        "it cannot be kept"
    ]


def test_a_question_that_is_only_a_picture_that_cannot_be_kept_is_skipped():
    imported = import_quiz(b'[html]<img src="@@PLUGINFILE@@/q.png">{=a ~b}\n', "k.gift")
    assert [str(s) for s in imported.skipped] == ["line 1: the question is only a picture that cannot be kept"]


@pytest.mark.parametrize(
    "text",
    [
        '[html]Listen. <audio controls src="https://example.org/a.mp3"></audio>',
        '[html]Listen to <a href="https://example.org/a.mp3">the recording</a>.',
        "Listen: https://example.org/a.mp3",
    ],
)
def test_a_sound_is_kept_as_an_audio_link(text: str):
    question = one(f"{text} What is it about? {{=music ~sport}}\n")
    assert question["media"] == {"src": "https://example.org/a.mp3", "kind": "audio"}
    assert "mp3" not in question["prompt"] and "<" not in question["prompt"]


def test_a_descriptions_recording_goes_with_the_questions_after_it_up_to_the_next_description():
    gift = (
        "::Audio 1::Listen and answer.\nhttps://example.org/one.mp3\n\n"
        "First? {=a ~b}\n\nSecond? {=c ~d}\n\n"
        "::Text::Now read.\n\nThird? {=e ~f}\n"
    )
    imported = import_quiz(gift.encode(), "k.gift")
    media = [q.get("media") for q in imported.data["questions"]]
    assert media == [{"src": "https://example.org/one.mp3", "kind": "audio"}] * 2 + [None]
    assert "its recording goes with the questions after it" in imported.skipped[0].reason


def test_a_repeat_is_kept_as_moodle_keeps_it_and_only_a_verbatim_one_is_noted():
    gift = "Sky? {=blue ~red}\n\nSky?   {=blue ~red}\n\nSky? {=blue#Rayleigh. ~red}\n"
    imported = import_quiz(gift.encode(), "k.gift")
    assert imported.skipped == ()
    assert [str(n) for n in imported.notes] == ["line 3: asks the same as the question at line 1"]
    ids = [q["id"] for q in imported.data["questions"]]
    assert len(ids) == 3 and len(set(ids)) == 3  # each under its own id


def test_the_language_tag_labels_the_quiz_and_texts_stay_plain():
    imported = import_quiz("¿Cuál es la capital de España? {=Madrid ~Lisboa}\n".encode(), "es.gift", lang="es")
    assert imported.data["language"] == "es" and imported.quiz.language == "es"
    assert imported.data["questions"][0]["prompt"] == "¿Cuál es la capital de España?"


def test_an_upload_names_the_language_of_an_imported_files_texts():
    from bot.content.reading import read_upload

    outcome, content = read_upload(("capitales.gift", "¿Capital de Perú?{=Lima ~Quito}\n".encode(), "es"))
    assert outcome.quiz is not None and outcome.quiz.language == "es"
    assert '"language": "es"' in content


def test_options_in_another_order_are_the_same_question():
    imported = import_quiz(b"Sky? {=blue ~red ~green}\n\nSky? {~green =blue ~red}\n", "k.gift")
    assert [str(n) for n in imported.notes] == ["line 3: asks the same as the question at line 1"]
