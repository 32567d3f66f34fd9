"""Rounds and hints of a quiz written in the chat: where each round starts as questions are
added, deleted and moved, and the quiz file its saving makes."""

from __future__ import annotations

from bot.content.drafts import Draft, Refusal, from_line, quiz_data, round_of
from bot.content.quiz_check import check_quiz_data


def names(draft: Draft) -> list[tuple[str, list[str]]]:
    return [(r["name"], [q["prompt"] for q in r["questions"]]) for r in draft.saved_rounds()]


def drafted() -> Draft:
    draft = Draft("Night")
    draft.add(from_line("A? | *1 | 2"))
    draft.start_round("Science", 2, "Round 1")
    draft.add(from_line("B? | *1 | 2"))
    draft.set_hint("Think of B.")
    draft.add(from_line("C? | *1 | 2"))
    draft.start_round("Later", 1, "Round 1")  # nothing written after it
    return draft


def test_a_round_starts_at_the_next_question_and_the_ones_before_make_round_one():
    draft = drafted()
    assert names(draft) == [("Round 1", ["A?"]), ("Science", ["B?", "C?"])]
    data = quiz_data("night", draft.title, draft.saved_questions(), "-", "en", draft.saved_rounds())
    model, issues = check_quiz_data(data)
    assert model is not None, issues
    quiz = model.to_quiz()
    assert [(r.question_ids, r.multiplier) for r in quiz.rounds] == [(("q1",), 1), (("q2", "q3"), 2)]
    assert quiz.questions[1].hint is not None and quiz.questions[1].hint.get("en") == "Think of B."
    assert Draft.loads(draft.title, draft.dumps()) == draft, "stored and read back the same"


def test_a_deleted_first_question_hands_its_round_to_the_next_and_a_move_carries_none():
    draft = drafted()
    draft.delete(2)
    assert names(draft) == [("Round 1", ["A?"]), ("Science", ["C?"])]
    draft.move(1, 2)  # A? after C?: the question keeps its round's start with it
    assert names(draft) == [("Science", ["C?"]), ("Round 1", ["A?"])]
    draft.delete(2)
    draft.delete(1)
    assert draft.saved_rounds() == [] and draft.questions == []


def test_a_draft_without_rounds_is_stored_as_before():
    draft = Draft("Plain")
    draft.add(from_line("A? | *1 | 2"))
    assert draft.dumps().startswith("[") and draft.saved_rounds() == []


def test_the_words_of_round():
    assert round_of("Science x2") == ("Science", 2)
    assert round_of("  Big   night ×1,5") == ("Big night", 1.5)
    assert round_of("Plain") == ("Plain", 1)
    assert all(isinstance(round_of(words), Refusal) for words in ("", "x2", "Huge x20", "Tiny x0.1", "n" * 61))
