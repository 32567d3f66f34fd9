"""Values shared by the engine, the renderer and the adapters. No chat library here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import Literal, Protocol, TypeAlias

from bot.domain.records import RunStatus
from bot.domain.teams import TeamStanding
from bot.domain.worth import Record, Worth, scored_worth


@dataclass(frozen=True)
class Language:
    code: str
    native_name: str  # what a /language button shows
    english_name: str  # what the quiz file schema says
    rtl: bool = False


# Every language the bot speaks: catalogs, quiz texts, /language, QUIZHOST_LANGUAGE, --lang.
SPOKEN = (
    Language("en", "English", "English"),
    Language("hi", "हिन्दी", "Hindi"),
    Language("sn", "chiShona", "Shona"),
    Language("ur", "اردو", "Urdu", rtl=True),
)
LANGUAGES: tuple[str, ...] = tuple(lang.code for lang in SPOKEN)
LANGUAGE_NAMES = {lang.code: lang.native_name for lang in SPOKEN}
FALLBACK_LANGUAGE = "en"
RTL_LANGUAGES = frozenset(lang.code for lang in SPOKEN if lang.rtl)
LETTERS = "ABCDEFGHIJ"  # at most 10 options a question
QUIZ_ID = "[a-z0-9-]{1,40}"  # a quiz's id: in its file, in /quiz, in button data

# Plain text for screen readers (/settings plain on) travels with the chat's language as a BCP 47
# private-use subtag ("ur-x-plain"), so every renderer handed the language also knows to write
# counts in words, without bars or decorative emoji; the run keeps it with its language.
PLAIN_SUBTAG = "-x-plain"


def spoken(lang: str) -> str:
    """The language itself ("ur" of "ur-x-plain"): what catalogs and quiz texts are keyed by."""
    return lang.removesuffix(PLAIN_SUBTAG)


def is_plain(lang: str) -> bool:
    return lang.endswith(PLAIN_SUBTAG)


def written(lang: str, plain: bool) -> str:
    """`lang`, plain or not."""
    return spoken(lang) + (PLAIN_SUBTAG if plain else "")


@dataclass(frozen=True)
class SettingRange:
    """The whole numbers a setting may take (seconds for the chat settings, a count for
    TELEGRAM_WORKERS), and its default."""

    low: int
    high: int
    default: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, (int, float)) and self.low <= value <= self.high


# /settings, QUIZHOST_QUESTION_SECONDS / QUIZHOST_PAUSE_SECONDS, a quiz file's per-question limit
# and the help texts read these
QUESTION_SECONDS = SettingRange(5, 300, default=30)
PAUSE_SECONDS = SettingRange(0, 60, default=5)
# /suggest: questions one member may suggest to a group in a day, and questions a group's queue holds
SUGGESTIONS_PER_DAY = SettingRange(0, 100, default=5)
SUGGESTIONS_WAITING = SettingRange(1, 500, default=50)
# TELEGRAM_WORKERS: the webhook workers sending for one bot; each keeps to its share of the bot's
# 30 messages a second (bot/adapters/telegram/limits.py bot_share), so the sum holds across them
TELEGRAM_WORKERS = SettingRange(1, 30, default=1)


def clamp_seconds(seconds: int | None) -> int | None:
    """A source file's time limit brought into the range a run supports (None: no limit given)."""
    if not seconds or seconds <= 0:
        return None
    return min(QUESTION_SECONDS.high, max(QUESTION_SECONDS.low, seconds))


@dataclass(frozen=True)
class LocalText:
    """A text given per language; English is the fallback for anything untranslated."""

    by_lang: Mapping[str, str]

    def get(self, lang: str) -> str:
        return self.by_lang.get(spoken(lang)) or self.by_lang[FALLBACK_LANGUAGE]

    def has(self, lang: str) -> bool:
        return bool(self.by_lang.get(spoken(lang)))

    def all(self) -> tuple[str, ...]:
        return tuple(self.by_lang.values())


class QuestionKind(StrEnum):
    """How a question is answered; the value is what a quiz file's `kind` says."""

    CHOICE = "choice"  # one right option among 2 to 10
    MULTI = "multi"  # select all that apply: several right options
    TRUE_FALSE = "truefalse"  # two options, True and False, in the chat's language
    TYPED = "typed"  # a typed answer matched against accepted ones (case, accents, small typos forgiven)
    NUMERIC = "numeric"  # a number within a range
    POLL = "poll"  # options without a right one: the split is the point; scores nothing
    ORDERING = "ordering"  # the options put in order, pressed first to last; the file lists them in the right order


# a question that names no kind: a quiz file's without `kind`, a message stored before the kinds
DEFAULT_KIND = QuestionKind.CHOICE
# the values of QuestionKind, as a quiz file's `kind` (a pydantic Literal) takes them
KindName = Literal["choice", "multi", "truefalse", "typed", "numeric", "poll", "ordering"]


class MediaKind(StrEnum):
    IMAGE = "image"  # shown with the question (Telegram: a photo with caption; Discord: the embed's image)
    AUDIO = "audio"  # kept as a link
    VIDEO = "video"  # kept as a link


@dataclass(frozen=True)
class Media:
    """A picture or a sound for a question or an explanation."""

    kind: MediaKind
    src: str  # a file beside the quiz (relative path) or an http(s) URL
    alt: LocalText | None = None  # what the terminal prints and screen readers say

    @property
    def is_url(self) -> bool:
        return self.src.startswith(("https://", "http://"))


@dataclass(frozen=True)
class NumericAnswer:
    """A numerical question's right answers: every number from low to high, both included."""

    low: float
    high: float
    value: float | None = None  # the stated value of `value ± tolerance`, shown at the reveal

    def accepts(self, number: float) -> bool:
        return self.low <= number <= self.high


@dataclass(frozen=True)
class Question:
    id: str
    prompt: LocalText
    options: tuple[LocalText, ...]  # authoring order; empty for typed and numeric questions
    answer: int  # choice and true/false: index into options of the right one; NO_ANSWER otherwise
    explanation: LocalText | None = None  # imported quizzes often have none: the reveal does without
    seconds: int | None = None  # this question's own time limit, else the chat's
    # False: the options keep their authoring order, because it means something (they carry their
    # own letters, or one points at others: "all of the above", "a) and b)")
    shuffle: bool = True
    kind: QuestionKind = DEFAULT_KIND
    answers: tuple[int, ...] = ()  # multi: the right options' indices, ascending
    partial: bool = False  # multi and ordering: partial credit (else all or nothing)
    accepted: tuple[str, ...] = ()  # typed: the accepted answers, the first one shown at the reveal
    numeric: NumericAnswer | None = None  # numeric: the accepted range
    media: Media | None = None  # shown with the question
    explanation_media: Media | None = None  # shown with the explanation
    # shown when a hosted game's host asks for it, or at half time in a timed game; answers
    # after it earn half the speed points
    hint: LocalText | None = None

    def right_options(self) -> frozenset[int]:
        """The options that are right (authoring indices): none for polls, typed and numeric."""
        if self.answers:
            return frozenset(self.answers)
        return frozenset((self.answer,)) if self.answer >= 0 else frozenset()


NO_ANSWER = -1  # Question.answer of the kinds whose answer is not one option


@dataclass(frozen=True)
class Round:
    """A named part of a quiz (a trivia night's round): its questions, in the quiz's order, earn
    their points times `multiplier`; standings are shown between rounds, not after each question."""

    name: LocalText
    question_ids: tuple[str, ...]
    multiplier: float = 1.0


@dataclass(frozen=True)
class Quiz:
    id: str
    title: LocalText
    description: LocalText
    questions: tuple[Question, ...]
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    difficulty: str = "medium"
    source: str = ""  # the file it came from, for messages
    # the language of the quiz's default texts (a BCP 47 tag: en, es, vi, ar…): a quiz may be in
    # any language, while the bot's own texts stay in the chat's language
    language: str = FALLBACK_LANGUAGE
    rounds: tuple[Round, ...] = ()  # none: one unnamed round of every question, points as scored

    @property
    def question_count(self) -> int:
        return len(self.questions)

    def languages(self) -> tuple[str, ...]:
        """Languages in which every text of the quiz is given; its default texts count as its
        own `language`."""
        texts = [self.title, self.description, *(r.name for r in self.rounds)]
        for q in self.questions:
            texts += [q.prompt, *q.options, *(t for t in (q.explanation, q.hint) if t)]
        given = (lang for lang in LANGUAGES if all(t.has(lang) for t in texts))
        return tuple(self.language if lang == FALLBACK_LANGUAGE else lang for lang in given)


class QuizInfo(Protocol):
    """What a catalog listing and topic matching need of a quiz, without its questions."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> LocalText: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def difficulty(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def question_count(self) -> int: ...
    def languages(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class QuizSummary:
    """A quiz as a catalog lists it; the questions load from its file when it is played."""

    id: str
    title: LocalText
    aliases: tuple[str, ...]
    tags: tuple[str, ...]
    difficulty: str
    source: str
    question_count: int
    complete_in: tuple[str, ...]  # Quiz.languages() of the full quiz

    @classmethod
    def of(cls, quiz: Quiz) -> QuizSummary:
        return cls(
            quiz.id,
            quiz.title,
            quiz.aliases,
            quiz.tags,
            quiz.difficulty,
            quiz.source,
            quiz.question_count,
            quiz.languages(),
        )

    def languages(self) -> tuple[str, ...]:
        return self.complete_in


@dataclass(frozen=True)
class ChatRef:
    """A conversation on one platform: a group, a channel or a private chat."""

    platform: str
    chat_id: str
    is_private: bool = False
    title: str = ""

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}"


@dataclass(frozen=True)
class Player:
    platform: str
    user_id: str
    name: str
    language: str | None = None  # the client's language, where the platform gives one

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.user_id}"


@dataclass(frozen=True)
class MessageRef:
    """Where a question was posted, so it can be edited on close, even after a restart."""

    chat: ChatRef
    message_id: str


@dataclass(frozen=True)
class OptionView:
    letter: str
    text: str
    token: str  # button data the adapter sends back on a press


@dataclass(frozen=True)
class MediaView:
    """A question's or explanation's medium as an adapter shows it: `location` is an http(s) URL
    or the absolute path of the file beside the quiz."""

    kind: MediaKind
    location: str
    alt: str = ""  # what the terminal prints and screen readers say

    @property
    def is_url(self) -> bool:
        return self.location.startswith(("https://", "http://"))

    @property
    def named(self) -> str:
        """How players see it named: a URL as it is, a file beside the quiz by its file name
        alone (where the server keeps its quizzes is nobody else's business)."""
        return self.location if self.is_url else PurePath(self.location).name


@dataclass(frozen=True)
class QuestionCard:
    """One question as the players see it, in the run's language and shuffled order."""

    run_id: int
    chat: ChatRef
    language: str
    quiz_title: str
    number: int  # 1-based
    total: int
    prompt: str
    options: tuple[OptionView, ...]
    seconds: int
    deadline: float  # unix time
    kind: QuestionKind = DEFAULT_KIND
    media: MediaView | None = None
    done_token: str | None = None  # multi in a private chat: the "Done" button's data
    answer_token: str | None = None  # typed and numeric: the "Answer" button's data
    direction_rtl: bool = False  # the quiz's content is right to left (its language, not the chat's)


@dataclass(frozen=True)
class Scorer:
    name: str
    letter: str  # what they answered: a letter, "A, C" (multi) or their typed text, shortened
    correct: bool
    points: int
    seconds: float
    streak: int
    share: float | None = None  # the kind's credit for the answer (None: a poll's vote, or not known)

    @property
    def worth(self) -> Worth:
        """What a scored question's answer was worth (a poll's reveal has no verdicts)."""
        return scored_worth(self.correct, self.points, self.share)


@dataclass(frozen=True)
class Reveal:
    card: QuestionCard
    right_letter: str  # "A"; "A, C" for multi; "C → A → B" for ordering; "" for typed, numeric and polls
    right_text: str  # the right options' texts, the first accepted answer, or "3.14 ± 0.005"
    explanation: str
    counts: tuple[int, ...]  # per displayed option
    answers: tuple[Scorer, ...]  # fastest first
    note: str = ""  # said instead of who scored (a review: what happens to the card)
    kind: QuestionKind = DEFAULT_KIND
    # typed and numeric: the most common answers (normalised) with their counts, most first
    responses: tuple[tuple[str, int], ...] = ()
    explanation_media: MediaView | None = None
    # a run with teams: who was placed in a team at this close, then the team standings, in words
    teams: tuple[str, ...] = ()
    # whether the answers' times earned points (speed scoring): with accuracy scoring none is shown
    timed: bool = True

    @property
    def scorers(self) -> tuple[Scorer, ...]:
        return tuple(a for a in self.answers if a.correct)


@dataclass(frozen=True)
class Standing:
    rank: int
    player_key: str
    name: str
    points: int
    correct: int
    answered: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


# how a run ends, as a podium says it: every status but open (stored as the run's status)
RunEnd: TypeAlias = Literal[RunStatus.FINISHED, RunStatus.STOPPED, RunStatus.SILENT]


@dataclass(frozen=True)
class Podium:
    chat: ChatRef
    language: str
    quiz_title: str
    reason: RunEnd
    standings: tuple[Standing, ...]
    questions_asked: int  # the scored ones (a poll is not)
    # each player's record over the questions asked: what "n/N right" and accuracy say
    records: Mapping[str, Record] = field(default_factory=dict)
    teams: tuple[TeamStanding, ...] = ()  # a run with teams: ranked before the players


@dataclass(frozen=True)
class PlayerStats:
    name: str
    points: int
    answered: int
    correct: int
    best_streak: int
    quizzes: int
    rank: int | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class Button:
    label: str
    data: str
    # opens the private chat with the bot and runs `/start <data>` there (Telegram: a deep link;
    # Discord: a direct message), as the podium's "Review my misses" does
    in_private: bool = False
    # adds the bot to a group the user picks and runs `/start <data>` there (Telegram: a
    # startgroup deep link), as a saved quiz's "Play in a group" does
    in_group: bool = False


@dataclass(frozen=True)
class Reply:
    """What a command or press answers with: text in the chat's language, maybe buttons."""

    text: str
    title: str = ""
    buttons: tuple[Button, ...] = ()
    private: bool = False  # shown only to the caller where the platform allows it
    language: str = FALLBACK_LANGUAGE
    kind: str = "text"  # text | leaderboard | stats | help | error: adapters may style them
    # set: the platform's own poll composer is offered under this label (Telegram: a reply
    # keyboard with a "create a quiz" button), for writing a quiz in the chat
    poll_button: str = ""


@dataclass(frozen=True)
class Ack:
    """The private answer to a button press."""

    text: str
    accepted: bool
    language: str = FALLBACK_LANGUAGE
    retry: bool = False  # refused, but the same player may try again (not a number, not saved)
