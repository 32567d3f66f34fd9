"""Group commit for answers and run states: many presses, one transaction, each acknowledged
after its commit.

Committing every answer alone costs a round trip to the aiosqlite thread and a WAL commit per
press; that caps a bot at a few thousand presses a second. Here one writer task takes every
answer waiting at that moment (up to `max_batch`), writes them and the changed player names in
one transaction, commits, and only then resolves each press's future. While a batch commits,
the next one gathers by itself: no timer, so a lone press is written at once. Run states
(`save_run`) ride in the same transactions: a thousand questions closing at one deadline cost
a few commits, not a thousand, and the presses queued behind them do not wait for each one.

A batch goes to SQLite as one JSON parameter (`json_each`), not through `executemany`: the
sqlite3 module takes the GIL back after every row's step, and with the event loop busy on the
other thread each take can wait for the interpreter's switch interval (5 ms). Profiling showed
the loop idle a third of the time waiting for commits slowed that way; one statement per
batch takes the GIL back once. The batch runs as one function on aiosqlite's thread through
`Connection._execute`, aiosqlite's own (private) way to do that: pinned by `aiosqlite~=0.21`
in pyproject.toml, and every test that stores an answer goes through it.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from dataclasses import dataclass

import aiosqlite

from bot.records import AnswerRow

log = logging.getLogger("quizhost.storage")

MAX_BATCH = 2000  # bounds one transaction's time, so a huge burst cannot stall other queries
MAX_RUNS = 4  # run states per transaction (see AnswerWriter._take_runs)

INSERT_ANSWER = (
    "INSERT OR IGNORE INTO answers(run_id, idx, question_id, player_key, chat_key, quiz_id, "
    "option, correct, elapsed, points, streak, answered_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)
UPSERT_PLAYER = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
)
_COLUMNS = ("run_id, idx, question_id, player_key, chat_key, quiz_id, option, correct, elapsed, "
            "points, streak, answered_at")
INSERT_ANSWERS_JSON = (
    f"INSERT OR IGNORE INTO answers({_COLUMNS}) SELECT "
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(12))
    + " FROM json_each(?)"
)
_RUN_FIELDS = ("status", "phase", "idx", "asked_at", "due", "message_id", "silent")
UPDATE_RUNS_JSON = (
    "UPDATE runs SET "
    + ", ".join(f"{name} = json_extract(j.value, '$[{i}]')" for i, name in enumerate(_RUN_FIELDS))
    + ", ended_at = COALESCE(runs.ended_at, json_extract(j.value, '$[7]')) "
    "FROM json_each(?) AS j WHERE runs.id = json_extract(j.value, '$[8]')"
)
UPSERT_PLAYERS_JSON = (
    "INSERT INTO players(key, platform, user_id, name, updated_at) SELECT "
    + ", ".join(f"json_extract(value, '$[{i}]')" for i in range(4))
    + ", ? FROM json_each(?) WHERE true "  # WHERE: SQLite's rule for an upsert after a SELECT
    "ON CONFLICT(key) DO UPDATE SET name=excluded.name, updated_at=excluded.updated_at"
)


def answer_values(a: AnswerRow) -> tuple:
    return (a.run_id, a.index, a.question_id, a.player_key, a.chat_key, a.quiz_id, a.option,
            int(a.correct), a.elapsed, a.points, a.streak, a.answered_at)


@dataclass(slots=True)
class _Pending:
    values: tuple  # the answer row's column values
    player: tuple | None  # (key, platform, user_id, name) when the stored name must change
    future: asyncio.Future


class AnswerWriter:
    """The single writer of answers on one aiosqlite connection."""

    def __init__(self, db: aiosqlite.Connection, max_batch: int = MAX_BATCH) -> None:
        self._db = db
        self._max_batch = max_batch
        self._pending: list[_Pending] = []
        self._inflight: list[_Pending] = []  # the batch being committed now
        self._runs: dict[int, tuple[tuple, list[asyncio.Future]]] = {}  # run id -> latest state, waiters
        self._wake = asyncio.Event()
        self._idle = False  # the writer task waits for work
        self._task: asyncio.Task | None = None
        self.batches = 0  # commits made, for the bench and the tests
        self.submitted = 0  # answers queued so far: the ticket of the latest one
        self.settled = 0  # answers whose batch is done (committed or failed), in queue order
        self._settle_waiters: list[tuple[int, asyncio.Future]] = []

    def submit(self, answer: AnswerRow, player: tuple | None = None) -> asyncio.Future:
        """Queue one answer; the future becomes True (stored), False (already there) or an error."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(answer_values(answer), player, future))
        self.submitted += 1
        self._kick()
        return future

    def submit_run(self, values: tuple) -> asyncio.Future:
        """Queue a run's state (the columns of UPDATE_RUNS_JSON, id last); done once committed.

        A later state of the same run replaces a queued one: the update sets absolute values.
        """
        future = asyncio.get_running_loop().create_future()
        _, waiters = self._runs.get(values[-1], ((), []))
        waiters.append(future)
        self._runs[values[-1]] = (values, waiters)
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
        waiting += [f for _, futures in self._runs.values() for f in futures]
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
        if not self._pending and not self._runs:
            self._wake.clear()
            self._idle = True
            await self._wake.wait()
            self._idle = False
            return
        batch = self._inflight = self._pending[: self._max_batch]
        del self._pending[: self._max_batch]
        runs = self._take_runs(MAX_RUNS if batch else len(self._runs))
        try:
            # the whole batch is one call into the connection's thread: one hop, one commit
            landed = await self._db._execute(_write_batch, self._db._conn, *_encode(batch, runs))
        except Exception as error:  # noqa: BLE001 - every waiting caller must hear about it
            log.error("storing %d answers and %d run states failed: %s", len(batch), len(runs), error)
            self._resolve(batch, runs, error=error)
        else:
            self.batches += 1
            self._resolve(batch, runs, landed)
        finally:
            self._inflight = []
        self._settle(len(batch))

    def _take_runs(self, limit: int) -> dict[int, tuple[tuple, list[asyncio.Future]]]:
        """The oldest run states, only a few when presses share the batch: a question's close
        summarises its answers for the boards (a fraction of a millisecond each), and a whole
        deadline's worth of closes in one transaction would hold up the presses in it."""
        if len(self._runs) <= limit:
            runs, self._runs = self._runs, {}
            return runs
        ids = list(self._runs)[:limit]
        return {run_id: self._runs.pop(run_id) for run_id in ids}

    @staticmethod
    def _resolve(batch: list[_Pending], runs: dict, landed: list[bool] | None = None,
                 error: Exception | None = None) -> None:
        for i, item in enumerate(batch):
            if not item.future.done():
                item.future.set_exception(error) if error else item.future.set_result(landed[i])
        for _, futures in runs.values():
            for future in futures:
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


def _encode(batch: list[_Pending], runs: dict) -> tuple[str, str | None, str | None, list[tuple]]:
    """The batch as JSON parameters, made on the event loop's thread."""
    rows = [p.values for p in batch]
    players = {p.player[0]: p.player for p in batch if p.player is not None}
    return (json.dumps(rows), json.dumps(list(players.values())) if players else None,
            json.dumps([values for values, _ in runs.values()]) if runs else None, rows)


def _write_batch(conn: sqlite3.Connection, rows_json: str, players_json: str | None, runs_json: str | None,
                 rows: list[tuple]) -> list[bool]:
    """Runs on the aiosqlite thread: players, run states and answers in one transaction."""
    if conn.in_transaction:  # another method's single statement awaiting its commit: keep it
        conn.commit()
    try:
        _write_players_and_runs(conn, players_json, runs_json)
        # rowcount counts the answers that landed, not the rows the board trigger touched
        if not rows or conn.execute(INSERT_ANSWERS_JSON, (rows_json,)).rowcount == len(rows):
            conn.commit()
            return [True] * len(rows)
        # someone's answer was already there (rare: the engine checks in memory first):
        # undo, and insert row by row to tell which
        conn.rollback()
        _write_players_and_runs(conn, players_json, runs_json)
        landed = [conn.execute(INSERT_ANSWER, row).rowcount == 1 for row in rows]
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return landed


def _write_players_and_runs(conn: sqlite3.Connection, players_json: str | None, runs_json: str | None) -> None:
    conn.execute("BEGIN")
    if players_json is not None:
        conn.execute(UPSERT_PLAYERS_JSON, (time.time(), players_json))
    if runs_json is not None:
        conn.execute(UPDATE_RUNS_JSON, (runs_json,))
