"""What a quiz file's question says beyond one right option: its kind's answer, its media.

The `answer` key means something different for each kind (an index, a list of indices, true or
false, a number or a range), so it is checked here, against the question's `kind`, with messages
that name the kind. `bot/content/quizfile.py` holds the rest of the format.
"""

from __future__ import annotations

import unicodedata
from pathlib import PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from bot.domain.model import LANGUAGES, LETTERS, NO_ANSWER, LocalText, MediaKind, NumericAnswer, QuestionKind
from bot.texts.i18n import t

KindName = Literal["choice", "multi", "truefalse", "typed", "numeric", "poll"]
MAX_OPTIONS = len(LETTERS)  # one letter per option
MAX_ACCEPTED, ACCEPTED_MAX = 20, 200  # a typed question's accepted answers, and each one's length
SRC_MAX = 2000
AUDIO_SUFFIXES = frozenset({".mp3", ".ogg", ".oga", ".wav", ".m4a", ".aac", ".flac", ".opus"})
VIDEO_SUFFIXES = frozenset({".mp4", ".webm", ".mov", ".mkv", ".avi", ".m4v"})

# What `answer` holds for each kind, as the messages and the schema say it
ANSWER_SHAPES = {
    QuestionKind.CHOICE: "the 0-based index of the right option",
    QuestionKind.MULTI: "a list of the right options' 0-based indices",
    QuestionKind.TRUE_FALSE: "true or false",
    QuestionKind.NUMERIC: "a number (with an optional tolerance) or a range {min: …, max: …}",
}


def _problem(message: str, **values: Any) -> PydanticCustomError:
    return PydanticCustomError("question_kind", message, values)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def numeric_range(answer: Any) -> tuple[float, float] | None:
    """A numerical answer given as a range {min: …, max: …}; None when it is not one."""
    if not isinstance(answer, dict) or set(answer) != {"min", "max"}:
        return None
    low, high = answer["min"], answer["max"]
    if not (_number(low) and _number(high)):
        raise _problem("a range's min and max are numbers, not {value}", value=repr(answer))
    if low > high:
        raise _problem("the range's min {low} is above its max {high}", low=low, high=high)
    return float(low), float(high)


# the JSON Schema of `answer`, which the per-kind check above enforces
ANSWER_SCHEMA: dict[str, Any] = {
    "description": "; ".join(f"{kind.value}: {shape}" for kind, shape in ANSWER_SHAPES.items())
    + "; typed and poll questions have none",
    "anyOf": [
        {"type": "integer", "minimum": 0, "maximum": MAX_OPTIONS - 1},
        {"type": "boolean"},
        {"type": "number"},
        {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": MAX_OPTIONS - 1}, "minItems": 1},
        {
            "type": "object",
            "properties": {"min": {"type": "number"}, "max": {"type": "number"}},
            "required": ["min", "max"],
            "additionalProperties": False,
        },
    ],
}


class MediaModel(BaseModel):
    """A picture, sound or video: a file beside the quiz, or an http(s) URL."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Media")
    src: str = Field(min_length=1, max_length=SRC_MAX, description="A path beside the quiz file, or an http(s) URL")
    kind: Literal["image", "audio", "video"] | None = Field(
        None, description="image, audio or video; without it the file's extension decides (else image)"
    )
    alt: str | None = Field(None, max_length=300, description="What the picture shows, for the terminal and readers")

    @model_validator(mode="before")
    @classmethod
    def _plain_string_is_src(cls, value: Any) -> Any:
        return {"src": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _safe_src(self) -> MediaModel:
        src = self.src.strip()
        if (control := _control_character(src)) is not None:
            # no file name or URL holds one; a NUL would fail every open of the path, and the
            # question with it would never be posted
            raise _problem(
                "media {src} holds the control character {code}: a file name or URL has none",
                src=repr(src[:80]),
                code=f"U+{ord(control):04X}",
            )
        if src.startswith(("https://", "http://")):
            return self
        if "://" in src or src.startswith("data:"):
            raise _problem("media must be a file beside the quiz or an http(s) URL, not {src}", src=repr(src[:80]))
        path = PurePosixPath(src)
        if "\\" in src or path.is_absolute() or ".." in path.parts:
            raise _problem("media file {src} must be a relative path inside the quiz's folder", src=repr(src[:80]))
        return self

    def media_kind(self) -> MediaKind:
        if self.kind:
            return MediaKind(self.kind)
        suffix = PurePosixPath(self.src.split("?", 1)[0]).suffix.casefold()
        if suffix in AUDIO_SUFFIXES:
            return MediaKind.AUDIO
        return MediaKind.VIDEO if suffix in VIDEO_SUFFIXES else MediaKind.IMAGE


def _control_character(text: str) -> str | None:
    """The first control character (Unicode's Cc: C0, DEL, C1) in `text`; None when it has none."""
    return next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)


def check_answer(kind: QuestionKind, answer: Any, option_count: int) -> None:
    """Raise a message naming the kind when `answer` does not fit it."""
    if kind in (QuestionKind.TYPED, QuestionKind.POLL):
        if answer is not None:
            raise _problem("a {kind} question has no 'answer' key", kind=kind.value)
        return
    if answer is None:
        raise _problem(
            "'answer' is missing: a {kind} question needs {shape}", kind=kind.value, shape=ANSWER_SHAPES[kind]
        )
    if kind is QuestionKind.TRUE_FALSE and not isinstance(answer, bool):
        raise _problem("a truefalse question's answer is true or false, not {value}", value=repr(answer))
    if kind is QuestionKind.CHOICE:
        _check_index(answer, option_count)
    if kind is QuestionKind.MULTI:
        _check_indices(answer, option_count)
    if kind is QuestionKind.NUMERIC and not (_number(answer) or numeric_range(answer)):
        raise _problem(
            "a numeric question's answer is {shape}, not {value}", shape=ANSWER_SHAPES[kind], value=repr(answer)
        )


def _check_index(answer: Any, option_count: int) -> None:
    if isinstance(answer, bool):
        raise _problem("expected a whole number (an option's index), but YAML reads this unquoted value as a boolean")
    if isinstance(answer, str) and answer.strip().isdigit():
        raise _problem("expected a whole number, found the string {value}: remove the quotes", value=repr(answer))
    if not isinstance(answer, int):
        raise _problem(
            "a choice question's answer is {shape}, not {value}",
            shape=ANSWER_SHAPES[QuestionKind.CHOICE],
            value=repr(answer),
        )
    if not 0 <= answer < option_count:
        raise PydanticCustomError(
            "answer_range",
            "answer {answer} is out of range: {n} options, so 0 to {last} (0-based)",
            {"answer": answer, "n": option_count, "last": option_count - 1},
        )


def _check_indices(answer: Any, option_count: int) -> None:
    if not isinstance(answer, list) or not answer:
        raise _problem(
            "a multi question's answer is {shape}, not {value}",
            shape=ANSWER_SHAPES[QuestionKind.MULTI],
            value=repr(answer),
        )
    for index in answer:
        _check_index(index, option_count)
    if len(set(answer)) != len(answer):
        raise _problem("the answer {value} names an option twice", value=repr(answer))


def check_options(kind: QuestionKind, option_count: int) -> None:
    if kind.has_options and kind is not QuestionKind.TRUE_FALSE and option_count < 2:
        raise _problem("{n} given: at least 2 needed for a {kind} question", kind=kind.value, n=option_count)
    if not kind.has_options and option_count:
        raise _problem("a {kind} question has no options", kind=kind.value)
    if kind is QuestionKind.TRUE_FALSE and option_count:
        raise _problem("a truefalse question has no options: the bot shows True and False in the chat's language")


def numeric_answer(answer: Any, tolerance: float | None) -> NumericAnswer:
    given = numeric_range(answer)
    if given:
        return NumericAnswer(*given)
    spread = tolerance or 0.0
    return NumericAnswer(answer - spread, answer + spread, float(answer))


def true_false_options() -> tuple[LocalText, LocalText]:
    """True and False in every language the bot speaks."""
    return (
        LocalText({lang: t(lang, "True") for lang in LANGUAGES}),
        LocalText({lang: t(lang, "False") for lang in LANGUAGES}),
    )


def answer_index(kind: QuestionKind, answer: Any) -> int:
    """Question.answer: the right option of a choice or true/false question."""
    if kind is QuestionKind.TRUE_FALSE:
        return 0 if answer else 1
    return int(answer) if kind is QuestionKind.CHOICE else NO_ANSWER
