"""What every importer shares: drafts of questions, skipped questions, limits, stable ids.

An importer turns a file's bytes into `Parsed` (drafts plus what it skipped and where); the
package's `import_quiz` turns that into quizhost quiz data. Nothing here touches the disk.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.domain.model import DEFAULT_KIND, KindName, QuestionKind
from bot.texts.i18n import Later, later

MAX_FILE_BYTES = 1_000_000  # 1 MB: far above any real quiz, far below what hurts a bot
MAX_QUESTIONS = 500


@dataclass(frozen=True)
class Medium:
    """A picture or a sound a source file points at: an http(s) URL (a file beside the source is
    not part of what is imported)."""

    src: str
    kind: Literal["image", "audio", "video"] | None = None  # None: the URL's extension decides
    alt: str = ""

    def data(self) -> str | dict[str, str]:
        """As the quiz file writes it: the URL alone, or with its kind and alt text."""
        extra = {k: v for k, v in (("kind", self.kind), ("alt", self.alt[:300])) if v}
        return {"src": self.src, **extra} if extra else self.src


@dataclass(frozen=True)
class Draft:
    """One question as a source file gives it, before it gets an id and is validated.

    `answer` is what the quiz file's `answer` key holds for the kind: an option's index (choice),
    a list of indices (multi), true or false, a number or {min, max} (numeric), None (typed, poll).
    """

    where: str  # "line 12", "row 9", "results[3]": the place named in every message about it
    prompt: str
    options: tuple[str, ...]
    answer: Any  # see above
    explanation: str = ""
    seconds: int | None = None
    kind: KindName | QuestionKind = DEFAULT_KIND
    accept: tuple[str, ...] = ()  # typed: the accepted answers
    tolerance: float | None = None  # numeric
    partial: bool = False  # multi: partial credit
    media: Medium | None = None
    explanation_media: Medium | None = None


@dataclass(frozen=True)
class Problem:
    """Something wrong at a place in a file, said in the reader's language when shown."""

    where: str  # the place as the file's own tools name it ("line 12", "row 9"): never translated
    why: Later | str  # translated where it is shown (bot.texts.i18n.shown); str: a library's own English

    @property
    def reason(self) -> str:
        """In English, as the command line prints it."""
        return str(self.why)

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


class Skipped(Problem):
    """A question left out of the import, and why."""


class Passed(Skipped):
    """Something in the file that is not a question (a description, a reading text), left out."""


class Note(Problem):
    """Something of an imported question that did not come through (a picture in the source's own
    storage, a partial-credit answer): the question is kept, the report says what is missing."""


@dataclass(frozen=True)
class Parsed:
    """What an importer found in a file: questions to keep, questions skipped, quiz-level facts."""

    drafts: tuple[Draft, ...]
    skipped: tuple[Skipped, ...] = ()
    tags: tuple[str, ...] = ()
    title: str = ""
    notes: tuple[Note, ...] = ()


@dataclass
class Collector:
    """Gathers drafts and skips while an importer walks a file."""

    drafts: list[Draft] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    def keep(self, draft: Draft) -> None:
        self.drafts.append(draft)
        if len(self.drafts) > MAX_QUESTIONS:
            raise Malformed(draft.where, later("more than {n} questions: split the file", n=MAX_QUESTIONS))

    def skip(self, where: str, reason: Later | str) -> None:
        self.skipped.append(Skipped(where, reason))

    def pass_over(self, where: str, reason: Later | str) -> None:
        self.skipped.append(Passed(where, reason))

    def note(self, where: str, reason: Later | str) -> None:
        self.notes.append(Note(where, reason))

    def tag(self, name: str) -> None:
        name = " ".join(name.split())[:60]
        if name and name.casefold() not in {t.casefold() for t in self.tags}:
            self.tags.append(name)

    def parsed(self, title: str = "") -> Parsed:
        return Parsed(tuple(self.drafts), tuple(self.skipped), tuple(self.tags), title, tuple(self.notes))


class Malformed(Exception):
    """The file as a whole cannot be read as its format; `where` names the place."""

    def __init__(self, where: str, message: Later | str) -> None:
        super().__init__(f"{where}: {message}" if where else str(message))
        self.where = where
        self.message = message

    @property
    def problem(self) -> Problem:
        return Problem(self.where, self.message)


BINARY = later("this is a binary file, not a text quiz")


def decode_text(data: bytes) -> str:
    """Text files: UTF-8 with or without a BOM, any line ending; binary files refused."""
    if b"\x00" in data[:8192]:
        raise Malformed("file", BINARY)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise Malformed(f"line {line}", later("not UTF-8 text: save the file as UTF-8")) from None
    if any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in text[:8192]):
        raise Malformed("file", BINARY)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def question_id(prompt: str, options: tuple[str, ...]) -> str:
    """Stable id from the text: a readable slug plus a short hash, so a re-import keeps it."""
    folded = unicodedata.normalize("NFKC", " ".join(prompt.split())).casefold()
    digest = hashlib.sha256("\x1f".join((folded, *sorted(o.casefold() for o in options))).encode()).hexdigest()
    ascii_words = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode()
    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_words))[:28].strip("-")
    return f"{slug}-{digest[:8]}" if slug else f"q-{digest[:10]}"


def slug_id(name: str) -> str:
    """A quiz id from a file name or title: 1 to 40 of a-z, 0-9 and '-'."""
    ascii_name = unicodedata.normalize("NFKD", name.casefold()).encode("ascii", "ignore").decode()
    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_name))[:40].strip("-")
    return slug or "imported-quiz"
