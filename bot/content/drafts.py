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
from bot.content.quizfile import (
    DESCRIPTION_MAX,
    MAX_QUESTIONS,
    MULTIPLIER_HIGH,
    MULTIPLIER_LOW,
    ROUND_NAME_MAX,
    TITLE_MAX,
)
from bot.domain.model import FALLBACK_LANGUAGE, LETTERS, QUESTION_SECONDS, spoken
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
    quiz_id: str,
    title: str,
    questions: list[dict[str, Any]],
    description: str,
    language: str = "en",
    rounds: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The quiz file data of a draft, keys in the order `quizhost export` writes them. Its
    language is the author's (a right-to-left one is laid out so). With `rounds` (each with
    its questions), those stand for the questions."""
    return {
        "id": quiz_id,
        "difficulty": "medium",  # what an export writes, so the stored file and its export are the same
        "language": spoken(language),  # the author's chat may read plain text ("en-x-plain"): not the quiz's
        "title": title,
        "description": description,
        **({"rounds": rounds} if rounds else {"questions": questions}),
    }


def quiz_bytes(
    quiz_id: str,
    title: str,
    questions: list[dict[str, Any]],
    description: str,
    language: str = "en",
    rounds: list[dict[str, Any]] | None = None,
) -> bytes:
    """The draft as the quiz file its saving uploads (JSON, which YAML reads)."""
    data = quiz_data(quiz_id, title, questions, description, language, rounds)
    return json.dumps(data, ensure_ascii=False).encode()


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
    """The questions so far; every change keeps the question ids q1, q2… unique.

    Rounds (/round) are kept apart from the questions, each as its name, multiplier and the id
    of its first question ("" until a question follows it): a question deleted or moved takes
    no round's place with it, and the saved quiz's rounds are read off the questions' order."""

    title: str
    questions: list[dict[str, Any]] = field(default_factory=list)
    replacing: int = 0  # the number the next poll replaces (/edit N); 0: the next poll is added
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def loads(cls, title: str, content: str, replacing: int = 0) -> Draft:
        stored = json.loads(content)
        if isinstance(stored, list):  # a draft without rounds: its questions alone
            return cls(title, stored, replacing)
        return cls(title, stored["questions"], replacing, stored["rounds"])

    def dumps(self) -> str:
        stored: Any = {"questions": self.questions, "rounds": self.rounds} if self.rounds else self.questions
        return json.dumps(stored, ensure_ascii=False)

    def start_round(self, name: str, multiplier: float, first_name: str) -> int:
        """A round starts at the next question (a round not yet begun is renamed instead); the
        questions written before the first round make a round named `first_name`. Its number."""
        if self.rounds and not self.rounds[-1]["first"]:
            self.rounds.pop()
        if not self.rounds and self.questions:
            self.rounds.append(_round(first_name, 1, self.questions[0]["id"]))
        self.rounds.append(_round(name, multiplier, ""))
        return len(self.rounds)

    def set_hint(self, hint: str) -> int:
        """The last question's hint; its number."""
        self.questions[-1] = {**self.questions[-1], "hint": hint}
        return len(self.questions)

    def saved_rounds(self) -> list[dict[str, Any]]:
        """The rounds as a saved quiz holds them, each with its questions (none: no rounds). A
        question moved before the first round's first joins that round; a round nothing was
        written after is left out."""
        firsts = {r["first"]: r for r in self.rounds if r["first"]}
        order = [firsts[q["id"]] for q in self.questions if q["id"] in firsts]
        if not order:
            return []
        saved: list[dict[str, Any]] = []
        for question, kept in zip(self.questions, self.saved_questions(), strict=True):
            head = order[0] if not saved else firsts.get(question["id"])
            if head is not None and not (saved and head is order[0]):
                saved.append(_saved_round(head))
            saved[-1]["questions"].append(kept)
        return saved

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
        if self.rounds and not self.rounds[-1]["first"]:  # the round just started begins here
            self.rounds[-1]["first"] = self.questions[-1]["id"]
        return len(self.questions)

    def fits(self) -> bool:
        """Whether the draft saved stays within what an uploaded quiz file may be (1 MB), as
        the upload its saving makes will check: a draft must not grow past what /done saves."""
        widest = quiz_bytes(
            _WIDEST_ID, self.title, self.saved_questions(), _WIDEST_DESCRIPTION, "en", self.saved_rounds()
        )
        return len(widest) <= MAX_FILE_BYTES

    def saved_questions(self) -> list[dict[str, Any]]:
        """The questions as a saved quiz holds them: ids q1, q2… without the draft's marks."""
        return [{**q, "id": _NUMBER.sub(r"q\1", str(q.get("id")))} for q in self.questions]

    def replace(self, number: int, question: dict[str, Any]) -> None:
        self.questions[number - 1] = {**question, "id": self.questions[number - 1]["id"]}

    def delete(self, number: int) -> None:
        edited = self._edited()
        gone = self.questions.pop(number - 1)
        self._edit_again(edited)
        for r in self.rounds:  # the round starts at the question that followed its first
            if r["first"] == gone["id"]:
                following = self.questions[number - 1]["id"] if self.has(number) else ""
                taken = any(other["first"] == following for other in self.rounds)
                r["first"] = "" if taken else following
        self.rounds = [r for r in self.rounds if r["first"] or r is self.rounds[-1]]

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


def _round(name: str, multiplier: float, first: str) -> dict[str, Any]:
    return {"name": name, "multiplier": multiplier, "first": first}


def _saved_round(stored: dict[str, Any]) -> dict[str, Any]:
    """A round as the quiz file writes it (the multiplier left out at 1, as an export does)."""
    multiplier = stored["multiplier"]
    return {"name": stored["name"], **({"multiplier": multiplier} if multiplier != 1 else {}), "questions": []}


ROUND_WORDS = re.compile(r"^(?P<name>.*?)\s*(?:[x×*](?P<times>[0-9]+(?:[.,][0-9]+)?))?$", re.IGNORECASE)


def round_of(text: str) -> tuple[str, float] | Refusal:
    """`/round Science x2` as its name and multiplier (1 without one), or why not."""
    found = ROUND_WORDS.match(" ".join(clean(text).split()))
    name, times = (found["name"], found["times"]) if found else ("", None)
    multiplier = float(times.replace(",", ".")) if times else 1.0
    if not name or len(name) > ROUND_NAME_MAX:
        return Refusal(
            later("Write a round as: /round name [x2] (a name of at most {most} characters)", most=ROUND_NAME_MAX)
        )
    if not MULTIPLIER_LOW <= multiplier <= MULTIPLIER_HIGH:
        return Refusal(
            later(
                "A round's points multiplier is {low} to {high}", low=f"{MULTIPLIER_LOW:g}", high=f"{MULTIPLIER_HIGH:g}"
            )
        )
    return name, (int(multiplier) if multiplier.is_integer() else multiplier)
