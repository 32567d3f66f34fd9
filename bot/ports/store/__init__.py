"""The storage port: what the engine, the commands, the web pages and the adapters ask of a
database, cut into roles; each of them is typed with only the roles it uses.

The stores (storage/sqlite, storage/postgres) implement them all (`Store`); the engine and the
commands see nothing else of them. The docstrings are the contract: every implementation
keeps the semantics they state, and tests/contract/stores/ checks them on each one.

The roles, by module (and who uses them):
- chats.py: ChatRecords (a chat's row and settings), PlayerNames, ChatQuizRecords (uploads),
  QuizDrafts (quizzes written in the chat), SuggestionRecords (/suggest)
- runs.py: RunRecords, AnswerQueue (group commit of presses), Outbox (messages owed),
  AwaitedAnswers (what a player's next private message answers)
- boards.py: Boards (leaderboards), WebRecords (the web pages' secret, public boards, past runs)
- learning.py: ReviewDecks (/review), QuestionTallies (question statistics), ScheduleRecords
- assignments.py: AssignmentRecords (/assign), ExtraTimeRecords (members' extra time)
- teams.py: TeamRecords (/teams)
- host_panels.py: HostPanelRecords (where each hosted run's panel is)
- coordination.py: RunLeases, RunWakeups: several workers on one database (PostgreSQL only)
- platforms.py: TelegramUpdates, PlatformMedia, DiscordIdentify, DiscordInteractions: for one platform's
  adapter (and the wiring) only
- here: StoreUpkeep (closing, health, figures); CoreStore, every role the engine holds and hands
  on; Store, that and the platforms' roles: what the wiring opens and both stores implement.
"""

from __future__ import annotations

from typing import Protocol

from bot.ports.store.assignments import AssignmentRecords, ExtraTimeRecords
from bot.ports.store.boards import Boards, WebRecords
from bot.ports.store.chats import (
    CHAT_SETTINGS,
    ChatQuizRecords,
    ChatRecords,
    PlayerNames,
    QuizDrafts,
    SuggestionRecords,
)
from bot.ports.store.coordination import RunLeases, RunWakeups
from bot.ports.store.host_panels import HostPanelRecords
from bot.ports.store.learning import QuestionTallies, ReviewDecks, ScheduleRecords
from bot.ports.store.platforms import (
    DiscordIdentify,
    DiscordInteractions,
    DiscordStore,
    PlatformMedia,
    TelegramStore,
    TelegramUpdates,
)
from bot.ports.store.runs import AnswerQueue, AwaitedAnswers, Outbox, RunAlreadyOpen, RunRecords
from bot.ports.store.teams import TeamRecords

__all__ = [
    "CHAT_SETTINGS",
    "AnswerQueue",
    "AssignmentRecords",
    "AwaitedAnswers",
    "Boards",
    "ChatQuizRecords",
    "ChatRecords",
    "CoreStore",
    "DiscordIdentify",
    "DiscordInteractions",
    "DiscordStore",
    "ExtraTimeRecords",
    "HostPanelRecords",
    "Outbox",
    "PlatformMedia",
    "PlayerNames",
    "QuestionTallies",
    "QuizDrafts",
    "ReviewDecks",
    "RunAlreadyOpen",
    "RunLeases",
    "RunRecords",
    "RunWakeups",
    "ScheduleRecords",
    "Store",
    "StoreUpkeep",
    "SuggestionRecords",
    "TeamRecords",
    "TelegramStore",
    "TelegramUpdates",
    "WebRecords",
]


class StoreUpkeep(Protocol):
    """The store as a whole: its schema, its figures, and closing it (the wiring, /healthz and
    /metrics, the bench)."""

    async def close(self) -> None:
        """Wait for every submitted answer and run state to be committed, then release the store."""

    async def schema_version(self) -> int:
        """How many schema migrations have run; opening a store runs the missing ones, once."""

    @property
    def commits(self) -> int:
        """Transactions committed so far that carried answers or run states (for the bench)."""


class CoreStore(
    StoreUpkeep,
    ChatRecords,
    PlayerNames,
    ChatQuizRecords,
    QuizDrafts,
    SuggestionRecords,
    RunRecords,
    AnswerQueue,
    AwaitedAnswers,
    Outbox,
    Boards,
    WebRecords,
    ReviewDecks,
    QuestionTallies,
    ScheduleRecords,
    AssignmentRecords,
    ExtraTimeRecords,
    TeamRecords,
    HostPanelRecords,
    Protocol,
):
    """Everything the engine, the commands and the bench keep: chats, players, runs, answers,
    and the leaderboards computed from them (every role but the platforms' own). The engine
    holds it (`Engine.store`) and hands each collaborator the roles it uses.

    Common rules:
    - A write is committed (durable across a crash of the process) before its awaitable resolves;
      a failed write raises and leaves nothing of itself behind.
    - Times are unix seconds (floats) as the engine's clock gives them; keys are `ChatRef.key`
      and `Player.key` strings.
    - Calls may overlap freely on one event loop: the store orders them itself.
    - Opening (connecting, migrating) is the implementation's own constructor, picked by the
      wiring (bot/app/wiring.py); `close` commits what was submitted and releases everything.
    """


class Store(CoreStore, TelegramUpdates, PlatformMedia, DiscordStore, Protocol):
    """Every role: what a storage implementation provides and the wiring opens (bot/app/wiring.py
    `open_store` returns each implementation as a Store, so mypy checks that each has them all).
    The wiring hands the core to the engine and the platforms' roles to their adapters."""
