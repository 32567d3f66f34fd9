"""The shipped trivia night (quizzes/trivia-night.yaml): two rounds, the second worth double,
hints on most questions, every text in every language, explanations that teach, its answer key."""

from __future__ import annotations

import yaml

from bot.content.catalog import Catalog, default_quiz_folders
from tests.unit.test_content import LANGS, SCRIPT, SENTENCE_ENDS, count_sentences

PATH = default_quiz_folders()[0] / "trivia-night.yaml"
ANSWER_KEY = {
    "plant-gas": 1,  # carbon dioxide, taken in for photosynthesis
    "hardest-mineral": 3,  # diamond, 10 on the Mohs scale
    "adult-bones": 1,  # 206
    "gold-symbol": 2,  # Au, from aurum
    "largest-ocean": 2,  # the Pacific
    "moon-landing": 2,  # Apollo 11, July 1969
    "africa-river": 2,  # the Nile
    "smallest-country": 1,  # Vatican City
}


def data() -> dict:
    return yaml.safe_load(PATH.read_text(encoding="utf-8"))


def questions() -> list[dict]:
    return [q for r in data()["rounds"] for q in r["questions"]]


def test_two_rounds_the_second_worth_double_and_hints_on_most_questions():
    quiz = Catalog.load(default_quiz_folders()).get("trivia-night")
    assert quiz is not None
    assert [(len(r.question_ids), r.multiplier) for r in quiz.rounds] == [(4, 1.0), (4, 2.0)]
    assert sum(q.hint is not None for q in quiz.questions) >= 6
    assert quiz.languages() == LANGS


def test_the_answer_key():
    assert {q["id"]: q["answer"] for q in questions()} == ANSWER_KEY
    for q in questions():
        assert len(q["options"]) == 4 and len({o["en"].casefold() for o in q["options"]}) == 4


def test_every_text_is_translated_in_its_script():
    quiz = data()
    texts = [("title", quiz["title"]), ("description", quiz["description"])]
    texts += [(f"round {n} name", r["name"]) for n, r in enumerate(quiz["rounds"], 1)]
    for q in questions():
        texts += [(f"{q['id']}.{field}", q[field]) for field in ("prompt", "explanation", "hint") if field in q]
    for where, text in texts:
        assert set(text) == set(LANGS), where
        for lang in ("hi", "sn", "ur"):
            assert text[lang] != text["en"], f"{where}.{lang} is the English text"
        for lang, script in SCRIPT.items():
            assert script.search(text[lang]), f"{where}.{lang} is not in the {lang} script"


def test_explanations_have_two_to_four_sentences_and_hints_do_not_name_the_answer():
    for q in questions():
        for lang in LANGS:
            text = q["explanation"][lang]
            assert 2 <= count_sentences(text, lang) <= 4, f"{q['id']}.explanation.{lang}"
            assert text[-1] in SENTENCE_ENDS[lang]
            if "hint" in q:
                right = q["options"][q["answer"]][lang].casefold()
                assert right not in q["hint"][lang].casefold(), f"{q['id']}.hint.{lang} gives it away"
