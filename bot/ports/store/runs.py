"""Runs, their answers and the messages they owe their chats (the outbox)."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Protocol

from bot.domain.deck import Misses
from bot.domain.model import Player
from bot.domain.records import AnswerRow, AwaitedAnswer, OutboxMessage, RunRow, RunStatus


class RunAlreadyOpen(Exception):
    """create_run for a chat that has an open run: one run per chat, whatever the engine believes."""


class RunRecords(Protocol):
    """A run's row: created at /quiz, saved at every step, read back at a start."""

    async def create_run(self, run: RunRow) -> int:
        """Store a new run (its chat was ensured) and return its id, a positive integer.

        Raises RunAlreadyOpen when the chat already has a run with status OPEN.
        """

    async def save_run(
        self,
        run: RunRow,
        send: Sequence[OutboxMessage] = (),
        done: Sequence[str] = (),
        missed: Misses | None = None,
    ) -> None:
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

        `missed`: the review cards a question's close deals to those who missed it (stored as
        `put_review_cards` would) and their log rows, in the same transaction as the close.
        """

    async def open_runs(self) -> list[RunRow]:
        """Every run with status OPEN, oldest first, with its chat's id, platform and privacy."""

    async def run_status(self, run_id: int) -> RunStatus | None:
        """The run's status, None for an id never stored."""

    async def run_answers(self, run_id: int) -> list[AnswerRow]:
        """The run's stored answers, by question index, then by time of answer."""

    async def discard_answers(self, run_id: int, index: int) -> None:
        """Delete the stored answers to one question of an open run (its host skipped it), before
        the state that moves the run past it is saved: no board or statistic ever counts them."""

    async def run_partly_right(self, run_id: int) -> list[AnswerRow]:
        """The run's scored answers that earned points without full credit (partly right), in
        `run_answers`' order: with the standings, all a podium needs of the answers."""

    async def record_stop(self, run_id: int, player_key: str) -> None:
        """Note who stopped the run with /stop (its report names them); the first one noted stays."""


class AnswerQueue(Protocol):
    """Presses, stored in groups (one transaction for many answers) and acknowledged once committed."""

    async def insert_answer(self, answer: AnswerRow) -> bool:
        """`submit_answer` without a player, awaited: True stored, False already answered."""

    def submit_answer(self, answer: AnswerRow, player: Player | None = None) -> Awaitable[bool]:
        """Queue an answer (and the player's current display name) for the next group commit.

        Called without awaiting, once per press: it must not block. The awaitable resolves
        only after the answer is committed: True once stored, False if this player already
        answered this question of this run (first answer wins, nothing changes), and raises
        if the commit failed (then nothing of it was stored and the player may press again).
        """

    def submit_picks(self, answer: AnswerRow, player: Player | None = None) -> Awaitable[bool]:
        """As `submit_answer`, for a toggle of a select-all-that-apply question: the answer
        replaces this player's stored answer to that question (the picks so far, its time the
        last toggle's), so the picks survive a restart and any worker sees them; resolves True
        once committed, in the order submitted with the other answers."""

    @property
    def answers_submitted(self) -> int:
        """A ticket for every answer submitted so far (a count); see `answers_settled`."""

    async def answers_settled(self, ticket: int) -> None:
        """Wait until every answer submitted up to `ticket` is committed or has failed, even
        when the caller who submitted one stopped waiting for it (a cancelled press)."""


class Outbox(Protocol):
    """Messages the runs owe their chats (added and removed with a run's state by `save_run`)."""

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


class AwaitedAnswers(Protocol):
    """Which question a player's next private message answers, after a typed question's
    "Answer" button (a deep link into the private chat) sent them there (bot/commands/typed.py).
    Kept in the database: whichever process on it receives that message takes it."""

    async def await_answer(self, awaited: AwaitedAnswer, now: float, until: float) -> None:
        """Remember that the player's next private message answers question `number` of run
        `run_id`, until `until`, replacing what they were sent to answer in that run before (a
        question of another run stays, to be answered by a later message). Committed before it
        resolves; entries expired at `now` (anyone's) are forgotten meanwhile."""

    async def awaited_answer(self, player_key: str, now: float) -> AwaitedAnswer | None:
        """The question the player was last sent to answer, of those neither forgotten nor
        expired by `now`."""

    async def forget_awaited_answer(self, player_key: str, run_id: int, number: int) -> bool:
        """Forget that the player was sent to answer question `number` of run `run_id` (one of
        that run sent meanwhile, through another process, stays): True if it was forgotten."""
