"""A quiz written in the chat, one question at a time (issue #23).

A draft holds its questions as quiz file data (the dicts a YAML file gives), so a quiz made in
the chat is stored, checked and exported exactly as an uploaded file is: every kind the format
knows round-trips. Each question is checked on its own, by the format's own rules, before it
joins the draft; a refused one changes nothing.

Questions come from a Telegram poll (`PollSpec`), a form (`QuestionForm`: Discord's modal), or
one line in the fixed layout (`from_line`), which the terminal and `/edit N` use:

    prompt | option | *right option | option > explanation

A `*` marks each right option (one: a choice question, several: a multi one, none: a poll).
"""

from __future__ import annotations

import json
import re
import secrets
import string
from dataclasses import dataclass, field
from typing import Any

from bot.content.importers.common import MAX_FILE_BYTES
from bot.content.quiz_check import check_quiz_data
from bot.content.quizfile import DESCRIPTION_MAX, MAX_QUESTIONS, TITLE_MAX
from bot.domain.model import FALLBACK_LANGUAGE, LETTERS, QUESTION_SECONDS
from bot.kinds import DEFAULT, by_right_options
from bot.texts.i18n import Later, later
from bot.texts.textcut import clean

__all__ = [
    "MAX_QUESTIONS",
    "TITLE_MAX",
    "Draft",
    "PollSpec",
    "QuestionForm",
    "Refusal",
    "form_of",
    "from_form",
    "from_line",
    "from_poll",
    "quiz_bytes",
    "quiz_data",
    "slug",
    "title_of",
]

RIGHT_MARK, EXPLAIN_MARK, SEPARATOR = "*", ">", "|"
_NUMBER = re.compile(r"^q([0-9]{1,4})(?:-[a-z0-9]+)?$")
_MARK_LETTERS, MARK_LENGTH = string.ascii_lowercase + string.digits, 6


@dataclass(frozen=True)
class PollSpec:
    """A poll as the platform gave it: a quiz poll's right options, none for a regular poll."""

    question: str
    options: tuple[str, ...]
    right: tuple[int, ...] = ()
    explanation: str = ""
    is_quiz: bool = True


@dataclass(frozen=True)
class Refusal:
    """Why a question or a change was refused: a message for the author."""

    why: Later


def from_poll(poll: PollSpec) -> dict[str, Any] | Refusal:
    """The question a poll makes, or why it makes none."""
    if poll.is_quiz and not poll.right:
        return Refusal(
            later(
                "Telegram hides this quiz poll's right answer from me: make it again with the poll button in our chat"
            )
        )
    return _question(poll.question, list(poll.options), list(poll.right), poll.explanation)


def from_line(text: str) -> dict[str, Any] | Refusal:
    """The question one line in the fixed layout makes, or why it makes none."""
    body, _, explanation = text.partition(EXPLAIN_MARK)
    parts = [p.strip() for p in body.split(SEPARATOR)]
    if len(parts) < 3 or not all(parts):
        return Refusal(later("Write a question as: prompt | option | *right option | option > explanation"))
    options, right = [], []
    for i, option in enumerate(parts[1:]):
        if option.startswith(RIGHT_MARK):
            right.append(i)
        options.append(option.removeprefix(RIGHT_MARK).strip())
    return _question(parts[0], options, right, explanation.strip())


@dataclass(frozen=True)
class QuestionForm:
    """A question as a form gives it (Discord's modal): texts as typed."""

    prompt: str
    options: str  # one per line
    right: str = ""  # the right options' numbers or letters: "2", "1, 3", "B" (empty: a poll)
    explanation: str = ""
    seconds: str = ""  # empty: the chat's time


def from_form(form: QuestionForm) -> dict[str, Any] | Refusal:
    """The question a form makes, or why it makes none."""
    options = [line.strip() for line in form.options.splitlines() if line.strip()]
    right = []
    for word in re.split(r"[\s,;]+", form.right.strip().upper()):
        if word.isdecimal() and 1 <= int(word) <= len(options):
            right.append(int(word) - 1)
        elif len(word) == 1 and word in LETTERS[: len(options)]:
            right.append(LETTERS.index(word))
        elif word:
            return Refusal(
                later("Which is right: the numbers of the right options, from 1 to {most}", most=len(options))
            )
    question = _question(form.prompt.strip(), options, sorted(set(right)), form.explanation.strip())
    seconds = form.seconds.strip()
    if seconds:
        if not seconds.isdecimal() or int(seconds) not in QUESTION_SECONDS:
            low, high = QUESTION_SECONDS.low, QUESTION_SECONDS.high
            return Refusal(later("Seconds: a whole number from {low} to {high}", low=low, high=high))
        question["seconds"] = int(seconds)
    return question


def form_of(question: dict[str, Any]) -> QuestionForm:
    """The form that makes this question again (to edit it)."""
    answer = question.get("answer")
    right = answer if isinstance(answer, list) else [] if answer is None else [answer]
    return QuestionForm(
        prompt=str(question.get("prompt", "")),
        options="\n".join(str(o) for o in question.get("options", [])),
        right=", ".join(str(i + 1) for i in right),
        explanation=str(question.get("explanation") or ""),
        seconds=str(question.get("seconds", "")),
    )


def _question(prompt: str, options: list[str], right: list[int], explanation: str) -> dict[str, Any]:
    # a member wrote it, as they write names and answers (textcut.clean): a directional override
    # would flip the rest of every line that shows it (the admins' listing, the group's question)
    prompt, options, explanation = clean(prompt), [clean(o) for o in options], clean(explanation)
    kind = by_right_options(len(right))
    data: dict[str, Any] = {"id": "q1"} | ({"kind": kind.code.value} if kind is not DEFAULT else {})
    data.update(prompt=prompt, options=options)
    if right:
        data["answer"] = right if len(right) > 1 else right[0]
    data["explanation"] = explanation or None
    return data


def problems(title: str, questions: list[dict[str, Any]]) -> list[str]:
    """What the quiz format finds wrong with these questions under this title (none: fine)."""
    _, issues = check_quiz_data(quiz_data("draft", title, questions, "-"))
    return [f"{_place(issue.loc[2:])}: {issue.message}" for issue in issues]


def _place(loc: tuple[Any, ...]) -> str:
    """("options", 0, "en") -> "options 1": the field as the author sees it (the format's words,
    options counted from 1, without the language slot a chat question fills alone)."""
    words = [str(p + 1) if isinstance(p, int) else str(p) for p in loc if p != FALLBACK_LANGUAGE]
    return " ".join(words) or "question"


def quiz_data(
    quiz_id: str, title: str, questions: list[dict[str, Any]], description: str, language: str = "en"
) -> dict[str, Any]:
    """The quiz file data of a draft, keys in the order `quizhost export` writes them. Its
    language is the author's (a right-to-left one is laid out so)."""
    return {
        "id": quiz_id,
        "difficulty": "medium",  # what an export writes, so the stored file and its export are the same
        "language": language,
        "title": title,
        "description": description,
        "questions": questions,
    }


def quiz_bytes(
    quiz_id: str, title: str, questions: list[dict[str, Any]], description: str, language: str = "en"
) -> bytes:
    """The draft as the quiz file its saving uploads (JSON, which YAML reads)."""
    return json.dumps(quiz_data(quiz_id, title, questions, description, language), ensure_ascii=False).encode()


# the longest id and description a draft's saving may give it (four bytes a character at most)
_WIDEST_ID, _WIDEST_DESCRIPTION = "-" * 40, "\U0010ffff" * DESCRIPTION_MAX


def title_of(text: str) -> str:
    """A draft's title as written after /newquiz: one line, cleaned as names are (textcut.clean:
    an override would flip the rest of every line naming the quiz, a NUL fail its write on
    PostgreSQL), at most TITLE_MAX characters."""
    return " ".join(clean(text).split())[:TITLE_MAX]


def slug(title: str) -> str:
    """A quiz id from its title: lower-case letters, digits and dashes, at most 30 characters."""
    words = re.findall(r"[a-z0-9]+", title.casefold())
    return "-".join(words)[:30].strip("-") or "quiz"


@dataclass
class Draft:
    """The questions so far; every change keeps the question ids q1, q2… unique."""

    title: str
    questions: list[dict[str, Any]] = field(default_factory=list)
    replacing: int = 0  # the number the next poll replaces (/edit N); 0: the next poll is added

    @classmethod
    def loads(cls, title: str, content: str, replacing: int = 0) -> Draft:
        return cls(title, json.loads(content), replacing)

    def dumps(self) -> str:
        return json.dumps(self.questions, ensure_ascii=False)

    def has(self, number: int) -> bool:
        return 1 <= number <= len(self.questions)

    def number(self, word: str) -> int | None:
        """`word` as the number of one of the questions ("3", "003"); None for anything else
        (a digit string too long to be one is not read: Python refuses past 4,300 digits)."""
        digits = word.lstrip("0")
        if not word.isdecimal() or len(digits) > len(str(MAX_QUESTIONS)):
            return None
        number = int(digits or "0")
        return number if self.has(number) else None

    def add(self, question: dict[str, Any]) -> int:
        """Add the question at the end; its number. Its id (q4-k2x9ab) is new for good: an
        "Undo" or "Edit" button of a question taken back, or of an earlier draft, names none
        of this draft's questions (q4 alone would be the next question's again)."""
        mark = "".join(secrets.choice(_MARK_LETTERS) for _ in range(MARK_LENGTH))
        self.questions.append({**question, "id": f"q{self._next_id()}-{mark}"})
        return len(self.questions)

    def fits(self) -> bool:
        """Whether the draft saved stays within what an uploaded quiz file may be (1 MB), as
        the upload its saving makes will check: a draft must not grow past what /done saves."""
        widest = quiz_bytes(_WIDEST_ID, self.title, self.saved_questions(), _WIDEST_DESCRIPTION)
        return len(widest) <= MAX_FILE_BYTES

    def saved_questions(self) -> list[dict[str, Any]]:
        """The questions as a saved quiz holds them: ids q1, q2… without the draft's marks."""
        return [{**q, "id": _NUMBER.sub(r"q\1", str(q.get("id")))} for q in self.questions]

    def replace(self, number: int, question: dict[str, Any]) -> None:
        self.questions[number - 1] = {**question, "id": self.questions[number - 1]["id"]}

    def delete(self, number: int) -> None:
        edited = self._edited()
        del self.questions[number - 1]
        self._edit_again(edited)

    def move(self, number: int, to: int) -> None:
        edited = self._edited()
        self.questions.insert(to - 1, self.questions.pop(number - 1))
        self._edit_again(edited)

    def _edited(self) -> str | None:
        """The id of the question the next poll replaces (/edit N), if any."""
        return str(self.questions[self.replacing - 1].get("id")) if self.has(self.replacing) else None

    def _edit_again(self, edited: str | None) -> None:
        """After a delete or a move, the next poll still replaces the question /edit named, at its
        new number (none if it was the one deleted): not the one that took its old number."""
        self.replacing = (self.number_of(edited) or 0) if edited else 0

    def number_of(self, question_id: str) -> int | None:
        return next((i + 1 for i, q in enumerate(self.questions) if q.get("id") == question_id), None)

    def _next_id(self) -> int:
        taken = [int(m.group(1)) for q in self.questions if (m := _NUMBER.match(str(q.get("id"))))]
        return max(taken, default=0) + 1
