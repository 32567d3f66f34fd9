"""How each kind of answer is judged: partial credit, typed answers with case, accents and small
typos forgiven, numbers as people type them, polls that score nothing."""

from __future__ import annotations

import pytest

from bot.domain.answering import letters, numeric_text, picks_of, toggled
from bot.domain.kind_rules import Judged
from bot.domain.model import NO_ANSWER, LocalText, NumericAnswer, Question, QuestionKind
from bot.domain.scoring import multi_credit, normalise, parse_number, partial_points, speed_points, typed_right
from bot.domain.tokens import Kind, QuestionToken, decode, decode_question, is_valid
from bot.kinds import kind_of


def judge(q: Question, option: int, response: str, elapsed: float, limit: float, streak_before: int) -> Judged:
    return kind_of(q).judge(q, option, response, elapsed, limit, streak_before)


def common_responses(q: Question, responses: list[str]) -> tuple[tuple[str, int], ...]:
    return kind_of(q).common_responses(q, responses)


def _q(kind: QuestionKind, **fields: object) -> Question:
    options = tuple(LocalText({"en": t}) for t in ("2", "4", "5", "9")) if kind_of(kind).has_options else ()
    return Question("q", LocalText({"en": "?"}), options, fields.pop("answer", NO_ANSWER), kind=kind, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("typed", "right"),
    [
        ("Zurich", True),
        ("  ZÜRICH. ", True),
        ("zürich", True),
        ("Zurch", True),  # a letter missing: forgiven
        ("Zug", False),
        ("", False),
        ("Geneva", False),
    ],
)
def test_typed_answers_forgive_case_accents_punctuation_and_a_small_typo(typed, right):
    assert typed_right(typed, ("Zürich",)) is right


def test_short_answers_must_match_exactly_and_any_accepted_answer_counts():
    assert not typed_right("car", ("cat",))
    assert typed_right("NYC", ("New York City", "NYC"))
    assert normalise("  Ünited \t States… ") == "united states"


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("3.14", 3.14),
        ("3,14", 3.14),
        ("-2", -2.0),
        ("1e3", 1000.0),
        ("1 000", 1000.0),
        ("1,000.5", 1000.5),
        ("−7", -7.0),
        ("about 3", None),
        ("3..1", None),
        ("nan", None),
        ("", None),
    ],
)
def test_numbers_are_read_as_people_type_them(typed, number):
    assert parse_number(typed) == number


def test_partial_credit_takes_wrong_picks_off_and_never_goes_below_zero():
    right = frozenset({0, 2})
    assert multi_credit(right, frozenset({0, 2})) == 1.0
    assert multi_credit(right, frozenset({0})) == 0.5
    assert multi_credit(right, frozenset({0, 1})) == 0.0
    assert multi_credit(right, frozenset({0, 1, 2, 3})) == 0.0
    assert partial_points(0.5, 0.0, 30, 1) == 500  # half the speed points, no streak bonus
    assert partial_points(1.0, 0.0, 30, 3) == 1000 + 200


def test_each_kind_is_judged_by_its_own_rule():
    multi = _q(QuestionKind.MULTI, answers=(0, 2))
    full = judge(multi, NO_ANSWER, "0,2", 0.0, 30, 1)
    assert (full.correct, full.points, full.streak) == (True, speed_points(0, 30) + 100, 2)
    assert not judge(multi, NO_ANSWER, "0", 0.0, 30, 1).correct  # all or nothing
    assert judge(multi, NO_ANSWER, "0", 0.0, 30, 1).points == 0
    half = judge(_q(QuestionKind.MULTI, answers=(0, 2), partial=True), NO_ANSWER, "0", 0.0, 30, 1)
    assert (half.correct, half.points, half.streak) == (False, 500, 0)
    typed = judge(_q(QuestionKind.TYPED, accepted=("Zürich",)), NO_ANSWER, "zurich", 15.0, 30, 0)
    assert (typed.correct, typed.points, typed.streak) == (True, 750, 1)
    numeric = _q(QuestionKind.NUMERIC, numeric=NumericAnswer(3.135, 3.145, 3.14))
    assert judge(numeric, NO_ANSWER, "3,14", 0.0, 30, 0).correct
    assert not judge(numeric, NO_ANSWER, "3.2", 0.0, 30, 0).correct
    poll = judge(_q(QuestionKind.POLL), 1, "", 0.0, 30, 4)
    assert (poll.correct, poll.points, poll.streak) == (False, 0, 4)  # the streak is left as it was


def test_picks_toggle_and_read_as_the_letters_shown():
    assert toggled(toggled(toggled("", 2), 0), 2) == "0"
    assert picks_of("0,2") == {0, 2}
    assert letters({0, 2}, (2, 1, 0, 3)) == "A, C"


def test_reveals_say_numbers_and_common_answers_plainly():
    assert numeric_text(NumericAnswer(3.135, 3.145, 3.14)) == "3.14 ± 0.005"
    assert numeric_text(NumericAnswer(1990, 1999)) == "1990 – 1999"
    assert numeric_text(NumericAnswer(42, 42, 42)) == "42"
    typed = _q(QuestionKind.TYPED, accepted=("Paris",))
    assert common_responses(typed, ["Paris", "paris ", "Lyon", "PARIS", "", "lyon"]) == (("paris", 3), ("lyon", 2))
    numeric = _q(QuestionKind.NUMERIC, numeric=NumericAnswer(1, 2))
    assert common_responses(numeric, ["3,0", "3", "x", "1e0"]) == (("3", 2), ("1", 1))


def test_done_and_answer_buttons_are_valid_button_data():
    done, text = QuestionToken(Kind.DONE, 12, 3), QuestionToken(Kind.TEXT, 12, 3)
    assert (done.encode(), text.encode()) == ("qd:12:3", "qt:12:3")
    assert is_valid(done.encode()) and is_valid(text.encode())
    assert decode_question("qd:12:3") == done and decode_question("qt:12:3") == text
    assert decode("qd:12:3") is None and decode_question("qa:12:3:1") is None and decode_question("qd:0:3") is None
