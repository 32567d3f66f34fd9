"""Group commit, whatever the database: many presses, one transaction, each acknowledged
after its commit.

Committing every answer alone costs a round trip and a durable commit per press; that caps a
bot at a few thousand presses a second. Here one writer task takes the answers waiting at
that moment (up to a limit, below), hands them with the changed player names and run states to
the store's `commit` (one transaction), and only then resolves each press's future. While a
batch commits, the next one gathers by itself: no timer, so a lone press is written at once.
A burst starts small: after the writer waited, its first batch takes at most FIRST_BATCH
answers, and every full batch doubles the next one's limit, up to `max_batch`.
Run states (`save_run`) ride in the same transactions, one in each (MAX_RUNS): no press waits
behind more than one close; a batch with no answer in it carries up to IDLE_RUNS of them.
Outbox messages (`bot.domain.records.OutboxMessage`) ride with the run state that makes them
due, and the sender's bookkeeping of them rides in the next batch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.domain.deck import Misses
from bot.domain.model import Player
from bot.domain.records import AnswerRow, OutboxMessage, RunRow, RunStatus
from storage.shared.review import card_values, log_values

log = logging.getLogger("quizhost.storage")

MAX_BATCH = 2000  # bounds one transaction's time, so a huge burst cannot stall other queries
# A burst's first batch after the writer waited. Taken whole, a burst of 1,000 presses made the
# event loop and the writer take turns: one commit of 22 ms while the loop had nothing to do, then
# the loop's 1,000 acks and next presses while the writer had nothing to do. Growing from here, a
# backlog that lasts settles into two batches that alternate, one committing while the loop
# answers the other: 35% more presses a second flat out (docs/PERFORMANCE.md). Smaller bursts
# still commit whole: Telegram hands over up to 100 updates at once, and cutting those into 16,
# 32 and 52 cost the bot a quarter more CPU a press, where its loop was the limit.
FIRST_BATCH = 128
MAX_RUNS = 1  # run states per transaction that carries answers (see GroupCommit._take_runs)
IDLE_RUNS = 8  # run states per transaction that carries no answer (see GroupCommit._take_runs)
NAME_CACHE = 100_000  # player names remembered to skip writing unchanged ones


def answer_values(a: AnswerRow) -> tuple:
    return (
        a.run_id,
        a.index,
        a.question_id,
        a.player_key,
        a.chat_key,
        a.quiz_id,
        a.option,
        int(a.correct),
        a.elapsed,
        a.points,
        a.streak,
        a.answered_at,
        a.response,
        int(a.scored),
    )


def run_state(run: RunRow) -> tuple:
    """A run's moving parts as the writers store them, the end time if it ended, what a hosted
    run moves (the pause, the hint, the skipped questions as JSON), its id last."""
    ended = time.time() if run.status != RunStatus.OPEN else None
    moving = (run.status, run.phase, run.index, run.asked_at, run.due, run.message_id, run.silent, ended)
    return (*moving, run.paused_left, run.hint_at, json.dumps(run.skipped), run.id)


# Outbox operations as every store's `commit` applies them, in order:
#   ("add", key, run_id, chat_key, kind, payload, created_at)  - kept as stored if the key is there
#   ("update", key, tries, failed, not_before)                  - absolute values
#   ("remove", key)
def outbox_ops(send: Sequence[OutboxMessage] = (), done: Sequence[str] = ()) -> list[tuple]:
    ops = [("add", m.key, m.run_id, m.chat_key, str(m.kind), m.payload, m.created_at) for m in send]
    return ops + [("remove", key) for key in done]


def outbox_update(m: OutboxMessage) -> tuple:
    return ("update", m.key, m.tries, m.failed, m.not_before)


# A close's review cards ride with its run state too, as an op of their own:
#   ("misses", card, log, players) - a close's `Misses`: for each player key, a card and a log
#                                    row of the values given but for the key (first)
def review_ops(missed: Misses | None) -> list[tuple]:
    if missed is None or not missed.players:
        return []
    return [("misses", card_values(missed.card)[1:], log_values(missed.log)[1:], missed.players)]


@dataclass(frozen=True)
class BatchOps:
    """A batch's ops by kind, each in the order given."""

    outbox: list[tuple]  # outbox_ops and outbox_update's tuples
    cards: list[
        tuple
    ]  # without `shared`: card_values; one per card key, the last one given (ON CONFLICT updates a row once)
    log: list[tuple]  # without `shared`: log_values
    misses: list[tuple]  # with `shared`: the "misses" ops as given, (card, log, players) each


def split_ops(ops: list[tuple], shared: bool = False) -> BatchOps:
    """`shared`: the "misses" ops stay as they are (SQLite stores them from their shared values,
    an upsert there taking one key twice), else each player's card and log row are made of them."""
    outbox: list[tuple] = []
    cards: dict[tuple, tuple] = {}
    log: list[tuple] = []
    misses: list[tuple] = []
    for op in ops:
        if op[0] == "misses" and shared:
            misses.append(op[1:])
        elif op[0] == "misses":
            _, card, row, players = op
            for key in players:
                cards[(key, card[3], card[0], card[1])] = (key, *card)
                log.append((key, *row))
        else:
            outbox.append(op)
    return BatchOps(outbox, list(cards.values()), log, misses)


@dataclass(slots=True)
class _Pending:
    values: tuple  # the answer row's column values
    player: tuple | None  # (key, platform, user_id, name) when the stored name must change
    future: asyncio.Future
    replace: bool = False  # a toggle: replaces the player's stored answer (REPLACED_COLUMNS)


class GroupCommit:
    """The single writer of answers and run states; a subclass says how one batch is committed."""

    def __init__(self, max_batch: int = MAX_BATCH) -> None:
        self._max_batch = max_batch
        self._first = min(FIRST_BATCH, max_batch)
        self._limit = self._first  # answers the next batch may take
        self._pending: list[_Pending] = []
        self._inflight: list[_Pending] = []  # the batch being committed now
        self._runs: dict[int, tuple[tuple, list[asyncio.Future], list[tuple]]] = {}  # id -> state, waiters, ops
        self._outbox: list[tuple[list[tuple], asyncio.Future]] = []  # outbox ops of no run state
        self._wake = asyncio.Event()
        self._idle = False  # the writer task waits for work
        self._task: asyncio.Task | None = None
        self.batches = 0  # commits made, for the bench and the tests
        self.times = CommitTimes()  # how long each batch's commit took, for /metrics
        self.submitted = 0  # answers queued so far: the ticket of the latest one
        self.settled = 0  # answers whose batch is done (committed or failed), in queue order
        self._settle_waiters: list[tuple[int, asyncio.Future]] = []
        # told the (key, platform, user_id, name) of the names each batch stored, once committed
        self.names_stored: Callable[[list[tuple]], None] | None = None
        # run once by the writer task after the batch in flight, before the next one (nothing is
        # written meanwhile); it must not raise
        self.between_batches: Callable[[], Awaitable[None]] | None = None

    def submit(self, answer: AnswerRow, player: tuple | None = None, replace: bool = False) -> asyncio.Future:
        """Queue one answer; the future becomes True (stored), False (already there) or an error.
        `replace`: it replaces the player's stored answer to that question, if any (always True)."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(answer_values(answer), player, future, replace))
        self.submitted += 1
        self._kick()
        return future

    def submit_run(self, values: tuple, ops: list[tuple] | None = None) -> asyncio.Future:
        """Queue a run's state (`run_state`) and the outbox ops it makes due; done once committed.

        A later state of the same run replaces a queued one (the update sets absolute values);
        the ops of both are kept, in order.
        """
        future = asyncio.get_running_loop().create_future()
        _, waiters, queued = self._runs.get(values[-1], ((), [], []))
        waiters.append(future)
        self._runs[values[-1]] = (values, waiters, queued + (ops or []))
        self._kick()
        return future

    def submit_outbox(self, ops: list[tuple]) -> asyncio.Future:
        """Queue outbox ops of no run state for the next batch; done once committed."""
        future = asyncio.get_running_loop().create_future()
        self._outbox.append((ops, future))
        self._kick()
        return future

    def _kick(self) -> None:
        if self._task is None:  # cheap checks: this runs on every press
            self._task = asyncio.get_running_loop().create_task(self._serve())
        if self._idle:
            self._wake.set()

    async def wait_settled(self, ticket: int) -> None:
        """Wait until the answer with this ticket (and every one before it) is done.

        Unlike awaiting a press's future, this holds even when that press was cancelled.
        """
        if self.settled >= ticket:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._settle_waiters.append((ticket, waiter))
        await waiter

    async def flush(self) -> None:
        """Wait until everything submitted so far is committed (or has failed)."""
        waiting = [p.future for p in (*self._inflight, *self._pending)]
        waiting += [f for _, futures, _ in self._runs.values() for f in futures]
        waiting += [f for _, f in self._outbox]
        if waiting:
            await asyncio.gather(*waiting, return_exceptions=True)

    async def close(self) -> None:
        await self.flush()
        task = self._task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _serve(self) -> None:
        try:
            while True:
                await self._write_next()
        finally:
            self._task = None  # a later submit starts a new writer

    async def _write_next(self) -> None:
        if not self._pending and not self._runs and not self._outbox:
            self._wake.clear()
            self._idle = True
            await self._wake.wait()
            self._idle = False
            self._limit = self._first  # the next burst starts small again
            return
        batch = self._inflight = self._take_answers()
        runs = self._take_runs(MAX_RUNS if batch else IDLE_RUNS)
        began = time.perf_counter()
        outbox, self._outbox = self._outbox, []
        ops = [op for _, _, run_ops in runs.values() for op in run_ops] + [op for own, _ in outbox for op in own]
        names = _players(batch)
        try:
            landed = await self._commit_batch(batch, names, [values for values, _, _ in runs.values()], ops)
        except Exception as error:
            log.error("storing %d answers and %d run states failed: %s", len(batch), len(runs), error)
            self._resolve(batch, runs, outbox, error=error)
        else:
            self.batches += 1
            self.times.add(time.perf_counter() - began)
            if names and self.names_stored is not None:
                self.names_stored(names)
            self._resolve(batch, runs, outbox, landed)
        finally:
            self._inflight = []
        self._settle(len(batch))
        if self.between_batches is not None:
            chore, self.between_batches = self.between_batches, None
            await chore()

    async def _commit_batch(
        self, batch: list[_Pending], names: list[tuple], runs: list[tuple], ops: list[tuple]
    ) -> list[bool]:
        """`commit` with the batch's new answers and its replacements apart; per item, whether it landed."""
        rows = [p.values for p in batch if not p.replace]
        replaced = [p.values for p in batch if p.replace]
        landed = iter(await self.commit(rows, names, runs, ops, replaced))
        return [True if p.replace else next(landed) for p in batch]

    async def commit(
        self,
        rows: list[tuple],
        players: list[tuple],
        runs: list[tuple],
        outbox: list[tuple],
        replaced: list[tuple] | None = None,
    ) -> list[bool]:
        """Store the answer rows, player names, run states and outbox ops (`outbox_ops`) in one
        transaction; per row, True if it landed, False if that player had already answered.
        `replaced`: answer rows stored over the same player's answer to that question (the later
        of two in the list wins), after the new ones."""
        raise NotImplementedError

    def _take_answers(self) -> list[_Pending]:
        """The oldest answers waiting, up to the limit; a full batch doubles it (FIRST_BATCH)."""
        limit = self._limit
        batch = self._pending[:limit]
        del self._pending[:limit]
        if len(batch) == limit:
            self._limit = min(self._max_batch, limit * 2)
        return batch

    def _take_runs(self, limit: int) -> dict[int, tuple[tuple, list[asyncio.Future], list[tuple]]]:
        """The oldest run states, `limit` a batch. A question's close summarises its answers for
        the boards and stores the review cards of those who missed it: 2 to 3 ms on SQLite for
        a question 50 players answered. A press waits for the batch in flight, then its own,
        so every close in a batch is a wait: at 5,000 presses a second, 60 closes in one batch
        took 20 to 35 ms; at 3,000, four took 6 to 15 ms and one 2 to 3 (`quizhost bench`).

        A batch with no answer in it has nobody waiting behind its closes, so it takes up to
        `IDLE_RUNS`: one close a transaction cost a whole play a third of its throughput. A
        press that arrives meanwhile waits for at most eight closes: in the bench's rate phase
        such a batch took 2.2 ms at the median and 3.7 at p90 (docs/PERFORMANCE.md)."""
        if len(self._runs) <= limit:
            runs, self._runs = self._runs, {}
            return runs
        ids = list(self._runs)[:limit]
        return {run_id: self._runs.pop(run_id) for run_id in ids}

    @staticmethod
    def _resolve(
        batch: list[_Pending],
        runs: dict,
        outbox: list,
        landed: list[bool] | None = None,
        error: Exception | None = None,
    ) -> None:
        for i, item in enumerate(batch):
            if item.future.done():
                continue
            if error is not None or landed is None:
                item.future.set_exception(error or RuntimeError("a batch ended with neither result nor error"))
            else:
                item.future.set_result(landed[i])
        others = [f for _, futures, _ in runs.values() for f in futures] + [f for _, f in outbox]
        for future in others:
            if not future.done():
                future.set_exception(error) if error else future.set_result(None)

    def _settle(self, count: int) -> None:
        # after the presses' own futures: a waiting close runs after those presses resumed
        self.settled += count
        if self._settle_waiters:
            ready = [w for t, w in self._settle_waiters if t <= self.settled]
            self._settle_waiters = [(t, w) for t, w in self._settle_waiters if t > self.settled]
            for waiter in ready:
                if not waiter.done():
                    waiter.set_result(None)


def _players(batch: list[_Pending]) -> list[tuple]:
    """The changed names in the batch, the latest per player (an upsert touches a row once)."""
    return list({p.player[0]: p.player for p in batch if p.player is not None}.values())


class CommitTimes:
    """A histogram of commit durations in seconds, as Prometheus buckets it (cumulative counts
    per upper bound), kept here so the store needs no metrics library."""

    BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

    def __init__(self) -> None:
        self.counts = [0] * len(self.BOUNDS)  # commits at or under each bound (not cumulative)
        self.count = 0
        self.total = 0.0

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        for i, bound in enumerate(self.BOUNDS):
            if seconds <= bound:
                self.counts[i] += 1
                break

    def buckets(self) -> list[tuple[str, int]]:
        """(upper bound, commits at or under it) cumulative, ending with +Inf."""
        running, out = 0, []
        for bound, n in zip(self.BOUNDS, self.counts):
            running += n
            out.append((repr(bound), running))
        return [*out, ("+Inf", self.count)]


class StoredNames:
    """The display names known to be stored, so a press does not write an unchanged name again."""

    def __init__(self, limit: int = NAME_CACHE) -> None:
        self._names: dict[str, str] = {}  # player key -> last stored name
        self._limit = limit

    def is_current(self, player: Player) -> bool:
        return self._names.get(player.key) == player.name

    def remember(self, key: str, name: str) -> None:
        if len(self._names) >= self._limit:  # bounded: a miss only costs one more upsert
            self._names.clear()
        self._names[key] = name

    def submit(
        self, writer: GroupCommit, answer: AnswerRow, player: Player | None, replace: bool = False
    ) -> asyncio.Future:
        """Queue the answer, with the player's name when it changed; remembered once its batch
        is stored (`stored`, which the store makes the writer's `names_stored`: one call a
        batch, where a done-callback a press cost a closure and a loop callback each)."""
        key = answer.player_key  # the same string object as the answer's: one copy in memory
        if player is None or self._names.get(key) == player.name:
            return writer.submit(answer, None, replace)
        return writer.submit(answer, (key, player.platform, player.user_id, player.name), replace)

    def stored(self, players: list[tuple]) -> None:
        """The names of a committed batch, as (key, platform, user_id, name)."""
        for key, _, _, name in players:
            self.remember(key, name)


class GroupCommitAnswers:
    """The answer half of a store that commits answers in groups: both stores delegate the same
    way to their writer (a `GroupCommit`) and their cache of stored names."""

    writer: GroupCommit
    _names: StoredNames

    async def insert_answer(self, answer: AnswerRow) -> bool:
        """Store one answer; False when this player already answered this question."""
        return await self.submit_answer(answer)

    def submit_answer(self, answer: AnswerRow, player: Player | None = None) -> asyncio.Future:
        """Queue an answer (and the player's current name) for the next group commit.

        The future is True once the answer is committed, False if this player had already
        answered this question, and an exception if the commit failed (nothing was stored).
        """
        return self._names.submit(self.writer, answer, player)

    def submit_picks(self, answer: AnswerRow, player: Player | None = None) -> asyncio.Future:
        """Queue an answer that replaces the player's stored one to that question (a toggle of
        a select-all-that-apply question); the future is True once committed."""
        return self._names.submit(self.writer, answer, player, replace=True)

    @property
    def commits(self) -> int:
        return self.writer.batches

    @property
    def answers_submitted(self) -> int:
        """A ticket for every answer submitted so far; see `answers_settled`."""
        return self.writer.submitted

    async def answers_settled(self, ticket: int) -> None:
        """Wait until the answers up to `ticket` are committed (or have failed)."""
        await self.writer.wait_settled(ticket)
