"""The rows the domain keeps and every store persists: plain values and their states.

No SQL, no driver, no chat library: a store (storage/*) maps these to its tables, the
session and the engine change them. The enums are strings (StrEnum), so a store writes
them as the text it always wrote and reads them back with `Phase(text)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.domain.scoring import Scoring

# the largest id a store's row holds: SQLite's INTEGER and PostgreSQL's BIGINT are 64-bit signed
ROW_ID_MAX = 2**63 - 1


def row_id(text: str) -> int | None:
    """An id as a user wrote it (in an address, a command): ASCII digits without a leading zero,
    at most ROW_ID_MAX; None for anything else, which no row has (past 64 bits a store would
    fail on the number instead of finding nothing)."""
    if not (text.isascii() and text.isdigit()) or text.startswith("0") or len(text) > len(str(ROW_ID_MAX)):
        return None
    number = int(text)
    return number if number <= ROW_ID_MAX else None


# the due time of a hosted run that waits for its host (after a close, while paused): no clock
# reaches it, and unlike infinity every store and JSON writes it as the number it is
UNTIL_HOST = 1e15


class Phase(StrEnum):
    """Where an open run is between its deadlines (`RunRow.due`)."""

    PAUSING = "pausing"  # the next question is asked at `due`
    POSTING = "posting"  # the question waits in the outbox; at `due` the run gives up posting it
    ASKING = "asking"  # the current question closes at `due`


class RunStatus(StrEnum):
    """Open until the run ends, then how it ended (`bot.domain.model.RunEnd` names the ends)."""

    OPEN = "open"
    FINISHED = "finished"
    STOPPED = "stopped"
    SILENT = "silent"  # two questions in a row with no answer


@dataclass(frozen=True)
class RunSummary:
    """One run as a chat's history lists it (the web page's run history)."""

    run_id: int
    quiz_id: str
    started_at: float
    status: RunStatus


@dataclass(frozen=True)
class PlayedChat:
    """A chat that has runs in the database (`quizhost chats`): its key, its name as its platform
    last gave it (empty when unknown), how many runs it had and when the latest started."""

    chat_key: str
    title: str
    runs: int
    last_started: float


@dataclass(frozen=True)
class AwaitedAnswer:
    """A typed question a player was sent to answer in their private chat by its "Answer" deep
    link: their next message there answers it (bot/commands/typed.py)."""

    player_key: str
    run_id: int
    number: int  # 1-based question number in the run
    chat_key: str  # the group the question was posted in: the player is told where their answer went


@dataclass(frozen=True)
class DraftRow:
    """A quiz being written in a private chat (bot/content/drafts.py): one per author."""

    owner_key: str  # the author's Player.key
    title: str
    content: str  # the questions so far, as JSON: a list of quiz file questions
    replacing: int  # the question number the next poll replaces (/edit N), 0: none
    updated_at: float
    target: str = ""  # a group's chat key: the author is suggesting a question to it (/suggest), not writing a quiz


class SuggestionStatus(StrEnum):
    OPEN = "open"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Suggestion:
    """A question a member suggested to a group (/suggest), waiting for its admins or decided."""

    chat_key: str
    number: int  # the group's own numbering: /suggestions approve 3
    player_key: str
    player_name: str
    content: str  # the question, as JSON quiz file data (bot/content/drafts.py)
    created_at: float
    status: SuggestionStatus = SuggestionStatus.OPEN


@dataclass(frozen=True)
class QuizShare:
    """A saved chat quiz that anyone with its code may copy (the share and "Play in a group" links)."""

    code: str
    chat_key: str
    quiz_id: str


@dataclass(frozen=True)
class PastRun:
    """One run of a chat as its report shows it (the web page's run report, the downloads)."""

    run_id: int
    chat_key: str
    quiz_id: str
    language: str
    question_ids: tuple[str, ...]  # the questions it asked or was to ask, in order
    started_by: str
    started_at: float
    status: RunStatus
    stopped_by: str = ""  # the player key of whoever /stop-ped it; empty when nobody did
    seed: int = 0  # the run's seed: each question's options were shown in `option_order(seed, question)`
    asked: int = 0  # how many of question_ids it asked and closed (a stopped run: fewer than all)
    skipped: tuple[int, ...] = ()  # the 0-based questions its host skipped (RunRow.skipped)
    seconds: int = 0  # its time limit for a question without its own (RunRow.seconds; 0: its host paced it)
    time_factor: float = 1.0  # its player's extra time (RunRow.time_factor)
    min_age: int = 0  # its chat's /settings min_age as it started (RunRow.min_age)


def questions_asked(status: RunStatus, phase: Phase, index: int, total: int) -> int:
    """How many questions a run asked, from its stored state: all of a finished run's; else up to
    its current question (`index`), less that one while it waited to be posted, or, the run
    still open, while it is still being answered."""
    if status == RunStatus.FINISHED:
        return total
    pending = phase == Phase.POSTING or (status == RunStatus.OPEN and phase == Phase.ASKING)
    return max(0, min(index + (0 if pending else 1), total))


@dataclass(frozen=True)
class ChatQuizRow:
    """A quiz a chat's admin uploaded: it belongs to that chat alone."""

    chat_key: str
    quiz_id: str
    content: str  # the quiz file's data as JSON (bot/content/quizfile.py checks it)
    uploaded_by: str  # a Player.key
    uploaded_at: float


@dataclass(frozen=True)
class ChatSettings:
    language: str | None = None  # set with /language; None: decide per user/default
    question_seconds: int | None = None  # None: the bot's default
    pause_seconds: float | None = None
    time_zone: str | None = None  # an IANA name (/settings tz); None: UTC
    close_notice: bool = False  # a short reply besides the closing edit (/settings notify on)
    host_anyone: bool = False  # /settings host anyone: any member may /host a game here, not only admins
    plain_text: bool = False  # /settings plain on: messages for screen readers (bot/texts/plain.py)
    scoring: Scoring = Scoring.SPEED  # /settings scoring accuracy: no speed points
    streaks: bool = True  # /settings streaks off: no streak bonus
    board_end: bool = False  # /settings board end: no standings before the podium
    # /settings min_age: how old (seconds) a Discord account must be to score here; 0: any age
    min_age: int = 0


@dataclass(slots=True)  # slots: one per open run, thousands at once
class RunRow:
    """Everything needed to continue a run after a restart."""

    chat_key: str
    chat_id: str
    platform: str
    is_private: bool
    quiz_id: str
    language: str
    seed: int
    question_ids: tuple[str, ...]
    seconds: int
    pause: float
    started_by: str
    started_at: float
    phase: Phase = Phase.PAUSING
    index: int = -1  # the current question, 0-based into question_ids
    asked_at: float = 0.0
    due: float = 0.0
    message_id: str | None = None
    silent: int = 0  # questions in a row that nobody answered
    status: RunStatus = RunStatus.OPEN
    id: int = 0  # given by the store's create_run
    # a run played for another chat (an assignment's, in a member's private chat): that chat's
    # boards and statistics count its answers, and its own quizzes are looked up there; "" for none
    board_chat: str = ""
    # a hosted run (/host): its host's Player.key, who paces it; "" for a run on the bot's clock
    host_key: str = ""
    # seconds the open question had left when its host paused it; None while not paused
    paused_left: float | None = None
    # when the open question's hint was shown (0.0: not shown): answers after it earn half the speed points
    hint_at: float = 0.0
    skipped: tuple[int, ...] = ()  # the 0-based questions the host skipped: asked, but scored for nobody
    # its player's extra time (bot/domain/extra_time.py): every time limit and speed window times this
    time_factor: float = 1.0
    # the chat's rules as the run started (ChatSettings): a change mid-run leaves a running game be
    scoring: Scoring = Scoring.SPEED
    streaks: bool = True
    board_end: bool = False
    # its board chat's /settings min_age as the run started (bot/domain/fairplay.py): each press is
    # checked against the run, with no read of the chat's settings
    min_age: int = 0

    @property
    def board_key(self) -> str:
        """The chat whose boards count the run's answers and whose quizzes it may play."""
        return self.board_chat or self.chat_key


class StoredRow(Protocol):
    """A row as a database driver gives it (sqlite3.Row, asyncpg.Record, a tuple): columns by position."""

    def __getitem__(self, index: int, /) -> Any: ...


# slots: every open question holds one per player. Not frozen: a frozen dataclass sets each
# of its 14 fields through object.__setattr__, 1 µs of the ~23 a press costs the loop flat
# out (docs/PERFORMANCE.md); an answer, once made, is replaced, never changed.
@dataclass(slots=True)
class AnswerRow:
    run_id: int
    index: int
    question_id: str
    player_key: str
    chat_key: str
    quiz_id: str
    option: int  # authoring-order index of the chosen option (choice, true/false, poll), else NO_ANSWER
    correct: bool  # full credit
    elapsed: float  # a multi answer: until its last toggle
    points: int
    streak: int  # consecutive right answers in this run, this one included (0 if wrong; a poll keeps it)
    answered_at: float
    # multi: the picked authoring indices, ascending ("0,2"); typed: the text as typed (stripped,
    # at most MAX_TYPED characters); numeric: the number as typed; else ""
    response: str = ""
    scored: bool = True  # False for a poll: it counts in neither "answered" nor accuracy on the boards

    @classmethod
    def from_values(cls, r: StoredRow) -> AnswerRow:
        """An answer from a stored row, its columns in field order (`correct`, `scored` stored as 0/1)."""
        return cls(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9], r[10], r[11], r[12], bool(r[13]))


class MessageKind(StrEnum):
    """What an outbox message is; each maps to one ChatAdapter call."""

    QUESTION = "question"  # post_question: its delivery starts the question's clock
    CLOSE = "close"  # close_question: the edit that turns the question into its reveal
    PODIUM = "podium"  # send: the run's final standings
    NOTICE = "notice"  # send: anything else a run tells its chat


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    """A message a run owes its chat, stored with the run state that made it due.

    `payload` is opaque to stores (the application encodes it, bot/domain/outbox_codec.py). `tries`
    counts sends started, `failed` those that certainly did not reach the platform: the
    difference is how many may have (it is sent again all the same: bot/engine/sender.py).
    """

    key: str  # unique: the same message recorded twice is stored once
    run_id: int
    chat_key: str
    kind: MessageKind
    payload: str
    created_at: float
    tries: int = 0
    failed: int = 0
    not_before: float = 0.0  # the next send waits until then (back-off)
    # what `payload` encodes, as the objects this process made it from (bot/domain/owed.py), so
    # that the sender need not read the JSON back; never stored: a message read from a store has none
    made: Any = field(default=None, compare=False, repr=False)

    @property
    def uncertain(self) -> int:
        """Sends that may have reached the platform although none was confirmed."""
        return self.tries - self.failed


@dataclass(frozen=True, slots=True)
class PressFacts:
    """What a worker that does not run a quiz needs to check and score one player's press:
    the run as stored and that player's part of it, read in one query (no answer list)."""

    run: RunRow
    streak: int  # the player's right answers in a row as of the last closed question
    answered: int | None  # the option this player stored for the open question, if any
    anyone_known: bool  # someone answered an earlier question of the run, or is in one of its teams
    unseen: int  # those known, other than this player, without an answer to this question (capped)
    response: str = ""  # this player's stored response to the open question (multi: the picks so far)
    answered_at: float = 0.0  # when that response was stored (a multi question's last toggle)
