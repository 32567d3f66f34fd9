"""Button data: what a pressed button carries back. The one place that spells its format.

Telegram allows 64 bytes of callback data and Discord 100 characters of custom_id, so the
data is short: a kind (answer, quiz pick, language pick, review answer, go private, a
question's "Done" or "Answer", a draft's "Undo" or form, a suggestion's decision), a colon,
then its fields. Adapters and commands build and read it only through the functions here, fast paths included.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from enum import Enum

from bot.domain.model import LANGUAGES, QUIZ_ID

MAX_BYTES = 64  # Telegram's callback_data limit, the smaller of the platforms'


class Kind(str, Enum):
    """What a button does; the value is its data's prefix."""

    ANSWER = "qa"
    QUIZ = "qp"  # start this quiz
    LANGUAGE = "ql"  # set the chat's language (admins, as /language)
    REVIEW = "rv"  # an answer to a review card (bot/engine/review.py)
    PRIVATE = "pv"  # go on in the private chat with the bot (Discord: a DM), as /start <payload>
    DONE = "qd"  # a select-all-that-apply question in a private chat: the picks are final
    TEXT = "qt"  # a typed or numeric question: answer it (a deep link, a modal, a prompt)
    UNDO = "du"  # take a question back out of the author's draft (bot/commands/authoring.py)
    FORM = "df"  # a question's form: add one to the draft, edit one, or suggest one (Discord: a modal)
    SUGGESTION = "sg"  # approve or reject a member's suggested question (admins: bot/commands/suggestions.py)
    TEAM = "tj"  # join a team of the chat's line-up (bot/commands/teams.py)
    HOST = "hp"  # a host panel's button: an action on a hosted run, signed (bot/commands/hosting.py)

    @property
    def prefix(self) -> str:
        return f"{self.value}:"


_ANSWER = r"qa:(?:[1-9][0-9]{0,11}):(?:[0-9]{1,3}):(?:[0-9])"
_QUIZ = rf"qp:{QUIZ_ID}"
_LANGUAGE = r"ql:(?:" + "|".join(LANGUAGES) + ")"
_REVIEW = r"rv:(?:[1-9][0-9]{0,9}):(?:[0-9]{1,3}):(?:[0-9d])"
_PRIVATE = r"pv:[a-z0-9_]{1,32}"  # a /start payload: review, assign_12
_QUESTION = r"q[dt]:(?:[1-9][0-9]{0,11}):(?:[1-9][0-9]{0,2})"
_DRAFT_QUESTION = r"q[0-9]{1,4}(?:-[a-z0-9]{6})?"  # a draft's question id (bot/content/drafts.py)
_UNDO = rf"du:{_DRAFT_QUESTION}"
_SUGGESTION = r"sg:([ar]):([1-9][0-9]{0,5})"
_FORM = rf"df:(add|suggest|{_DRAFT_QUESTION})"
_TEAM = r"tj:([1-9][0-9]{0,11}):([1-9])"  # a line-up's id, a team's number
_HOST = r"hp:([1-9][0-9]{0,18}):(next|pause|resume|skip|hint|end):([0-9a-f]{16})"
PATTERN = (
    f"(?:{_ANSWER}|{_QUIZ}|{_LANGUAGE}|{_REVIEW}|{_PRIVATE}|{_QUESTION}|{_UNDO}|{_SUGGESTION}|{_FORM}|{_TEAM}|{_HOST})"
)
FORM_ADD, FORM_SUGGEST = "df:add", "df:suggest"  # a new question for the draft; one suggested to the group
"""A regular expression (source text) for any button data, for adapters to embed in theirs."""

_ANSWER_FIELDS = re.compile(r"qa:([1-9][0-9]{0,11}):([0-9]{1,3}):([0-9])")
_REVIEW_FIELDS = re.compile(r"rv:([1-9][0-9]{0,9}):([0-9]{1,3}):([0-9d])")
REVIEW_DONE = -1  # ReviewToken.choice of a select-all-that-apply card's "Done" (its data ends in ":d")
_QUESTION_FIELDS = re.compile(r"(q[dt]):([1-9][0-9]{0,11}):([1-9][0-9]{0,2})")
_ANY = re.compile(PATTERN)


@dataclass(frozen=True)
class AnswerToken:
    run_id: int
    number: int  # 1-based question number in the run
    choice: int  # displayed option position, 0 = A

    def encode(self) -> str:
        return f"{Kind.ANSWER.prefix}{self.run_id}:{self.number}:{self.choice}"


@dataclass(frozen=True)
class QuestionToken:
    """A button about a whole question, not one option: "Done" (multi) or "Answer" (typed, numeric)."""

    kind: Kind  # Kind.DONE or Kind.TEXT
    run_id: int
    number: int  # 1-based question number in the run

    def encode(self) -> str:
        return f"{self.kind.prefix}{self.run_id}:{self.number}"


def decode_question(data: object) -> QuestionToken | None:
    """The "Done" or "Answer" token in `data`, or None for anything else."""
    if not isinstance(data, str) or len(data) > MAX_BYTES:
        return None
    match = _QUESTION_FIELDS.fullmatch(data)
    if not match:
        return None
    return QuestionToken(Kind(match.group(1)), int(match.group(2)), int(match.group(3)))


ANSWER_START = "answer_"  # `/start answer_<run>_<n>_<proof>`: Telegram deep links allow [A-Za-z0-9_-] only
_ANSWER_START = re.compile(r"answer_([1-9][0-9]{0,11})_([1-9][0-9]{0,2})(?:_([0-9a-z]{0,40}))?")
PROOF_CHARS = 20  # hex digits of the HMAC kept: 80 bits, and the payload stays within Telegram's 64


class StartRefusal(str, Enum):
    """Why an "Answer" deep link's payload is not taken (nothing is stored for it)."""

    UNSIGNED = "unsigned"  # `answer_<run>_<n>`, as links were before they carried a proof
    ALTERED = "altered"  # its proof is not ours: changed, cut, guessed or made elsewhere


def answer_start(token: QuestionToken, key: bytes) -> str:
    """The /start payload that sends a player to answer a typed or numeric question in private,
    with its proof: anyone can open t.me/<bot>?start=<anything>, and run ids count from 1."""
    return f"{ANSWER_START}{token.run_id}_{token.number}_{_proof(key, token)}"


def decode_answer_start(payload: str, key: bytes) -> QuestionToken | StartRefusal | None:
    """The question an "Answer" payload proves, why it proves nothing, or None for any other payload."""
    match = _ANSWER_START.fullmatch(payload)
    if match is None:
        return None
    token = QuestionToken(Kind.TEXT, int(match.group(1)), int(match.group(2)))
    if match.group(3) is None:
        return StartRefusal.UNSIGNED
    return token if hmac.compare_digest(match.group(3), _proof(key, token)) else StartRefusal.ALTERED


def _proof(key: bytes, token: QuestionToken) -> str:
    message = f"{ANSWER_START}{token.run_id}:{token.number}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:PROOF_CHARS]


@dataclass(frozen=True)
class Pick:
    """A quiz or language chosen with a button: the argument its command would take."""

    kind: Kind
    value: str


def quiz_pick(quiz_id: str) -> str:
    return _checked(Kind.QUIZ.prefix + quiz_id)


def language_pick(code: str) -> str:
    return _checked(Kind.LANGUAGE.prefix + code)


def draft_undo(question_id: str) -> str:
    """The "Undo" button under a question just added to a draft."""
    return _checked(Kind.UNDO.prefix + question_id)


def undone(data: str) -> str | None:
    """The question id an "Undo" button names; None for any other data."""
    return data.removeprefix(Kind.UNDO.prefix) if re.fullmatch(_UNDO, data) else None


def form_edit(question_id: str) -> str:
    """The "Edit" button of a draft's question."""
    return _checked(Kind.FORM.prefix + question_id)


def form_target(data: str) -> str | None:
    """What a form button is for: "add", "suggest", or the id of the question it edits; None for other data."""
    match = re.fullmatch(_FORM, data)
    return match.group(1) if match else None


def suggestion_pick(approve: bool, number: int) -> str:
    """An "Approve" or "Reject" button under the group's list of suggestions."""
    return _checked(f"{Kind.SUGGESTION.prefix}{'a' if approve else 'r'}:{number}")


def suggestion_decision(data: str) -> tuple[bool, int] | None:
    """(approve?, the suggestion's number) of such a button; None for any other data."""
    match = re.fullmatch(_SUGGESTION, data)
    return (match.group(1) == "a", int(match.group(2))) if match else None


def team_join(lineup_id: int, team: int) -> str:
    """A team's join button under a line-up message."""
    return _checked(f"{Kind.TEAM.prefix}{lineup_id}:{team}")


def team_joined(data: str) -> tuple[int, int] | None:
    """(the line-up's id, the team's number) of a join button; None for any other data."""
    match = re.fullmatch(_TEAM, data)
    return (int(match.group(1)), int(match.group(2))) if match else None


def decode(data: str | bytes | None) -> AnswerToken | None:
    """The answer token in `data`, or None for anything that is not exactly one of ours."""
    if isinstance(data, bytes):
        try:
            data = data.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(data, str) or len(data) > MAX_BYTES:
        return None
    match = _ANSWER_FIELDS.fullmatch(data)
    if not match:
        return None
    run_id, number, choice = (int(g) for g in match.groups())
    return AnswerToken(run_id, number, choice)


def pick(data: object) -> Pick | None:
    """The quiz or language pick in `data`, or None (an answer or anything else)."""
    if not isinstance(data, str) or not is_valid(data):
        return None
    for kind in (Kind.QUIZ, Kind.LANGUAGE):
        if data.startswith(kind.prefix):
            return Pick(kind, data[len(kind.prefix) :])
    return None


_BY_PREFIX = {kind.prefix: kind for kind in Kind}
_PREFIX_CHARS = 3  # every prefix is two letters and a colon


def kind_of(data: str) -> Kind | None:
    """The kind a press claims by its prefix alone: cheap, for adapters' fast paths (who may
    press it) and every press's dispatch; the data is still checked in full where it is handled."""
    return _BY_PREFIX.get(data[:_PREFIX_CHARS])


def needs_admin(data: str) -> bool:
    """A language pick is a /language, a suggestion's Approve or Reject a decision: in a group
    only admins may press them."""
    return kind_of(data) in (Kind.LANGUAGE, Kind.SUGGESTION)


def is_valid(data: str) -> bool:
    return len(data) <= MAX_BYTES and _ANY.fullmatch(data) is not None


def _checked(data: str) -> str:
    if not is_valid(data):
        raise ValueError(f"not valid button data: {data[:40]!r}")
    return data


@dataclass(frozen=True)
class ReviewToken:
    """A press in a review: the session (a random number), the card's number in it, the option."""

    session: int
    number: int
    choice: int

    def encode(self) -> str:
        choice = "d" if self.choice == REVIEW_DONE else self.choice
        return f"{Kind.REVIEW.prefix}{self.session}:{self.number}:{choice}"


def decode_review(data: str | None) -> ReviewToken | None:
    if not isinstance(data, str) or len(data) > MAX_BYTES:
        return None
    match = _REVIEW_FIELDS.fullmatch(data)
    if not match:
        return None
    session, number, choice = match.groups()
    return ReviewToken(int(session), int(number), REVIEW_DONE if choice == "d" else int(choice))


def with_choice(token: str, choice: int) -> str:
    """The same button data for another option (every token ends in ':<choice>')."""
    return f"{token.rpartition(':')[0]}:{choice}"


def in_private(payload: str) -> str:
    """A button that goes on in the private chat with the bot, as `/start <payload>` there."""
    return _checked(Kind.PRIVATE.prefix + payload)


# a host panel's buttons (bot/commands/hosting.py) ------------------------------------------

HOST_PROOF_CHARS = 16  # hex digits of the HMAC: 64 bits; the data stays well within Telegram's 64 bytes
_HOST_FIELDS = re.compile(_HOST)


@dataclass(frozen=True)
class HostToken:
    """A host panel's button: `action` (a HostAction's value) on run `run_id`, signed, so that
    data nobody was given (another run's, another action's, a guess) is refused before anything
    is looked up."""

    run_id: int
    action: str

    def encode(self, key: bytes) -> str:
        return f"{Kind.HOST.prefix}{self.run_id}:{self.action}:{_host_proof(key, self)}"


def decode_host(data: object, key: bytes) -> HostToken | None:
    """The panel button `data` proves, or None (not one, or not signed with `key`)."""
    if not isinstance(data, str) or len(data) > MAX_BYTES:
        return None
    match = _HOST_FIELDS.fullmatch(data)
    if match is None:
        return None
    token = HostToken(int(match.group(1)), match.group(2))
    return token if hmac.compare_digest(match.group(3), _host_proof(key, token)) else None


def _host_proof(key: bytes, token: HostToken) -> str:
    message = f"{Kind.HOST.prefix}{token.run_id}:{token.action}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:HOST_PROOF_CHARS]
