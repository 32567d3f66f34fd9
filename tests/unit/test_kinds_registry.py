"""Each kind of question has its module: every code a quiz file may name finds one, and the
rest of the bot asks it (kind_of) rather than comparing codes."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.domain.model import DEFAULT_KIND, KindName, LocalText, Question, QuestionKind
from bot.kinds import DEFAULT, KINDS, by_right_options, kind_of


def test_every_kind_a_quiz_file_may_name_has_its_module() -> None:
    assert set(get_args(KindName)) == {k.value for k in QuestionKind} == {k.value for k in KINDS}
    assert all(kind.code is code for code, kind in KINDS.items())
    assert DEFAULT is kind_of(DEFAULT_KIND)


@pytest.mark.parametrize("code", list(QuestionKind))
def test_a_question_and_its_code_find_the_same_kind(code: QuestionKind) -> None:
    question = Question("q", LocalText({"en": "?"}), (), -1, kind=code)
    assert kind_of(question) is kind_of(code) is KINDS[code]


def test_the_option_kinds_by_their_count_of_right_options() -> None:
    assert [by_right_options(n).code for n in (0, 1, 2, 5)] == [
        QuestionKind.POLL,
        QuestionKind.CHOICE,
        QuestionKind.MULTI,
        QuestionKind.MULTI,
    ]
