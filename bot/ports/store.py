"""The storage port: what the engine, the commands and the web pages ask of a database (Store).

The stores (storage/sqlite, storage/postgres) implement it; the engine and the commands see
nothing else of them. The docstrings are the contract: every implementation
keeps the semantics they state, and tests/contract/stores/ checks them on each one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol, runtime_checkable

from bot.domain.leitner import ReviewCard, ReviewSessionRow
from bot.domain.model import ChatRef, Player, PlayerStats, Standing
from bot.domain.questionstats import QuizTally
from bot.domain.records import (
    AnswerRow,
    ChatQuizRow,
    ChatSettings,
    OutboxMessage,
    PressFacts,
    RunRow,
    RunStatus,
    RunSummary,
)
from bot.domain.schedule import ScheduleRow, ScheduleStatus

# what update_chat_settings sets
CHAT_SETTINGS = frozenset({"language", "question_seconds", "pause_seconds", "time_zone", "close_notice"})


class RunAlreadyOpen(Exception):
    """create_run for a chat that has an open run: one run per chat, whatever the engine believes."""


class LearningStore(Protocol):
    """Review decks, question statistics and schedules (part of Store; storage/shared/learning.py,
    storage/shared/review.py)."""

    # review decks: one card per player and question, however often it was missed
    async def put_review_cards(self, cards: Iterable[ReviewCard]) -> None:
        """Store the cards as given: new ones, or new boxes and due times of existing ones."""

    async def review_deck(self, player_key: str) -> list[ReviewCard]:
        """Every card of the player, the earliest due first."""

    async def remove_review_card(self, card: ReviewCard) -> None:
        """The card leaves the deck (learned, or its question is gone); a missing card is no error."""

    # open reviews: at most one per player (storage/shared/review.py)
    async def save_review_session(self, row: ReviewSessionRow) -> None:
        """Store the player's open review as it stands, replacing any other review of theirs."""

    async def review_session(self, player_key: str) -> ReviewSessionRow | None:
        """The player's open review as last saved; None when they have none."""

    async def end_review_session(self, player_key: str, session: int) -> None:
        """Forget that review of the player's; a newer one (another session number) stays."""

    # question statistics: summed as questions close, so reading them costs the same however
    # many answers are stored (a row per player and question, per question and answer time)
    async def quiz_tally(self, quiz_id: str, chat_key: str | None = None) -> QuizTally:
        """The closed questions' answers of a quiz summed per player and question (answers per
        option), per tenth of a second, and each player's total points in it; in one chat, or
        in all chats (None)."""

    async def stats_chats(self, quiz_id: str) -> list[str]:
        """The keys of the chats that answered the quiz."""

    # schedules
    async def add_schedule(self, schedule: ScheduleRow) -> int:
        """Store a new schedule; its id, a positive integer."""

    async def chat_schedules(self, chat_key: str) -> list[ScheduleRow]:
        """The chat's schedules (active and paused), oldest first."""

    async def due_schedules(self, now: float) -> list[ScheduleRow]:
        """Active schedules whose `next_due` is at or before `now`, the earliest first."""

    async def next_schedule_due(self) -> float | None:
        """The earliest `next_due` of any active schedule."""

    async def claim_schedule(self, schedule_id: int, due: float, next_due: float, asked: frozenset[str]) -> bool:
        """Move an active schedule whose `next_due` is still `due` on to `next_due` (and the
        questions asked in this round), atomically: True for exactly one of any number of
        callers (stores on one database included), who then fires it."""

    async def set_schedule_status(self, schedule_id: int, status: ScheduleStatus) -> None:
        """Pause or resume a schedule."""

    async def pause_chat_schedules(self, chat_key: str) -> int:
        """Pause every active schedule of the chat at once; how many were active."""

    async def resume_schedule(self, schedule_id: int, next_due: float) -> bool:
        """Make a paused schedule active again, due at `next_due`; False if it was not paused."""

    async def remove_schedules(self, chat_key: str, schedule_id: int | None = None) -> int:
        """Delete one schedule of the chat (or all); how many were deleted."""


class Store(LearningStore, Protocol):
    """Everything the engine, the commands and the bench keep: chats, players, runs, answers,
    and the leaderboards computed from them.

    Common rules:
    - A write is committed (durable across a crash of the process) before its awaitable resolves;
      a failed write raises and leaves nothing of itself behind.
    - Times are unix seconds (floats) as the engine's clock gives them; keys are `ChatRef.key`
      and `Player.key` strings.
    - Calls may overlap freely on one event loop: the store orders them itself.
    - Opening (connecting, migrating) is the implementation's own constructor, picked by the
      wiring (bot/app/wiring.py); `close` commits what was submitted and releases everything.
    """

    async def close(self) -> None:
        """Wait for every submitted answer and run state to be committed, then release the store."""

    async def schema_version(self) -> int:
        """How many schema migrations have run; opening a store runs the missing ones, once."""

    # chats and players -------------------------------------------------------------

    async def ensure_chat(self, chat: ChatRef) -> None:
        """Store the chat if it is new; cheap when called again (for every start)."""

    async def chat_settings(self, chat_key: str) -> ChatSettings:
        """The chat's stored settings; all None for a chat never configured or never seen."""

    async def update_chat_settings(self, chat: ChatRef, **fields: object) -> None:
        """Set some of CHAT_SETTINGS (None clears one), creating the chat if needed.

        An unknown name raises ValueError and changes nothing.
        """

    async def move_chat(self, old_key: str, new: ChatRef) -> None:
        """The chat got a new id: its settings, runs, answers and boards move to `new.key` in
        one transaction. A run already open under the new key stays and the old one stays
        behind under the old key. Moving twice (or a chat never seen) changes nothing."""

    async def ensure_player(self, player: Player) -> None:
        """Store the player and keep their display name current (the latest call wins)."""

    async def player_names(self, keys: set[str]) -> dict[str, str]:
        """Stored display names of those keys; unknown keys are left out."""

    # runs ---------------------------------------------------------------------------

    async def create_run(self, run: RunRow) -> int:
        """Store a new run (its chat was ensured) and return its id, a positive integer.

        Raises RunAlreadyOpen when the chat already has a run with status OPEN.
        """

    async def save_run(self, run: RunRow, send: Sequence[OutboxMessage] = (), done: Sequence[str] = ()) -> None:
        """Persist a run's moving parts: status, phase, index, asked_at, due, message_id, silent.

        Resolves only after the state is committed. States of many runs may share one
        transaction with answers (group commit); a later state of the same run replaces a
        queued one. Moving a run past a question (phase, index or status) makes that
        question's answers part of the boards' summaries in the same transaction.

        The outbox rides along: `send` adds messages, `done` removes the messages with those
        keys, both in the same transaction as this state (all or nothing). A message whose key
        is already in the outbox is left as stored; a key not there is ignored in `done`. When a
        later state replaces a queued one, the `send` and `done` of both are kept and applied
        in the order they were given.
        """

    # outbox: messages the runs owe their chats ---------------------------------------

    async def outbox(self) -> list[OutboxMessage]:
        """Every message added and not yet removed, in the order added (oldest first), with the
        tries, failed and not_before last stored for it."""

    async def outbox_update(self, message: OutboxMessage) -> None:
        """Store `tries`, `failed` and `not_before` of the message with that key (absolute
        values; nothing else changes; a key not in the outbox is ignored). Committed before it
        resolves: the sender records a try here before it starts it."""

    async def outbox_remove(self, keys: Sequence[str]) -> None:
        """Remove the messages with those keys (delivered or given up); unknown keys are ignored.
        Committed before it resolves."""

    async def open_runs(self) -> list[RunRow]:
        """Every run with status OPEN, oldest first, with its chat's id, platform and privacy."""

    async def run_status(self, run_id: int) -> RunStatus | None:
        """The run's status, None for an id never stored."""

    # answers ------------------------------------------------------------------------

    async def insert_answer(self, answer: AnswerRow) -> bool:
        """`submit_answer` without a player, awaited: True stored, False already answered."""

    def submit_answer(self, answer: AnswerRow, player: Player | None = None) -> Awaitable[bool]:
        """Queue an answer (and the player's current display name) for the next group commit.

        Called without awaiting, once per press: it must not block. The awaitable resolves
        only after the answer is committed: True once stored, False if this player already
        answered this question of this run (first answer wins, nothing changes), and raises
        if the commit failed (then nothing of it was stored and the player may press again).
        """

    @property
    def answers_submitted(self) -> int:
        """A ticket for every answer submitted so far (a count); see `answers_settled`."""

    async def answers_settled(self, ticket: int) -> None:
        """Wait until every answer submitted up to `ticket` is committed or has failed, even
        when the caller who submitted one stopped waiting for it (a cancelled press)."""

    async def run_answers(self, run_id: int) -> list[AnswerRow]:
        """The run's stored answers, by question index, then by time of answer."""

    @property
    def commits(self) -> int:
        """Transactions committed so far that carried answers or run states (for the bench)."""

    # boards -------------------------------------------------------------------------

    async def leaderboard(
        self, chat_key: str, since: float | None = None, quiz_id: str | None = None
    ) -> list[Standing]:
        """Every player of the chat with an answer at or after `since` (None: all time), maybe of
        one quiz, ranked by points, then right answers, then the earlier first answer, then
        key. Ranks start at 1. The open question's answers count as soon as they are stored."""

    async def run_standings(self, run_id: int) -> list[Standing]:
        """The players of one run ranked as the leaderboard ranks them."""

    async def player_stats(self, chat_key: str, player: Player) -> PlayerStats:
        """The player's all-time record in the chat: points, answers, right ones, best streak,
        runs played in, and their rank on the all-time board (None before a first answer)."""

    # chat quizzes -------------------------------------------------------------------
    # Added with uploads (issue #12) to both stores; a new Store implementation needs them too:
    # one table keyed by (chat_key, quiz_id), and move_chat takes a chat's quizzes along.

    async def save_chat_quiz(self, quiz: ChatQuizRow) -> None:
        """Store a chat's quiz, replacing the one with the same chat and id (an upload again)."""

    async def chat_quiz(self, chat_key: str, quiz_id: str) -> ChatQuizRow | None:
        """That chat's quiz of that id; None when the chat has none by that id (whatever other chats have)."""

    async def chat_quizzes(self, chat_key: str) -> list[ChatQuizRow]:
        """Every quiz of that chat, by id; never another chat's."""

    async def delete_chat_quiz(self, chat_key: str, quiz_id: str) -> bool:
        """Delete that chat's quiz: True if there was one. Answers and boards of it stay."""

    # the web pages (bot/adapters/web/); storage/shared/web.py holds the queries of both stores ------

    async def web_secret(self, candidate: str) -> str:
        """The secret the web links are signed with: the stored one, or `candidate` stored now
        when the database has none yet (the first of several processes wins; all read the same)."""

    async def set_board_public(self, chat_key: str, public: bool) -> None:
        """Show the chat's leaderboard to anyone with its public link, or stop (the default)."""

    async def board_public(self, chat_key: str) -> bool:
        """Whether the chat's leaderboard has a public link; False for a chat never seen."""

    async def chat_runs(self, chat_key: str, limit: int = 50) -> list[RunSummary]:
        """The chat's runs, the latest first, at most `limit`; never another chat's."""

    # Telegram's updates -----------------------------------------------------------------

    async def claim_update(self, update_id: int, now: float) -> bool:
        """Record that the platform update `update_id` is being handled (at `now`): True the
        first time it is claimed by any process on this database, False for a repeat, also
        when the first claim's handling failed. Claims older than a day may be forgotten
        (Telegram repeats an update for at most 24 hours); the store prunes them itself."""

    async def hold_polling(self) -> bool:
        """Become the one process that long-polls the platform's updates (getUpdates) among all
        on this database: True when this store holds it now (until it is closed, or its process
        dies), False when another process holds it. A one-process store always holds it."""

    def identify_lock(self, bucket: int) -> AbstractAsyncContextManager[None]:
        """Held by one holder at a time, per `bucket`, among every process on this database (on
        a one-process store: in this process): Discord's one identify per bucket every 5 s,
        across the processes that share a bot's shards. Let go when the block ends or the
        holder dies."""


@runtime_checkable
class RunLeases(Protocol):
    """A store that several workers share (PostgreSQL): each open run is leased to one worker,
    by the database's clock, and a run whose worker died is claimed by another (bot/engine/workers.py)."""

    async def claim_runs(self) -> list[RunRow]:
        """Open runs nobody holds (lease run out or let go), leased to this worker now, with
        the messages they owe (the outbox rows of a run move with it)."""

    async def renew_leases(self, run_ids: set[int]) -> set[int]:
        """Extend this worker's leases, and its hold on every message it owes; the ids left out
        are not this worker's any more."""

    async def release_leases(self) -> None:
        """Let every open run and owed message of this worker go, for another worker to claim at once."""

    async def claim_outbox(self, own_too: bool = False) -> list[OutboxMessage]:
        """Messages owed by ended runs that no live worker holds (its leases ran out, or were
        let go), held by this worker now, oldest first; with `own_too` this worker's own too
        (held before a restart under its name). Two workers never get the same message."""

    async def press_facts(self, run_id: int, player_key: str, unseen_cap: int) -> PressFacts | None:
        """One open run as stored (whichever worker runs it) with this player's part of it, the
        unseen answerers counted up to `unseen_cap`; None when it is not open."""

    async def insert_answer_if_asking(self, answer: AnswerRow, player: Player, wake_owner: bool = True) -> bool | None:
        """A press for a run another worker runs, committed before it resolves: True stored,
        False this player had answered this question, None the question is not open (checked
        against the run's row, under its lock, so a press never lands after its close). A stored
        press wakes the run's owner (RunWakeups) when `wake_owner`."""

    async def seal_question(self, run_id: int, index: int) -> list[AnswerRow]:
        """The owner closes a question to other workers' presses; every stored answer to it."""


@runtime_checkable
class RunWakeups(Protocol):
    """Wake-ups between the workers of a store that leases runs (PostgreSQL LISTEN/NOTIFY).

    A worker that does not run a quiz writes what the owner must act on to the tables (an
    answer, a stop request) and wakes the owner; a wake-up carries only a run's id and may be
    lost, so the owner reads the truth from the tables, on a wake-up and on its renewal tick."""

    async def listen(self, woken: Callable[[int | None], None]) -> None:
        """Until cancelled, on a connection of its own: `woken(run_id)` for each wake-up (the
        run's id, whoever owns it), `woken(None)` after each (re)connect, when wake-ups may have
        been missed. A lost connection is connected again; nothing is raised."""

    async def chat_run(self, chat_key: str) -> RunRow | None:
        """The chat's open run as stored, whichever worker runs it; None when it has none."""

    async def request_stop(self, run_id: int, by: str) -> bool:
        """Mark the open run to be stopped (`by`: the player key who asked) and wake its owner;
        committed before it resolves. False when the run is not open (any more)."""

    async def stops_requested(self, run_ids: set[int]) -> set[int]:
        """Those of the runs that are open and have a stop request."""

    async def question_answers(self, run_id: int, index: int) -> list[AnswerRow]:
        """Every stored answer to that question of the run, whichever worker took it."""
