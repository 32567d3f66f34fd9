"""The ordering kind ("put these in order"): its file entry, how a press places or takes back an
option, scoring all or nothing and by the share of places right, the reveal, the export read back,
Quizizz's Reorder rows, and a bad file named at its place."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.content.export import export_quiz, quiz_yaml
from bot.content.importers import import_quiz
from bot.content.quiz_check import check_quiz_data
from bot.domain import session
from bot.domain.answering import PICKS_DONE
from bot.domain.model import NO_ANSWER, Question, QuestionKind, Quiz
from bot.domain.records import Phase, RunRow, RunStatus
from bot.domain.session import Run
from bot.domain.tokens import AnswerToken
from bot.kinds import kind_of
from bot.kinds.ordering import KIND
from tests.support.sheet_files import quizizz_xlsx

PLANETS: dict[str, Any] = {
    "id": "planets",
    "kind": "ordering",
    "prompt": "From the Sun outwards?",
    "options": ["Mercury", "Venus", "Earth", "Mars"],
    "explanation": "Mercury is closest to the Sun; Mars is the fourth planet.",
}


def quiz_of(*questions: dict[str, Any]) -> dict[str, Any]:
    return {"id": "order", "title": "Order", "description": "Put in order", "questions": list(questions)}


def parsed(*questions: dict[str, Any]) -> Quiz:
    model, issues = check_quiz_data(quiz_of(*questions))
    assert model is not None, issues
    return model.to_quiz()


def test_the_file_lists_the_options_in_the_right_order_and_the_bot_shuffles_them() -> None:
    question = parsed(PLANETS).questions[0]
    assert question.kind is QuestionKind.ORDERING and question.shuffle and not question.partial
    shown = [run_of(parsed(PLANETS), False, seed).order for seed in range(50)]
    assert (0, 1, 2, 3) not in shown and len(set(shown)) > 10, "shuffled, never shown in the right order"
    two = parsed({**PLANETS, "options": ["Mercury", "Venus"]})
    assert all(run_of(two, False, seed).order == (1, 0) for seed in range(20))


def test_a_press_places_the_next_option_and_a_second_press_takes_it_back() -> None:
    placed = KIND.toggled("", 2)
    placed = KIND.toggled(placed, 0)
    placed = KIND.toggled(placed, 3)
    assert placed == "2,0,3"
    assert KIND.toggled(placed, 0) == "2,3", "taken back: the ones after it move up"
    assert KIND.toggled("2,3", 0) == "2,3,0"


@pytest.mark.parametrize(
    ("scoring", "response", "correct", "points"),
    [
        ("all", "0,1,2,3", True, 1000),
        ("all", "0,1,3,2", False, 0),
        ("partial", "0,1,2,3", True, 1000),
        ("partial", "0,1,3,2", False, 500),  # 2 of 4 places right: half the speed points
        ("partial", "1,0,3,2", False, 0),
        ("partial", "0", False, 250),  # placed by the deadline: one place of four
    ],
)
def test_scored_all_or_nothing_or_by_the_share_of_places_right(
    scoring: str, response: str, correct: bool, points: int
) -> None:
    question = parsed({**PLANETS, "scoring": scoring}).questions[0]
    judged = kind_of(question).judge(question, NO_ANSWER, response, 0.0, 30.0, 0)
    assert (judged.correct, judged.points) == (correct, points)


def run_of(quiz: Quiz, private: bool, seed: int = 3) -> Run:
    row = RunRow(
        id=7,
        platform="telegram",
        chat_id="-1",
        chat_key="telegram:-1",
        is_private=private,
        quiz_id=quiz.id,
        language="en",
        question_ids=tuple(q.id for q in quiz.questions),
        seed=seed,
        seconds=30,
        pause=5,
        started_by="telegram:1",
        started_at=0.0,
        index=0,
        phase=Phase.ASKING,
        asked_at=0.0,
        due=30.0,
        status=RunStatus.OPEN,
    )
    return Run(row, quiz, kind_of)


def press(run: Run, player: str, text: str, now: float = 1.0) -> None:
    """Press the option whose text is `text`, as shown in this run's order."""
    q = run.question
    position = next(pos for pos, src in enumerate(run.order) if q.options[src].get("en") == text)
    token = AnswerToken(run.id, 1, position)
    assert session.check_press(run, token, player, now) is None
    run.answers[player] = session.make_answer(run, token, player, now)


def test_in_a_group_an_order_is_final_once_every_option_is_placed() -> None:
    run = run_of(parsed(PLANETS), private=False)
    for text in ("Mercury", "Venus", "Earth"):
        press(run, "telegram:1", text)
    assert run.answers["telegram:1"].option == NO_ANSWER, "still placing"
    press(run, "telegram:1", "Mars")
    assert run.answers["telegram:1"].option == PICKS_DONE and run.answers["telegram:1"].correct
    token = AnswerToken(run.id, 1, 0)
    assert session.check_press(run, token, "telegram:1", 2.0) is session.Refusal.REPEATED


def test_in_a_private_chat_done_makes_it_final_and_closes_the_question() -> None:
    run = run_of(parsed(PLANETS), private=True)
    for text in ("Mercury", "Venus", "Mars", "Earth"):
        press(run, "telegram:1", text)
    assert run.answers["telegram:1"].option == NO_ANSWER, "in private, Done submits"
    assert not session.should_close_early(run)
    card = session.card(run)
    assert card.done_token is not None and card.kind is QuestionKind.ORDERING


def test_the_reveal_shows_the_right_order_and_who_placed_each_option_right() -> None:
    quiz = parsed(PLANETS)
    run = run_of(quiz, private=False)
    for text in ("Mercury", "Venus", "Mars", "Earth"):
        press(run, "telegram:1", text)
    revealed = session.close_question(run, 31.0)
    letter = {o.text: o.letter for o in revealed.card.options}
    assert revealed.right_letter == " → ".join(letter[p] for p in ("Mercury", "Venus", "Earth", "Mars"))
    assert revealed.right_text == "Mercury → Venus → Earth → Mars"
    counts = dict(zip((o.text for o in revealed.card.options), revealed.counts))
    assert counts == {"Mercury": 1, "Venus": 1, "Earth": 0, "Mars": 0}
    assert revealed.answers[0].letter == " → ".join(letter[p] for p in ("Mercury", "Venus", "Mars", "Earth"))


def test_an_export_reads_back_as_the_same_question_in_yaml_and_json() -> None:
    quiz = parsed(PLANETS, {**PLANETS, "id": "partial", "scoring": "partial"})
    exported = export_quiz(quiz, "en")
    assert exported["questions"][0]["options"] == ["Mercury", "Venus", "Earth", "Mars"]
    assert "answer" not in exported["questions"][0] and exported["questions"][1]["scoring"] == "partial"
    for data in (exported, yaml.safe_load(quiz_yaml(quiz, "en"))):
        again, issues = check_quiz_data({**data, "description": "Put in order"})
        assert again is not None, issues
        assert again.to_quiz().questions == quiz.questions


HEADER_ROWS = 2  # the header and the template's instructions row


def test_quizizz_reorder_rows_become_ordering_questions() -> None:
    rows = [
        ("Oldest first?", "Reorder", "Rome", "Byzantium", "Istanbul", None, None, None, 30, None, "It was renamed."),
        ("Smallest first?", "Reorder", "three", "one", "two", None, None, "2,3,1", 30, None, None),
        ("Bad order?", "Reorder", "a", "b", "c", None, None, "1,1,2", 30, None, None),
    ]
    result = import_quiz(quizizz_xlsx(rows), "reorder.xlsx")
    kept = result.data["questions"]
    assert [(q["kind"], q["options"]) for q in kept] == [
        ("ordering", ["Rome", "Byzantium", "Istanbul"]),  # no Correct Answer: the options as listed
        ("ordering", ["one", "two", "three"]),  # Correct Answer 2,3,1: option 2 first
    ]
    assert kept[0]["explanation"] == "It was renamed." and "shuffle" not in kept[0]
    assert [(s.where, s.reason) for s in result.skipped] == [
        (
            f"row {HEADER_ROWS + 3}",
            "Correct Answer '1,1,2' of a Reorder question must name each of its options once, "
            "in the right order (like 2,1,3)",
        )
    ]
    model, issues = check_quiz_data(result.data)
    assert model is not None, issues


@pytest.mark.parametrize(
    ("entry", "key", "message"),
    [
        ({"scoring": "sometimes"}, "scoring", "question 'q' scoring: must be 'all' or 'partial', not 'sometimes'"),
        ({"options": ["a"]}, "options", "question 'q' options: 1 given: an ordering question puts at least 2 options"),
        ({"options": list("abcdefghijk")}, "options", "question 'q' options: 11 given: at most 10 allowed"),
        ({"answer": [1, 0]}, "answer", "an ordering question has no 'answer' key: list its options in the right order"),
        ({"options": ["a", "a"]}, "- id", "question 'q': options[0] and options[1] have the same English text"),
        (
            {"shuffle": False},
            "- id",
            "question 'q': its options' order is the answer, so they are always shuffled: drop 'shuffle'",
        ),
    ],
)
def test_a_bad_ordering_question_is_named_by_file_and_line(
    tmp_path: Path, entry: dict[str, Any], key: str, message: str
) -> None:
    question = {"id": "q", "kind": "ordering", "prompt": "p", "options": ["a", "b"], **entry}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(quiz_of(question), sort_keys=False), encoding="utf-8")
    lines = bad.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if text.strip().startswith(key))
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "validate", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert f"bad.yaml:{line}: " in result.stdout and message in result.stdout, result.stdout


def test_the_answer_key_names_the_right_order() -> None:
    question: Question = parsed(PLANETS).questions[0]
    assert kind_of(question).key_text(question, "en") == "Mercury → Venus → Earth → Mars"
