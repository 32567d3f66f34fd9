"""The quiz file format: strict pydantic models, friendly error messages, conversion to Quiz.

YAML is forgiving in ways that hurt quiz authors (`yes` becomes True, `2024` a number,
a typo'd key is silently ignored), so every model forbids unknown keys and every string
is strict. `python -m bot.content.quizfile --schema` prints the JSON Schema editors validate with.
"""

from __future__ import annotations

import datetime
import difflib
import json
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from bot.domain.model import LANGUAGES, LETTERS, QUESTION_SECONDS, QUIZ_ID, SPOKEN, LocalText, Question, Quiz

ENGLISH_NAMES = {lang.code: lang.english_name for lang in SPOKEN}  # schema titles are in English

# Telegram refuses messages over 4096 characters. The renderer adds a header ("Question
# 3/8", the title, the time limit) and a letter and spacing per option: we budget for both.
MESSAGE_LIMIT = 4096
HEADER_ALLOWANCE = 200
PER_OPTION_ALLOWANCE = 4
TITLE_MAX, DESCRIPTION_MAX, PROMPT_MAX, OPTION_MAX = 100, 1000, 1500, 300
MAX_OPTIONS = len(LETTERS)  # one letter per option
MAX_QUESTIONS = 500  # a quiz file, shipped, imported or uploaded
ID_PATTERN = f"^{QUIZ_ID}$"

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Issue:
    """One problem in a file's data, at a pydantic-style location (`questions`, 3, `answer`)."""

    loc: Loc
    message: str
    kind: str = ""  # the pydantic error type (or our own), for callers that sort or filter


UNQUOTED = "this unquoted value"  # the loader names the source text here where it knows it


def yaml_misreading(value: Any) -> str | None:
    """What YAML made of an unquoted scalar where a string was meant, and what to do."""
    if isinstance(value, bool):
        return f"YAML reads {UNQUOTED} as the boolean {str(value).lower()}: put it in quotes"
    if isinstance(value, (int, float)):
        return f"YAML reads {UNQUOTED} as a number: put it in quotes"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"YAML reads {UNQUOTED} as a date: put it in quotes"
    return None


# Constraints only, no Python validators: strings are most of a file, and pydantic-core checks
# these in Rust. Stripping drops the newline block scalars (`|`) end with.
Text = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=1)]
Id = Annotated[StrictStr, StringConstraints(pattern=ID_PATTERN)]
Word = Annotated[Text, Field(max_length=60)]


class _LocalizedText(BaseModel):
    """A text: a plain string (English) or a mapping of language code to string."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    if TYPE_CHECKING:  # the language fields are added per model by _text_model; English is always there
        en: str

    @model_validator(mode="before")
    @classmethod
    def _plain_string_is_english(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"en": value}
        if isinstance(value, dict):
            return value
        misread = yaml_misreading(value)
        if misread:
            raise PydanticCustomError("yaml_scalar", misread)
        return value

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        # The model only describes the mapping form; editors must also accept a plain string.
        mapping = dict(handler.resolve_ref_schema(handler(core_schema)))
        plain = {**mapping["properties"]["en"], "description": "English text only"}
        plain.pop("title")
        mapping.pop("title"), mapping.pop("description")
        return {"title": cls.__name__, "description": cls.__doc__, "anyOf": [plain, mapping]}

    def to_local_text(self) -> LocalText:
        # Fields are declared in LANGUAGES order, so by_lang keeps that order.
        return LocalText(by_lang={lang: text for lang, text in self.__dict__.items() if text is not None})

    def get(self, lang: str) -> str:
        return self.__dict__[lang] or self.en


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)  # an omitted language falls back to English; null is not allowed


def _text_model(name: str, doc: str, max_chars: int | None = None) -> type[_LocalizedText]:
    """A text model whose strings all have the same length limit (shown in editors)."""
    chars = Annotated[Text, Field(max_length=max_chars)] if max_chars else Text
    fields: dict[str, Any] = {
        lang: (
            chars,
            Field(
                ... if lang == "en" else None,
                title=ENGLISH_NAMES[lang],
                description=f"{ENGLISH_NAMES[lang]} text" + (" (required: the fallback)" if lang == "en" else ""),
                json_schema_extra=None if lang == "en" else _drop_default,
            ),
        )
        for lang in LANGUAGES
    }
    return create_model(name, __base__=_LocalizedText, __doc__=doc, **fields)


if TYPE_CHECKING:  # built at run time (their limits differ); to a type checker each is a _LocalizedText
    TitleText = _LocalizedText
    DescriptionText = _LocalizedText
    PromptText = _LocalizedText
    OptionText = _LocalizedText
    ExplanationText = _LocalizedText
else:
    TitleText = _text_model("TitleText", "The quiz title, per language.", TITLE_MAX)
    DescriptionText = _text_model("DescriptionText", "What the quiz covers, per language.", DESCRIPTION_MAX)
    PromptText = _text_model("PromptText", "The question, per language.", PROMPT_MAX)
    OptionText = _text_model("OptionText", "One answer option, per language.", OPTION_MAX)
    ExplanationText = _text_model("ExplanationText", "Why the right answer is right, per language.")


class QuestionModel(BaseModel):
    """One multiple-choice question with exactly one right answer."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Question")

    id: Id = Field(title="Question id", description="Stable id, unique in the file: a-z, 0-9, '-'")
    prompt: PromptText = Field(description="The question")
    options: list[OptionText] = Field(
        min_length=2,
        max_length=MAX_OPTIONS,
        description=("2 to 10 options in authoring order (the bot shuffles them per run unless shuffle is false)"),
    )
    answer: StrictInt = Field(
        ge=0,
        lt=MAX_OPTIONS,
        description=("0-based index into options of the one right answer, the same for every language"),
    )
    explanation: ExplanationText | None = Field(
        None,
        description=(
            "Why the right answer is right. Optional (imported quizzes often lack it): the reveal then "
            "shows the right answer and the split; `quizhost validate --strict` lists such questions"
        ),
    )
    seconds: StrictInt | None = Field(
        None,
        ge=QUESTION_SECONDS.low,
        le=QUESTION_SECONDS.high,
        description=(
            f"This question's time limit in seconds ({QUESTION_SECONDS.low} to {QUESTION_SECONDS.high}); "
            "without it the chat's setting applies"
        ),
    )

    @field_validator("answer")
    @classmethod
    def _answer_is_an_option(cls, answer: int, info: ValidationInfo) -> int:
        options = info.data.get("options")  # absent when the options themselves are invalid
        if options is not None and answer >= len(options):
            raise PydanticCustomError(
                "answer_range",
                "answer {answer} is out of range: {n} options, so 0 to {last} (0-based)",
                {"answer": answer, "n": len(options), "last": len(options) - 1},
            )
        return answer

    @model_validator(mode="after")
    def _fits_a_message(self) -> QuestionModel:
        problems = [*_oversized_messages(self), *_repeated_options(self)]
        if problems:
            raise PydanticCustomError("question_rules", "; ".join(problems))
        return self

    shuffle: StrictBool = Field(
        True,
        description=(
            "false keeps the options in authoring order: for options that carry their own letters or "
            "point at each other ('all of the above', 'a) and b)')"
        ),
    )

    def to_question(self) -> Question:
        return Question(
            id=self.id,
            prompt=self.prompt.to_local_text(),
            options=tuple(o.to_local_text() for o in self.options),
            answer=self.answer,
            seconds=self.seconds,
            shuffle=self.shuffle,
            explanation=self.explanation.to_local_text() if self.explanation else None,
        )


def _oversized_messages(q: QuestionModel) -> list[str]:
    """The question and reveal messages, estimated per language (English fills gaps)."""
    asked: dict[str, int] = {}
    # Within the per-text caps, only many options can overflow: skip the sums otherwise.
    if HEADER_ALLOWANCE + PROMPT_MAX + len(q.options) * (OPTION_MAX + PER_OPTION_ALLOWANCE) > MESSAGE_LIMIT:
        asked = {
            lang: HEADER_ALLOWANCE
            + len(q.prompt.get(lang))
            + sum(len(o.get(lang)) + PER_OPTION_ALLOWANCE for o in q.options)
            for lang in LANGUAGES
        }
    revealed = {
        lang: HEADER_ALLOWANCE
        + len(q.options[q.answer].get(lang))
        + (len(q.explanation.get(lang)) if q.explanation else 0)
        for lang in LANGUAGES
    }
    return [
        f"the {what} message would be about {max(sizes.values())} characters "
        f"(in {', '.join(over)}), over Telegram's {MESSAGE_LIMIT}: shorten {fix}"
        for what, sizes, fix in (
            ("question", asked, "the prompt or the options"),
            ("answer", revealed, "the explanation"),
        )
        if (over := [lang for lang, size in sizes.items() if size > MESSAGE_LIMIT])
    ]


def _repeated_options(q: QuestionModel) -> list[str]:
    # Two identical options make a question ambiguous whatever the answer key says.
    seen: dict[str, int] = {}
    for i, option in enumerate(q.options):
        if option.en.casefold() in seen:
            return [f"options[{seen[option.en.casefold()]}] and options[{i}] have the same English text"]
        seen[option.en.casefold()] = i
    return []


class QuizFile(BaseModel):
    """A quizhost quiz: one YAML file in quizzes/."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        title="quizhost quiz",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    id: Id = Field(title="Quiz id", description="Unique quiz id: 1 to 40 of a-z, 0-9, '-'")
    aliases: list[Word] = Field(default=[], description="Other names /quiz accepts, any script")
    tags: list[Word] = Field(default=[], description="Topics /quiz matches, any script")
    difficulty: Literal["easy", "medium", "hard"] = Field("medium", description="How hard it is")
    title: TitleText = Field(description="The quiz title")
    description: DescriptionText = Field(description="One or two sentences on what it covers")
    questions: list[QuestionModel] = Field(
        min_length=1, max_length=MAX_QUESTIONS, description=(f"1 to {MAX_QUESTIONS} questions")
    )

    def to_quiz(self, source: str = "") -> Quiz:
        return Quiz(
            id=self.id,
            title=self.title.to_local_text(),
            description=self.description.to_local_text(),
            questions=tuple(q.to_question() for q in self.questions),
            aliases=tuple(self.aliases),
            tags=tuple(self.tags),
            difficulty=self.difficulty,
            source=source,
        )


def check_quiz_data(data: Any) -> tuple[QuizFile | None, list[Issue]]:
    """Validate parsed YAML; every problem found, in file order where pydantic gives it."""
    issues = duplicate_question_ids(data)
    try:
        parsed = QuizFile.model_validate(data)
    except ValidationError as error:
        found = [Issue(_issue_loc(e), friendly_message(e), e["type"]) for e in error.errors()]
        return None, found + issues
    return (None if issues else parsed), issues


def _issue_loc(error: ErrorDetails) -> Loc:
    # pydantic ends the location of a non-string key with its position: the mapping is the place.
    return tuple(error["loc"][:-1] if error["type"] == "invalid_key" else error["loc"])


def duplicate_question_ids(data: Any) -> list[Issue]:
    """Checked on the raw data so it is reported even when other parts are malformed."""
    questions = data.get("questions") if isinstance(data, dict) else None
    first: dict[str, int] = {}
    issues = []
    for i, q in enumerate(questions if isinstance(questions, list) else []):
        qid = q.get("id") if isinstance(q, dict) else None
        if isinstance(qid, str) and qid in first:
            issues.append(
                Issue(
                    ("questions", i, "id"),
                    f"duplicate question id '{qid}': questions[{first[qid]}] already uses it",
                    "duplicate_id",
                )
            )
        elif isinstance(qid, str):
            first[qid] = i
    return issues


def _kind_of(value: Any) -> str:
    names = {
        bool: "a boolean",
        int: "a number",
        float: "a fraction",
        str: "a string",
        dict: "a mapping",
        list: "a list",
        type(None): "nothing",
    }
    return names.get(type(value), type(value).__name__)


def _known_keys(loc: Loc) -> list[str]:
    return list(QuizFile.model_fields if len(loc) == 1 else QuestionModel.model_fields)


def _is_text(parent: Loc) -> bool:
    return bool(parent) and (
        parent[-1] in ("title", "description", "prompt", "explanation") or (len(parent) > 1 and parent[-2] == "options")
    )


def friendly_message(error: ErrorDetails) -> str:
    """An author-facing message for one pydantic error; the location is named elsewhere."""
    kind, loc, value = error["type"], error["loc"], error.get("input")
    if kind == "extra_forbidden":
        return _unknown_key(loc)
    if kind == "missing":
        return f"'{loc[-1]}' is missing" if loc[-1] != "en" else "the English text ('en') is missing"
    if kind in _WANTED:
        return _wrong_type(kind, loc, value)
    if kind in ("too_short", "string_too_short", "too_long", "string_too_long"):
        return _wrong_size(kind, value, error.get("ctx", {}))
    if kind == "string_pattern_mismatch":
        return f"'{value}' is not a valid id: use 1 to 40 of a-z, 0-9 and '-'"
    if kind in ("greater_than_equal", "less_than_equal") and loc[-1] == "seconds":
        return f"{value} is out of range: a time limit is {QUESTION_SECONDS.low} to {QUESTION_SECONDS.high} seconds"
    if kind in ("greater_than_equal", "less_than"):
        return f"{value} is out of range: an option index is 0 to {MAX_OPTIONS - 1} (0-based)"
    if kind == "literal_error":
        return f"{error['msg'].replace('Input should be', 'must be')}, not {value!r}"
    if kind == "invalid_key":
        return f"a key YAML reads as {_kind_of(value)} ({value!r}): put the key in quotes"
    return error["msg"]


_WANTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "list_type": "a list",
    "model_type": "a mapping",
    "dict_type": "a mapping",
}


def _unknown_key(loc: Loc) -> str:
    key = loc[-1]
    if _is_text(loc[:-1]):
        return f"unknown language '{key}' (allowed: {', '.join(LANGUAGES)})"
    close = difflib.get_close_matches(str(key), _known_keys(loc), n=1)
    return f"unknown key '{key}'" + (f": did you mean '{close[0]}'?" if close else "")


def _wrong_type(kind: str, loc: Loc, value: Any) -> str:
    if value is None:
        return "empty value: give one or remove the key"
    misread = yaml_misreading(value)
    if kind == "string_type" and misread:
        return misread
    if kind == "int_type" and isinstance(value, bool):
        return f"expected a whole number, but YAML reads {UNQUOTED} as a boolean"
    if kind == "int_type" and isinstance(value, str):
        return f"expected a whole number, found the string {value!r}: remove the quotes"
    if kind == "model_type" and _is_text(loc):
        return f"expected a text (a string, or a mapping of language to string), found {_kind_of(value)}"
    return f"expected {_WANTED[kind]}, found {_kind_of(value)}"


def _wrong_size(kind: str, value: Any, ctx: dict[str, Any]) -> str:
    if isinstance(value, str):
        return "empty text" if "short" in kind else (f"too long: {len(value)} characters, at most {ctx['max_length']}")
    if "short" in kind:
        return f"{ctx.get('actual_length')} given: at least {ctx.get('min_length')} needed"
    return f"{ctx.get('actual_length')} given: at most {ctx.get('max_length')} allowed"


def schema_json() -> str:
    """The JSON Schema shipped as quizzes/quiz.schema.json (editors validate YAML with it)."""
    return json.dumps(QuizFile.model_json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m bot.content.quizfile --schema  (prints the quiz file JSON Schema)")
    sys.stdout.write(schema_json())
