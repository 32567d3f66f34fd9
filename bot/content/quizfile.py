"""The quiz file format: strict pydantic models and conversion to Quiz (bot/content/quiz_check.py
checks a file's data against them and words what is wrong for its author).

YAML is forgiving in ways that hurt quiz authors (`yes` becomes True, `2024` a number,
a typo'd key is silently ignored), so every model forbids unknown keys and every string
is strict. `python -m bot.content.quizfile --schema` prints the JSON Schema editors validate with.
"""

from __future__ import annotations

import datetime
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
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from bot.content.question_kinds import (
    ACCEPTED_MAX,
    ANSWER_SCHEMA,
    MAX_ACCEPTED,
    MAX_OPTIONS,
    MediaModel,
    check_answer,
    check_keys,
    check_options,
    kind_field_description,
    options_field_description,
    question_fields,
)
from bot.domain.model import (
    FALLBACK_LANGUAGE,
    LANGUAGES,
    QUESTION_SECONDS,
    QUIZ_ID,
    SPOKEN,
    KindName,
    LocalText,
    Media,
    Question,
    QuestionKind,
    Quiz,
    Round,
)
from bot.kinds import DEFAULT as DEFAULT_KIND
from bot.kinds import kind_of

ENGLISH_NAMES = {lang.code: lang.english_name for lang in SPOKEN}  # schema titles are in English

# Telegram refuses messages over 4096 characters. The renderer adds a header ("Question
# 3/8", the title, the time limit) and a letter and spacing per option: we budget for both.
MESSAGE_LIMIT = 4096
HEADER_ALLOWANCE = 200
PER_OPTION_ALLOWANCE = 4
TITLE_MAX, DESCRIPTION_MAX, PROMPT_MAX, OPTION_MAX = 100, 1000, 1500, 300
HINT_MAX, ROUND_NAME_MAX = 300, 60  # a hint is a nudge, a round's name a heading
MAX_ROUNDS = 20
MULTIPLIER_LOW, MULTIPLIER_HIGH = 0.5, 10.0  # a round's points multiplier: halved to ten times
MAX_QUESTIONS = 500  # a quiz file, shipped, imported or uploaded
ID_PATTERN = f"^{QUIZ_ID}$"
LANGUAGE_TAG = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"  # BCP 47, as quiz files write it: es, pt-BR, zh-Hant

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
    HintText = _LocalizedText
    RoundNameText = _LocalizedText
else:
    TitleText = _text_model("TitleText", "The quiz title, per language.", TITLE_MAX)
    DescriptionText = _text_model("DescriptionText", "What the quiz covers, per language.", DESCRIPTION_MAX)
    PromptText = _text_model("PromptText", "The question, per language.", PROMPT_MAX)
    OptionText = _text_model("OptionText", "One answer option, per language.", OPTION_MAX)
    ExplanationText = _text_model("ExplanationText", "Why the right answer is right, per language.")
    HintText = _text_model("HintText", "A nudge towards the answer, per language.", HINT_MAX)
    RoundNameText = _text_model("RoundNameText", "A round's name, per language.", ROUND_NAME_MAX)


class QuestionModel(BaseModel):
    """One question: by default one right answer among options; `kind` says otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Question")

    id: Id = Field(title="Question id", description="Stable id, unique in the file: a-z, 0-9, '-'")
    kind: KindName = Field(DEFAULT_KIND.code.value, description=kind_field_description())
    prompt: PromptText = Field(description="The question")
    options: list[OptionText] = Field(
        [],
        validate_default=True,
        max_length=MAX_OPTIONS,
        description=options_field_description(),
    )
    answer: Any = Field(None, validate_default=True, json_schema_extra=ANSWER_SCHEMA)
    accept: list[Annotated[Text, Field(max_length=ACCEPTED_MAX)]] = Field(
        [],
        max_length=MAX_ACCEPTED,
        description=(
            "typed: the accepted answers, the first shown at the reveal (case, accents and small typos forgiven)"
        ),
    )
    tolerance: Annotated[float, Field(ge=0)] | None = Field(
        None, description="numeric: how far from answer is still right"
    )
    scoring: Literal["all", "partial"] | None = Field(
        None,
        description="multi: all (the exact set scores, the default) or partial (credit per right pick, less per wrong)",
    )
    explanation: ExplanationText | None = Field(
        None,
        description=(
            "Why the right answer is right. Optional (imported quizzes often lack it): the reveal then "
            "shows the right answer and the split; `quizhost validate --strict` lists such questions"
        ),
    )
    hint: HintText | None = Field(
        None,
        description=(
            "A nudge towards the answer that does not give it away: shown when a hosted game's host "
            "asks for it, or at half time in a timed game; answers after it earn half the speed points"
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
    shuffle: StrictBool = Field(
        True,
        description=(
            "false keeps the options in authoring order: for options that carry their own letters or "
            "point at each other ('all of the above', 'a) and b)')"
        ),
    )
    media: MediaModel | None = Field(None, description="A picture (or sound, video) shown with the question")
    explanation_media: MediaModel | None = Field(None, description="A picture shown with the explanation")

    @field_validator("options")
    @classmethod
    def _options_fit_the_kind(cls, options: list[OptionText], info: ValidationInfo) -> list[OptionText]:
        if "kind" in info.data:  # absent when the kind itself is invalid
            check_options(QuestionKind(info.data["kind"]), len(options))
        return options

    @field_validator("answer")
    @classmethod
    def _answer_fits_the_kind(cls, answer: Any, info: ValidationInfo) -> Any:
        if "kind" in info.data and "options" in info.data:  # absent when they are invalid themselves
            check_answer(QuestionKind(info.data["kind"]), answer, len(info.data["options"]))
        return answer

    @model_validator(mode="after")
    def _fits_its_kind(self) -> QuestionModel:
        check_keys(self.question_kind, {"accept": self.accept, "tolerance": self.tolerance, "scoring": self.scoring})
        if not self.shuffle and kind_of(self.question_kind).always_shuffled:
            raise PydanticCustomError(
                "question_kind", "its options' order is the answer, so they are always shuffled: drop 'shuffle'"
            )
        return self

    @model_validator(mode="after")
    def _fits_a_message(self) -> QuestionModel:
        problems = [*_oversized_messages(self), *_repeated_options(self)]
        if problems:
            raise PydanticCustomError("question_rules", "; ".join(problems))
        return self

    @property
    def question_kind(self) -> QuestionKind:
        return QuestionKind(self.kind)

    def to_question(self) -> Question:
        kind = kind_of(self.question_kind)
        fields: dict[str, Any] = {"options": tuple(o.to_local_text() for o in self.options)}
        return Question(
            id=self.id,
            prompt=self.prompt.to_local_text(),
            seconds=self.seconds,
            shuffle=self.shuffle and not kind.fixed_options,  # True stays before False
            explanation=self.explanation.to_local_text() if self.explanation else None,
            hint=self.hint.to_local_text() if self.hint else None,
            kind=kind.code,
            partial=self.scoring == "partial",
            accepted=tuple(self.accept),
            media=_media(self.media),
            explanation_media=_media(self.explanation_media),
            **(fields | question_fields(kind, self.answer, self.tolerance)),
        )

    def right_text(self, lang: str) -> str:
        """The right answer as the reveal shows it, for the size estimate."""
        options = [o.get(lang) for o in self.options]
        return kind_of(self.question_kind).estimated_right_text(self.answer, self.accept, options)


def _media(model: MediaModel | None) -> Media | None:
    if model is None:
        return None
    alt = LocalText({"en": model.alt}) if model.alt else None
    return Media(model.media_kind(), model.src.strip(), alt)


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
        lang: HEADER_ALLOWANCE + len(q.right_text(lang)) + (len(q.explanation.get(lang)) if q.explanation else 0)
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


class RoundModel(BaseModel):
    """A round of a trivia night: its questions, under a name, worth `multiplier` times their points."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Round")

    name: RoundNameText = Field(description="The round's name, announced before its first question")
    multiplier: Annotated[float, Field(strict=True, ge=MULTIPLIER_LOW, le=MULTIPLIER_HIGH)] = Field(
        1.0,
        description=(
            f"Its questions' points are multiplied by this ({MULTIPLIER_LOW:g} to {MULTIPLIER_HIGH:g}; "
            "2: a double-points round)"
        ),
    )
    questions: list[QuestionModel] = Field(
        min_length=1, max_length=MAX_QUESTIONS, description="The round's questions, in the order they are asked"
    )

    def to_round(self) -> Round:
        return Round(self.name.to_local_text(), tuple(q.id for q in self.questions), self.multiplier)


class QuizFile(BaseModel):
    """A quizhost quiz: one YAML file in quizzes/."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        title="quizhost quiz",
        json_schema_extra={
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "oneOf": [{"required": ["questions"]}, {"required": ["rounds"]}],
        },
    )

    id: Id = Field(title="Quiz id", description="Unique quiz id: 1 to 40 of a-z, 0-9, '-'")
    aliases: list[Word] = Field(default=[], description="Other names /quiz accepts, any script")
    tags: list[Word] = Field(default=[], description="Topics /quiz matches, any script")
    difficulty: Literal["easy", "medium", "hard"] = Field("medium", description="How hard it is")
    language: Annotated[StrictStr, StringConstraints(pattern=LANGUAGE_TAG)] = Field(
        FALLBACK_LANGUAGE,
        description=(
            "The language of the quiz's plain texts, a BCP 47 tag (en, es, vi, ar, pt-BR…); the bot's own "
            "texts stay in the chat's language, and a right-to-left language is laid out right to left"
        ),
    )
    title: TitleText = Field(description="The quiz title")
    description: DescriptionText = Field(description="One or two sentences on what it covers")
    questions: list[QuestionModel] = Field(
        [],
        max_length=MAX_QUESTIONS,
        description=f"1 to {MAX_QUESTIONS} questions (or, instead, 'rounds' of them)",
    )
    rounds: list[RoundModel] = Field(
        [],
        max_length=MAX_ROUNDS,
        description=(
            f"Instead of 'questions': 1 to {MAX_ROUNDS} rounds of a trivia night, each with its questions "
            "(standings are shown between rounds)"
        ),
    )

    @model_validator(mode="after")
    def _questions_or_rounds(self) -> QuizFile:
        # ctx["field"]: where quiz_check places the problem (a model's own errors have no place)
        if self.questions and self.rounds:
            raise PydanticCustomError(
                "questions_and_rounds",
                "a quiz has either 'questions' or 'rounds' of them, not both",
                {"field": "rounds"},
            )
        if not self.questions and not self.rounds:
            given = [f for f in ("questions", "rounds") if f in self.model_fields_set]
            if given:
                raise PydanticCustomError("too_short", "0 given: at least 1 needed", {"field": given[0]})
            raise PydanticCustomError("missing", "'questions' is missing (or 'rounds' of them)", {"field": "questions"})
        if len(self.all_questions) > MAX_QUESTIONS:
            raise PydanticCustomError(
                "too_many_questions",
                "{count} questions in its rounds: at most {most} allowed",
                {"count": len(self.all_questions), "most": MAX_QUESTIONS},
            )
        return self

    @property
    def all_questions(self) -> list[QuestionModel]:
        """The quiz's questions in the order they are asked, rounds one after another."""
        return self.questions or [q for r in self.rounds for q in r.questions]

    def to_quiz(self, source: str = "") -> Quiz:
        return Quiz(
            id=self.id,
            title=self.title.to_local_text(),
            description=self.description.to_local_text(),
            questions=tuple(q.to_question() for q in self.all_questions),
            rounds=tuple(r.to_round() for r in self.rounds),
            aliases=tuple(self.aliases),
            tags=tuple(self.tags),
            difficulty=self.difficulty,
            source=source,
            language=self.language,
        )


def schema_json() -> str:
    """The JSON Schema shipped as quizzes/quiz.schema.json (editors validate YAML with it)."""
    return json.dumps(QuizFile.model_json_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] != ["--schema"]:
        sys.exit("usage: python -m bot.content.quizfile --schema  (prints the quiz file JSON Schema)")
    sys.stdout.write(schema_json())
