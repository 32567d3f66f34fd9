"""Live events: what a run publishes as it goes (a question posted, answers counted, its close,
the podium) and what the big screen's viewers follow (bot/adapters/web/screen.py).

An event belongs to a chat (a screen shows a chat: one run after another) and to a run; its id
comes from the bus and only grows, so a viewer that saw id k asks for what came after k and
misses nothing the bus still holds. Events are plain JSON-ready data: what a viewer may see at
that moment, never more (a question's right option travels only in its close).

One process keeps them in memory (storage/shared/live.py); several workers on PostgreSQL pass
them through a table and `LISTEN`/`NOTIFY` (storage/postgres/live.py), so a viewer on any worker
sees every run's events.

Only chats someone watches are published: a bot with thousands of chats would otherwise pay
for screens nobody opened (a backlog per chat, a database round trip per event). A chat is
watched while a viewer follows it, anywhere, and for GRACE_SECONDS after the last one left (a
reconnect resumes from its last id); when a chat becomes watched the engine publishes its open
run's state again (`watching`), so a new viewer's snapshot is never empty.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

BACKLOG = 256  # events kept per chat for viewers that reconnect: many questions' worth
GRACE_SECONDS = 60.0  # a chat stays watched this long after its last viewer left (a reconnect resumes)

# the chat's key, when it becomes watched: the engine publishes its open run's state again
Shown = Callable[[str], Awaitable[None]]


class LiveKind(StrEnum):
    QUESTION = "question"  # the card as the players see it, with its deadline
    ANSWERED = "answered"  # N of M answered
    CLOSED = "closed"  # the split, the right answer, the top five
    PODIUM = "podium"  # the run's end
    ROUND = "round"  # the run's standings between two rounds
    PAUSED = "paused"  # a host paused the run (with the time the question had left)
    RESUMED = "resumed"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class LiveEvent:
    id: int  # grows with every event of the chat (and of the run)
    chat_key: str
    run_id: int
    kind: LiveKind
    data: Mapping[str, Any]  # JSON-ready
    at: float  # unix time it was published (its cause): the bench measures lag from it


class LiveEvents(Protocol):
    async def publish(self, chat_key: str, run_id: int, kind: LiveKind, data: Mapping[str, Any], at: float) -> None:
        """Make the event known to every viewer of the chat (on every worker). It never raises:
        a screen that misses an event must not stop a run."""

    def follow(self, chat_key: str, after: int | None) -> AsyncIterator[LiveEvent]:
        """The chat's events with an id above `after`, from the backlog kept, then each as it
        comes, until the caller stops; `after` None: the current question's events only (from
        its question event on: a snapshot), then each as it comes."""

    def watched(self, chat_key: str) -> bool:
        """Whether a viewer follows the chat (on any worker, or did within the grace): only then
        is an event worth making."""

    def watching(self, shown: Shown) -> None:
        """Call `shown(chat_key)` each time a chat becomes watched (on any worker)."""

    async def close(self) -> None:
        """Stop listening to other workers (if any)."""


@runtime_checkable
class SharedLive(Protocol):
    """A store whose workers share live events (PostgreSQL); one process keeps them in memory."""

    def live_events(self) -> LiveEvents:
        """This worker's bus over the database (one per store, closed with it)."""
