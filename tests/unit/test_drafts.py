"""Writing a quiz in the chat (bot/content/drafts.py): a question from a poll or from one line in
the fixed layout, the draft's changes, and the round trip: what the chat writes is what a file
says, and a file read and exported again is the same text."""

from __future__ import annotations

import pytest

from bot.content.drafts import Draft, PollSpec, Refusal, from_line, from_poll, problems, quiz_data, slug
from bot.content.export import quiz_yaml
from bot.content.importers import dump_yaml
from bot.content.quiz_check import check_quiz_data
from bot.texts.i18n import shown

pytestmark = pytest.mark.unit

# every field a quiz file can say, in the order `quizhost export` writes them
EVERY_FIELD = {
    "id": "all-fields",
    "aliases": ["every field"],
    "tags": ["format", "test"],
    "difficulty": "hard",
    "language": "es",
    "title": "Todos los campos",
    "description": "Cada campo que un archivo puede decir.",
    "questions": [
        {
            "id": "c",
            "prompt": "¿Capital de Francia?",
            "options": ["París", "Lyon"],
            "answer": 0,
            "explanation": "Sí.",
            "seconds": 20,
            "shuffle": False,
        },
        {"id": "tf", "kind": "truefalse", "prompt": "El agua hierve a 100 °C.", "answer": True, "explanation": None},
        {
            "id": "m",
            "kind": "multi",
            "prompt": "¿Primos?",
            "options": ["2", "4", "5"],
            "answer": [0, 2],
            "scoring": "partial",
            "explanation": None,
        },
        {
            "id": "t",
            "kind": "typed",
            "prompt": "¿El planeta mayor?",
            "accept": ["Júpiter", "Jupiter"],
            "explanation": None,
        },
        {"id": "n", "kind": "numeric", "prompt": "¿Pi?", "answer": 3.14, "tolerance": 0.005, "explanation": None},
        {
            "id": "r",
            "kind": "numeric",
            "prompt": "¿Un año de los 90?",
            "answer": {"min": 1990.0, "max": 1999.0},
            "explanation": None,
        },
        {
            "id": "p",
            "kind": "poll",
            "prompt": "¿Tabs o espacios?",
            "options": ["Tabs", "Espacios"],
            "explanation": None,
        },
        {
            "id": "img",
            "prompt": "¿Qué animal?",
            "options": ["León", "Tigre"],
            "answer": 0,
            "explanation": "La melena.",
            "media": {"src": "pictures/lion.jpg", "kind": "image", "alt": "un gato grande"},
            "explanation_media": {"src": "https://example.org/mane.png", "kind": "image"},
        },
    ],
}


def test_a_file_read_and_exported_again_is_the_same_text():
    text = dump_yaml(EVERY_FIELD)
    model, issues = check_quiz_data(EVERY_FIELD)
    assert model is not None, issues
    assert quiz_yaml(model.to_quiz(), "en") == text


def test_a_quiz_written_in_the_chat_exports_as_the_file_it_was_stored_as():
    draft = Draft("Space")
    draft.add(from_poll(PollSpec("Largest planet?", ("Mars", "Jupiter"), (1,), "11 Earths wide.")))
    draft.add(from_poll(PollSpec("Gas giants?", ("Jupiter", "Mars", "Saturn"), (0, 2))))
    draft.add(from_poll(PollSpec("Favourite planet?", ("Mars", "Venus"), is_quiz=False)))
    draft.add(from_line("Closest to the Sun? | Venus | *Mercury > It orbits in 88 days."))
    data = quiz_data("space", draft.title, draft.questions, "Written in the chat.", "hi")
    model, issues = check_quiz_data(data)
    assert model is not None, issues
    assert quiz_yaml(model.to_quiz(), "en") == dump_yaml(data)  # every field kept, in the same order
    kinds = [q.kind.value for q in model.to_quiz().questions]
    assert kinds == ["choice", "multi", "poll", "choice"]


def test_the_fixed_layout_and_what_it_refuses():
    assert from_line("2 + 2? | 3 | *4 | 5 > Arithmetic.") == {
        "id": "q1",
        "prompt": "2 + 2?",
        "options": ["3", "4", "5"],
        "answer": 1,
        "explanation": "Arithmetic.",
    }
    assert from_line("Primes? | *2 | 4 | *5")["answer"] == [0, 2]
    assert from_line("Tea or coffee? | Tea | Coffee")["kind"] == "poll"
    for bad in ("no options at all", "One option? | *yes", "Empty? | a | | b"):
        refused = from_line(bad)
        assert isinstance(refused, Refusal)
        assert shown("en", refused.why).startswith("Write a question as: prompt | option | *right option")


def test_a_quiz_poll_whose_answer_is_hidden_is_refused():
    refused = from_poll(PollSpec("Hidden?", ("a", "b"), ()))
    assert isinstance(refused, Refusal) and "hides this quiz poll's right answer" in shown("en", refused.why)


def test_the_formats_limits_apply_to_each_question():
    assert problems("T", [from_line("Fine? | *a | b")]) == []
    too_many = from_line("Many? | *" + " | ".join(str(i) for i in range(11)))
    assert any("options" in p for p in problems("T", [too_many]))
    too_long = from_line(f"Long? | *{'x' * 301} | b")
    assert any("too long" in p for p in problems("T", [too_long]))


def test_the_drafts_changes_keep_question_ids_unique():
    draft = Draft("T")
    for prompt in ("one", "two", "three"):
        draft.add(from_line(f"{prompt} | *a | b"))
    taken_back = draft.questions[2]["id"]
    draft.delete(3)
    assert draft.add(from_line("four | *a | b")) == 3
    assert draft.questions[2]["id"] != taken_back, "an old Undo or Edit names no later question"
    assert [q["id"] for q in draft.saved_questions()] == ["q1", "q2", "q3"]
    draft.delete(1)
    draft.add(from_line("five | *a | b"))
    assert [q["id"] for q in draft.saved_questions()] == ["q2", "q3", "q4"]
    assert len({q["id"] for q in draft.questions}) == 3
    draft.replace(1, from_line("two again | a | *b"))
    draft.move(3, 1)
    saved = [(q["id"], q["prompt"]) for q in draft.saved_questions()]
    assert saved == [("q4", "five"), ("q2", "two again"), ("q3", "four")]
    four = draft.questions[2]["id"]
    assert four.startswith("q3-") and draft.number_of(four) == 3 and draft.number_of("q3") is None
    assert Draft.loads("T", draft.dumps()).questions == draft.questions


def test_a_quiz_id_from_its_title():
    assert slug("Space facts: the planets!") == "space-facts-the-planets"
    assert slug("¿Qué?") == "qu"
    assert slug("मेरी प्रश्नोत्तरी") == "quiz"
    assert len(slug("a" * 80)) == 30
