"""What a quiz file's question says beyond one right option: its kind's answer, its media.

The `answer` key means something different for each kind (an index, a list of indices, true or
false, a number or a range): each kind checks its own (bot/kinds/), and its problems are
reported here as the file's validation errors. `bot/content/quizfile.py` holds the rest of the
format.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from pathlib import PurePosixPath
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from bot.domain.model import LANGUAGES, LETTERS, LocalText, MediaKind, QuestionKind
from bot.kinds import KINDS, FileProblem, Kind, kind_of
from bot.kinds import check_keys as kind_keys
from bot.texts.i18n import t

MAX_OPTIONS = len(LETTERS)  # one letter per option
MAX_ACCEPTED, ACCEPTED_MAX = 20, 200  # a typed question's accepted answers, and each one's length
SRC_MAX = 2000
AUDIO_SUFFIXES = frozenset({".mp3", ".ogg", ".oga", ".wav", ".m4a", ".aac", ".flac", ".opus"})
VIDEO_SUFFIXES = frozenset({".mp4", ".webm", ".mov", ".mkv", ".avi", ".m4v"})

# What `answer` holds for each kind, as the messages and the schema say it
ANSWER_SHAPES = {code: kind.answer_shape for code, kind in KINDS.items() if kind.answer_shape}
_WITHOUT_ANSWER = [code.value for code, kind in KINDS.items() if not kind.answer_shape]
T = TypeVar("T")


def _listed(names: list[str]) -> str:
    """ "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _problem(message: str, **values: Any) -> PydanticCustomError:
    return PydanticCustomError("question_kind", message, values)


def _reported(check: Callable[[], T]) -> T:
    """A kind's check, its FileProblem reported as a validation error."""
    try:
        return check()
    except FileProblem as problem:
        raise PydanticCustomError(problem.code, problem.message, problem.values) from None


# the JSON Schema of `answer`, which the per-kind check above enforces
ANSWER_SCHEMA: dict[str, Any] = {
    "description": "; ".join(f"{kind.value}: {shape}" for kind, shape in ANSWER_SHAPES.items())
    + f"; {_listed(_WITHOUT_ANSWER)} questions have none",
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
    _reported(lambda: kind_of(kind).check_answer(answer, option_count))


def check_options(kind: QuestionKind, option_count: int) -> None:
    _reported(lambda: kind_of(kind).check_options(option_count))


def check_keys(kind: QuestionKind, given: Mapping[str, Any]) -> None:
    """The keys only some kinds take (`accept`, `tolerance`, `scoring`): on their kind alone."""
    _reported(lambda: kind_keys(kind_of(kind), given))


def question_fields(kind: Kind, answer: Any, tolerance: float | None) -> dict[str, Any]:
    """The Question's fields a file entry's answer gives, the options the bot supplies among them."""
    fields = _reported(lambda: kind.question_fields(answer, tolerance))
    if kind.fixed_options:
        fields["options"] = tuple(LocalText({lang: t(lang, o) for lang in LANGUAGES}) for o in kind.fixed_options)
    return fields


def kind_field_description() -> str:
    return "; ".join(f"{code.value}: {kind.summary}" for code, kind in KINDS.items())


def options_field_description() -> str:
    listed = _listed([code.value for code, kind in KINDS.items() if kind.writes_options])
    return (
        f"{listed}: 2 to {MAX_OPTIONS} options in authoring order (the bot shuffles them per run unless "
        "shuffle is false); none for the other kinds"
    )
