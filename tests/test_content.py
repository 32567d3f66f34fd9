"""Content checks for the shipped quizzes (bot/quizzes/pipeline.yaml, bot/quizzes/training-stacks.yaml).

These tests read the YAML directly (not through the bot's loader) and check the product's
content rules: 8 questions of 4 options, every text in en/hi/sn/ur, 2 to 4 sentences per
explanation, the seed texts kept as their authors wrote them (minus the typo fixes listed
below and in bot/quizzes/TRANSLATION_NOTES.md), and the answer key.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bot.catalog import default_quiz_folders

QUIZ_DIR = default_quiz_folders()[0]
SEED_DIR = Path(__file__).resolve().parent / "fixtures" / "seeds"

LANGS = ("en", "hi", "sn", "ur")
QUIZ_FILES = {"pipeline": QUIZ_DIR / "pipeline.yaml",
              "training-stacks": QUIZ_DIR / "training-stacks.yaml"}
ID_RE = re.compile(r"^[a-z0-9-]+$")
TOP_LEVEL_KEYS = {"id", "aliases", "tags", "difficulty", "title", "description", "questions"}
QUESTION_KEYS = {"id", "prompt", "options", "answer", "explanation"}
MAX_TEXT = 1000

REQUIRED_ALIASES = {
    "pipeline": {"model-parallelism", "pipeline-parallelism", "tensor", "tensor-parallelism",
                 "parallelism"},
    "training-stacks": {"deepspeed", "megatron", "zero", "3d-parallelism"},
}

# The answer key (0-based, options in authoring order). Verified question by question; the
# seeds put the right answer at positions 1,2,3,4,1,2,3,4, i.e. SEED_ANSWER_PATTERN.
SEED_ANSWER_PATTERN = [0, 1, 2, 3, 0, 1, 2, 3]
ANSWER_KEY = {
    "pipeline": {
        "memory-wall": 0,           # the model does not fit in one GPU's memory
        "tensor-split": 1,          # the matmuls inside a layer are split across GPUs
        "pipeline-bubble": 2,       # idle time of stages waiting for upstream activations
        "micro-batches": 3,         # micro-batches overlap the stages
        "tensor-intra-node": 0,     # frequent all-reduces need NVLink-class bandwidth
        "tensor-framework": 1,      # NVIDIA Megatron-LM
        "stage-activations": 2,     # activation tensors go stage to stage
        "tensor-communication": 3,  # partial results are exchanged inside every layer
    },
    "training-stacks": {
        "zero-purpose": 0,              # shard optimizer states, gradients, parameters
        "megatron-tensor-split": 1,     # slice matmuls within a layer
        "pipeline-vs-tensor": 2,        # different layers (stages) on different GPUs
        "zero-stage-3": 3,              # stage 3 also shards parameters
        "activation-checkpointing": 0,  # extra compute: recompute in the backward pass
        "3d-parallelism": 1,            # data x tensor x pipeline
        "zero-stage-1": 2,              # stage 1 shards optimizer state first
        "offloading": 3,                # moves state off GPU memory to CPU RAM / NVMe
    },
}

# Plain typo fixes applied to seed texts: seed text -> text used in the quiz.
# Each one is explained in bot/quizzes/TRANSLATION_NOTES.md.
TYPO_FIXES = {
    # Seed 000 (Hindi), q1 option 3: "ग्रेजुएट्स" (graduates) is a garbled "ग्रेडिएंट्स"
    # (gradients); the seed itself spells the word ग्रेडिएंट in q3 option 4.
    "प्रशिक्षण के दौरान ग्रेजुएट्स विस्फोट कर रहे हैं":
        "प्रशिक्षण के दौरान ग्रेडिएंट्स विस्फोट कर रहे हैं",
    # Seed 001 (Shona), q6 option 1: the product name scikit-learn had its "learn"
    # translated ("dzidza"); product names stay as they are (the other options of q6 do).
    "scikit-dzidza": "scikit-learn",
}

# What each seed is and which of its parts are in the seed's language. Everything else in
# the numbered questions of a seed is English and must equal the quiz's English text.
SEEDS = {
    "000_647954e41e22aeb2.txt": {
        "quiz": "pipeline", "lang": "hi",
        "title_line": 1,                 # 1-based line holding the title in `lang`
        "native_prompts": {1, 2, 3, 4, 5, 6},
        "native_options": {(q, i) for q in range(1, 7) for i in range(4)},
    },
    "001_acb9ebb04977d331.txt": {
        "quiz": "pipeline", "lang": "sn",
        "title_line": 3,
        "english_description_line": 5,   # the seed's English description of the quiz
        "native_prompts": {1, 2, 3, 4, 5, 6},
        # q3 option 4 ("A spike in gradient values") was left in English.
        "native_options": {(q, i) for q in range(1, 7) for i in range(4)} - {(3, 3)},
    },
    "003_df27edf780367fe5.txt": {
        "quiz": "training-stacks", "lang": "ur",
        "title_line": 1,
        "native_prompts": {1, 2, 3, 4, 5, 6},       # q7's prompt and all of q8 are English
        "native_options": {(q, i) for q in range(1, 8) for i in range(4)},
    },
}

QUESTION_LINE = re.compile(r"^\s*(\d+)\.\s+(.*\S)\s*$")
OPTION_LINE = re.compile(r"^\s*•\s+(.*\S)\s*$")

# Sentence-ending punctuation per language, counted when followed by a space or the end.
SENTENCE_ENDS = {"en": ".?!", "sn": ".?!", "hi": ".?!।", "ur": ".?!۔؟"}

SCRIPT = {"hi": re.compile(r"[\u0900-\u097F]"), "ur": re.compile(r"[\u0600-\u06FF]")}


def load(quiz_id: str) -> dict:
    with QUIZ_FILES[quiz_id].open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def parse_seed(name: str) -> tuple[list[str], list[tuple[int, str, list[str]]]]:
    """The seed's lines and its numbered questions as (number, prompt, options)."""
    lines = (SEED_DIR / name).read_text(encoding="utf-8").split("\n")
    questions: list[tuple[int, str, list[str]]] = []
    for line in lines:
        if m := QUESTION_LINE.match(line):
            questions.append((int(m.group(1)), m.group(2), []))
        elif (m := OPTION_LINE.match(line)) and questions:
            questions[-1][2].append(m.group(1))
    return lines, questions


def fixed(seed_text: str) -> str:
    return TYPO_FIXES.get(seed_text, seed_text)


def texts(quiz: dict):
    """Every localized text of a quiz as (where, mapping)."""
    yield "title", quiz["title"]
    yield "description", quiz["description"]
    for q in quiz["questions"]:
        yield f"{q['id']}.prompt", q["prompt"]
        for i, option in enumerate(q["options"]):
            yield f"{q['id']}.options[{i}]", option
        yield f"{q['id']}.explanation", q["explanation"]


def count_sentences(text: str, lang: str) -> int:
    ends = re.escape(SENTENCE_ENDS[lang])
    return len(re.findall(rf"[{ends}]+(?=\s|$)", text.strip()))


@pytest.mark.parametrize("quiz_id", QUIZ_FILES)
def test_structure(quiz_id):
    quiz = load(quiz_id)
    assert set(quiz) == TOP_LEVEL_KEYS
    assert quiz["id"] == quiz_id
    assert quiz["difficulty"] in ("easy", "medium", "hard")
    assert REQUIRED_ALIASES[quiz_id] <= set(quiz["aliases"])
    for word in [*quiz["aliases"], *quiz["tags"]]:
        assert isinstance(word, str) and word.strip() == word and word
    assert len(set(quiz["aliases"])) == len(quiz["aliases"])
    questions = quiz["questions"]
    assert len(questions) == 8
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids), "question ids must be unique"
    for q in questions:
        assert set(q) == QUESTION_KEYS
        assert isinstance(q["id"], str) and ID_RE.match(q["id"])
        assert len(q["options"]) == 4
        assert type(q["answer"]) is int and 0 <= q["answer"] < len(q["options"])
        english = [o["en"].casefold() for o in q["options"]]
        assert len(set(english)) == 4, f"{q['id']}: repeated option"


@pytest.mark.parametrize("quiz_id", QUIZ_FILES)
def test_every_text_in_every_language(quiz_id):
    for where, text in texts(load(quiz_id)):
        assert isinstance(text, dict) and set(text) == set(LANGS), f"{where}: languages {text}"
        for lang in LANGS:
            value = text[lang]
            assert isinstance(value, str) and value.strip(), f"{where}.{lang} is empty"
            assert len(value) < MAX_TEXT, f"{where}.{lang} is {len(value)} characters"
            assert value == value.strip(), f"{where}.{lang} has surrounding whitespace"


@pytest.mark.parametrize("quiz_id", QUIZ_FILES)
def test_translations_are_not_english_fallbacks(quiz_id):
    """Prompts, explanations, titles and descriptions are really translated."""
    quiz = load(quiz_id)
    long_texts = [("title", quiz["title"]), ("description", quiz["description"])]
    for q in quiz["questions"]:
        long_texts += [(f"{q['id']}.prompt", q["prompt"]),
                       (f"{q['id']}.explanation", q["explanation"])]
    for where, text in long_texts:
        for lang in ("hi", "sn", "ur"):
            assert text[lang] != text["en"], f"{where}.{lang} is the English text"
        for lang, script in SCRIPT.items():
            assert script.search(text[lang]), f"{where}.{lang} is not in the {lang} script"


@pytest.mark.parametrize("quiz_id", QUIZ_FILES)
def test_explanations_have_two_to_four_sentences(quiz_id):
    for q in load(quiz_id)["questions"]:
        for lang in LANGS:
            text = q["explanation"][lang]
            n = count_sentences(text, lang)
            assert 2 <= n <= 4, f"{q['id']}.explanation.{lang}: {n} sentences"
            assert text.rstrip()[-1] in SENTENCE_ENDS[lang], f"{q['id']}.explanation.{lang}"


@pytest.mark.parametrize("quiz_id", QUIZ_FILES)
def test_answer_key(quiz_id):
    questions = load(quiz_id)["questions"]
    assert {q["id"]: q["answer"] for q in questions} == ANSWER_KEY[quiz_id]
    assert [q["answer"] for q in questions] == SEED_ANSWER_PATTERN


@pytest.mark.parametrize("seed_name", SEEDS)
def test_seed_texts_kept_as_written(seed_name):
    spec = SEEDS[seed_name]
    quiz, lang = load(spec["quiz"]), spec["lang"]
    lines, seed_questions = parse_seed(seed_name)

    assert [n for n, _, _ in seed_questions] == list(range(1, 9))
    assert all(len(options) == 4 for _, _, options in seed_questions)
    assert quiz["title"][lang] == fixed(lines[spec["title_line"] - 1])
    if "english_description_line" in spec:
        assert quiz["description"]["en"] == lines[spec["english_description_line"] - 1]

    for (number, prompt, options), q in zip(seed_questions, quiz["questions"], strict=True):
        prompt_lang = lang if number in spec["native_prompts"] else "en"
        assert q["prompt"][prompt_lang] == fixed(prompt), f"q{number} prompt ({prompt_lang})"
        for i, option in enumerate(options):
            option_lang = lang if (number, i) in spec["native_options"] else "en"
            assert q["options"][i][option_lang] == fixed(option), (
                f"q{number} option {i + 1} ({option_lang})")


def test_every_typo_fix_is_used():
    """A fix that matches no seed text is a mistake in TYPO_FIXES."""
    seed_texts = set()
    for name in SEEDS:
        lines, questions = parse_seed(name)
        seed_texts.update(lines)
        for _, prompt, options in questions:
            seed_texts.add(prompt)
            seed_texts.update(options)
    assert set(TYPO_FIXES) <= seed_texts
