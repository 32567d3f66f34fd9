"""Options whose order means something: letters the options carry are stripped (quizhost shows
its own), and a question whose options carry letters or point at each other keeps its order."""

from __future__ import annotations

import pytest
import yaml

from bot.content.export import export_quiz
from bot.content.importers import import_quiz
from bot.content.importers.order import in_meaningful_order


def only_question(text: str, name: str = "q.txt") -> dict:
    (question,) = import_quiz(text.encode(), name).data["questions"]
    return question


def test_options_carrying_their_own_letters_lose_them_and_keep_their_order():
    aiken = (
        "Ai lãnh đạo?\nA. A. lực lượng Mỹ\nB. B. lực lượng Nhật Bản\nC. C. lực lượng Đảng Cộng sản\n"
        "D. D. lực lượng Quốc dân đảng\nANSWER: C\n"
    )
    question = only_question(aiken)
    assert question["options"] == [
        "lực lượng Mỹ",
        "lực lượng Nhật Bản",
        "lực lượng Đảng Cộng sản",
        "lực lượng Quốc dân đảng",
    ]
    assert question["answer"] == 2 and question["shuffle"] is False


@pytest.mark.parametrize(
    "options",
    [
        ["Paris", "Lyon", "All of the above"],
        ["uno", "dos", "Son correctas a) y b)"],
        ["Cả A và B đều đúng", "Hà Nội", "Huế"],
        ["A and B", "Oxygen", "Nitrogen"],
        ["Ninguna de las anteriores", "uno", "dos"],
    ],
)
def test_options_that_point_at_others_keep_their_order(options: list[str]):
    gift = "::q:: Pick one {=" + options[0] + " ~" + " ~".join(options[1:]) + "}\n"
    question = only_question(gift, "q.gift")
    assert question["options"] == options and question["shuffle"] is False


@pytest.mark.parametrize(
    "options",
    [["Paris", "Lyon", "Nice"], ["x and y", "a and b are coprime", "3"], ["Vitamin A and vitamin B", "Iron"]],
)
def test_ordinary_options_are_shuffled(options: list[str]):
    assert in_meaningful_order(options) == (tuple(options), True)
    gift = "::q:: Pick one {=" + options[0] + " ~" + " ~".join(options[1:]) + "}\n"
    assert "shuffle" not in only_question(gift, "q.gift")


def test_letters_out_of_sequence_are_text_not_labels():
    assert in_meaningful_order(["a. one", "b. two", "d. three"]) == (("a. one", "b. two", "d. three"), True)


def test_the_order_survives_the_yaml_file_and_export():
    result = import_quiz(b"Which?\nA. a) first\nB. b) second\nANSWER: B\n", "k.txt")
    reread = yaml.safe_load(yaml.safe_dump(result.data, allow_unicode=True))
    assert reread["questions"][0]["shuffle"] is False
    exported = export_quiz(result.quiz, "en")["questions"][0]
    assert exported["options"] == ["first", "second"] and exported["shuffle"] is False
    assert result.quiz.questions[0].shuffle is False
