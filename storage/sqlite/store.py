"""The SQLite implementation of the Store port (bot/ports/store/): WAL, migrations, runs, answers, boards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from bot.domain.deck import Misses
from bot.domain.model import ChatRef, Player, PlayerStats, Standing
from bot.domain.records import AnswerRow, ChatQuizRow, ChatSettings, OutboxMessage, Phase, RunRow, RunStatus
from bot.domain.scoring import Scoring
from bot.ports.store import CHAT_SETTINGS, RunAlreadyOpen
from storage.shared import boards, outbox
from storage.shared.assignments import AssignmentQueries
from storage.shared.awaited import AwaitedQueries
from storage.shared.chat_settings import SETTING_COLUMNS, settings_from
from storage.shared.drafts import DraftQueries
from storage.shared.extra_time import ExtraTimeQueries
from storage.shared.group_commit import (
    GroupCommitAnswers,
    StoredNames,
    outbox_ops,
    outbox_update,
    review_ops,
    run_state,
)
from storage.shared.host_panels import HostPanelQueries
from storage.shared.interactions import CLAIM_SQLITE as CLAIM_INTERACTIONS
from storage.shared.interactions import InteractionClaims
from storage.shared.learning import LearningQueries
from storage.shared.media import MediaIds
from storage.shared.review import ReviewQueries
from storage.shared.statistics import StatisticsQueries
from storage.shared.tables import ANSWER_COLUMNS, CHAT_QUIZ_COLUMNS, PARTLY_RIGHT
from storage.shared.teams import TeamQueries
from storage.shared.updates import CLAIM_SECONDS, CLAIM_SQLITE, FINISH, UpdateClaims
from storage.shared.web import WebQueries
from storage.sqlite import guard, moves
from storage.sqlite.checkpoint import Checkpointer
from storage.sqlite.connection import SqliteConnection, Written
from storage.sqlite.schema import MIGRATIONS
from storage.sqlite.writer import UPSERT_PLAYER, AnswerWriter

log = logging.getLogger("quizhost.storage")

_RUN_COLUMNS = (
    "id, chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
    "started_at, status, phase, idx, asked_at, due, message_id, silent, board_chat, "
    "host_key, paused_left, hint_at, skipped, time_factor, scoring, streaks, board_end, min_age"
)


class SqliteStore(
    GroupCommitAnswers,
    WebQueries,
    LearningQueries,
    AssignmentQueries,
    TeamQueries,
    ExtraTimeQueries,
    HostPanelQueries,
    StatisticsQueries,
    ReviewQueries,
    UpdateClaims,
    InteractionClaims,
    MediaIds,
    DraftQueries,
    AwaitedQueries,
):
    """The Store port on one SQLite file in WAL mode; every write is committed before its method returns."""

    writer: AnswerWriter

    def __init__(self, db: SqliteConnection, path: str, lock: guard.ProcessLock | None = None) -> None:
        self._db = db
        self.path = path
        self._lock = lock  # one process per file (storage/sqlite/guard.py)
        self._identity = guard.FileIdentity.of(path) if guard.is_file_database(path) else None
        self._names = StoredNames()  # to skip writing unchanged player names
        self._chats: set[str] = set()
        self.writer = AnswerWriter(db)  # answers are committed in groups, see storage/sqlite/writer.py
        self.writer.names_stored = self._names.stored
        self.writes = 0  # statements committed outside the writer, for the checkpointer
        self.checkpointer = Checkpointer(
            path, lambda: self.writes + self.writer.batches, restart=self.writer.checkpoint_between_batches
        )
        self._identify: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (and migrate) the file; StoreUnavailable, in one line naming QUIZHOST_DB, when it
        cannot be used: garbage, unwritable, from a newer quizhost, or held by another process."""
        path = str(path)
        lock = guard.ProcessLock(path) if guard.is_file_database(path) else None
        if lock is not None:
            lock.acquire()
        try:
            return await cls._open(path, lock)
        except (sqlite3.Error, OSError) as exc:
            if lock is not None:
                lock.release()
            raise guard.opening_problem(path, exc) from None
        except BaseException:
            if lock is not None:
                lock.release()
            raise

    @classmethod
    async def _open(cls, path: str, lock: guard.ProcessLock | None) -> SqliteStore:
        # WAL lets leaderboard reads run beside answer writes; NORMAL sync in WAL mode
        # keeps every commit across a process crash (only power loss can cost the last ones).
        # Checkpoints run on their own connection, not inside an answer commit (wal_autocheckpoint=0):
        # storage/sqlite/checkpoint.py
        db = await SqliteConnection.open(
            path,
            "journal_mode=WAL",
            "synchronous=NORMAL",
            "foreign_keys=ON",
            "busy_timeout=5000",
            "wal_autocheckpoint=0",
        )
        try:
            store = cls(db, path, lock)
            await store._migrate()
            await store.writer.prepare()
            await store.checkpointer.start()
        except BaseException:
            await db.close()  # aiosqlite's thread must not keep the process alive
            raise
        return store

    async def close(self) -> None:
        """Every connection is closed whatever fails: aiosqlite's threads are not daemons, and
        one left running would keep the process from exiting."""
        try:
            await self.writer.close()
        finally:
            try:
                await self.checkpointer.close()
            finally:
                try:
                    await self._db.close()  # the last connection to close checkpoints the rest and drops the WAL
                finally:
                    if self._lock is not None:
                        self._lock.release()

    @contextlib.asynccontextmanager
    async def identify_lock(self, bucket: int) -> AsyncIterator[None]:
        async with self._identify[bucket]:  # one process per file: a lock in this process is enough
            yield

    async def hold_polling(self) -> bool:
        return True  # one process per file (storage/sqlite/guard.py): nobody else polls on it

    async def watch(self) -> None:
        """Return never; raise StoreUnavailable when the file is deleted or replaced (the wiring
        runs this beside the bot, which then stops with that one line)."""
        if self._identity is None:
            await asyncio.Event().wait()
        await guard.watch(self.path, self._identity)

    async def _write(self, sql: str, args: tuple[Any, ...] | dict[str, Any]) -> Written:
        """One statement, its own transaction (storage/sqlite/connection.py): committed in one hop."""
        self.writes += 1
        return await self._db.write(sql, args)

    async def _one(self, sql: str, args: tuple[Any, ...] | dict[str, Any] = ()) -> tuple[Any, ...]:
        """The row of a query that always has one (an aggregate, a PRAGMA)."""
        row = await self._db.fetchone(sql, args)
        if row is None:
            raise RuntimeError(f"no row from {sql[:60]!r}")
        return row

    # the statements of storage/shared/web.py, storage/shared/learning.py and storage/shared/statistics.py
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple[Any, ...]]:
        return await self._db.fetchall(sql, args)

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        return (await self._write(sql, args)).rows

    async def _insert_new(self, update_ids: list[int], now: float, finished: list[int]) -> set[int]:
        self.writes += 1
        async with self._db.transaction() as (conn, _):  # the finishes first, one commit for the round
            await conn.executemany(FINISH, [(update_id,) for update_id in finished])
            args = (now, self.sqlite_holder(), now + CLAIM_SECONDS, json.dumps(update_ids))
            rows = await conn.execute_fetchall(CLAIM_SQLITE, args)
        return {update_id for (update_id,) in rows}

    async def _insert_interactions(self, interaction_ids: list[int], now: float) -> set[int]:
        self.writes += 1
        async with self._db.transaction() as (conn, _):
            rows = await conn.execute_fetchall(CLAIM_INTERACTIONS, (now, json.dumps(interaction_ids)))
        return {interaction_id for (interaction_id,) in rows}

    async def _insert_id(self, sql: str, args: dict[str, Any]) -> int:
        rowid = (await self._write(sql, args)).rowid
        if rowid is None:
            raise RuntimeError(f"no row id from {sql[:60]!r}")
        return rowid

    async def _migrate(self) -> None:
        (current,) = await self._one("PRAGMA user_version")
        if current > len(MIGRATIONS):
            raise guard.newer_schema(self.path, current, len(MIGRATIONS))
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            log.info("applying schema migration %d", number)
            await self._db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")

    async def schema_version(self) -> int:
        return int((await self._one("PRAGMA user_version"))[0])

    # chats and players -------------------------------------------------------------

    async def ensure_chat(self, chat: ChatRef) -> None:
        if chat.key in self._chats:
            return
        await self._write(
            "INSERT INTO chats(key, platform, chat_id, title, is_private, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET title=excluded.title",
            (chat.key, chat.platform, chat.chat_id, chat.title, int(chat.is_private), time.time()),
        )
        self._chats.add(chat.key)

    async def chat_settings(self, chat_key: str) -> ChatSettings:
        row = await self._db.fetchone(f"SELECT {', '.join(SETTING_COLUMNS)} FROM chats WHERE key=?", (chat_key,))
        return ChatSettings() if row is None else settings_from(row)

    async def update_chat_settings(self, chat: ChatRef, **fields: object) -> None:
        """Set the chat settings named in CHAT_SETTINGS (bot/ports/store.py)."""
        if not fields or not set(fields) <= CHAT_SETTINGS:
            raise ValueError(f"unknown chat settings: {sorted(set(fields) - CHAT_SETTINGS)}")
        await self.ensure_chat(chat)
        assignments = ", ".join(f"{name}=?" for name in fields)
        await self._write(f"UPDATE chats SET {assignments} WHERE key=?", (*fields.values(), chat.key))

    async def move_chat(self, old_key: str, new: ChatRef) -> None:
        """The chat got a new id: its runs, answers, boards and settings go with it."""
        self.writes += 1
        await moves.move_chat(self._db, old_key, new.key, new.chat_id)
        self._chats.discard(old_key)

    async def ensure_player(self, player: Player) -> None:
        """Store the player, keeping the display name current (writes only on a change)."""
        if self._names.is_current(player):
            return
        await self._write(UPSERT_PLAYER, (player.key, player.platform, player.user_id, player.name, time.time()))
        self._names.remember(player.key, player.name)

    async def player_names(self, keys: set[str]) -> dict[str, str]:
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        rows = await self._db.fetchall(f"SELECT key, name FROM players WHERE key IN ({marks})", tuple(keys))
        return dict(rows)

    # runs ---------------------------------------------------------------------------

    async def create_run(self, run: RunRow) -> int:
        try:
            written = await self._write(
                "INSERT INTO runs(chat_key, quiz_id, language, seed, question_ids, seconds, pause, "
                "started_by, started_at, status, phase, idx, asked_at, due, message_id, silent, board_chat, "
                "host_key, paused_left, hint_at, skipped, time_factor, scoring, streaks, board_end, min_age) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run.chat_key,
                    run.quiz_id,
                    run.language,
                    run.seed,
                    json.dumps(run.question_ids),
                    run.seconds,
                    run.pause,
                    run.started_by,
                    run.started_at,
                    run.status,
                    run.phase,
                    run.index,
                    run.asked_at,
                    run.due,
                    run.message_id,
                    run.silent,
                    run.board_chat,
                    run.host_key,
                    run.paused_left,
                    run.hint_at,
                    json.dumps(run.skipped),
                    run.time_factor,
                    run.scoring,
                    int(run.streaks),
                    int(run.board_end),
                    run.min_age,
                ),
            )
        except sqlite3.IntegrityError as error:
            if "runs.chat_key" in str(error):  # the index runs_one_open_per_chat
                raise RunAlreadyOpen(run.chat_key) from error
            raise
        assert written.rowid is not None
        return written.rowid

    async def save_run(
        self,
        run: RunRow,
        send: Sequence[OutboxMessage] = (),
        done: Sequence[str] = (),
        missed: Misses | None = None,
    ) -> None:
        """Persist the moving parts of a run: phase, question, deadline, message, status.

        Committed with the next group of answers (see storage/sqlite/writer.py) before it returns.
        """
        await self.writer.submit_run(run_state(run), outbox_ops(send, done) + review_ops(missed))

    async def outbox(self) -> list[OutboxMessage]:
        return [outbox.message(row) for row in await self._db.fetchall(outbox.SELECT)]

    async def outbox_update(self, message: OutboxMessage) -> None:
        await self.writer.submit_outbox([outbox_update(message)])

    async def outbox_remove(self, keys: Sequence[str]) -> None:
        await self.writer.submit_outbox(outbox_ops(done=keys))

    async def open_runs(self) -> list[RunRow]:
        sql = (
            f"SELECT {', '.join('r.' + c.strip() for c in _RUN_COLUMNS.split(','))}, "
            "c.chat_id, c.platform, c.is_private FROM runs r JOIN chats c ON c.key = r.chat_key "
            "WHERE r.status = 'open' ORDER BY r.id"
        )
        return [_run_from_row(row) for row in await self._db.fetchall(sql)]

    async def run_status(self, run_id: int) -> RunStatus | None:
        row = await self._db.fetchone("SELECT status FROM runs WHERE id=?", (run_id,))
        return RunStatus(row[0]) if row else None

    # answers ------------------------------------------------------------------------

    async def run_answers(self, run_id: int) -> list[AnswerRow]:
        sql = f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE run_id=? ORDER BY idx, answered_at"
        rows = await self._db.fetchall(sql, (run_id,))
        return [AnswerRow.from_values(r) for r in rows]

    async def discard_answers(self, run_id: int, index: int) -> None:
        await self._write("DELETE FROM answers WHERE run_id=? AND idx=?", (run_id, index))

    async def run_partly_right(self, run_id: int) -> list[AnswerRow]:
        sql = f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE {PARTLY_RIGHT} ORDER BY idx, answered_at"
        return [AnswerRow.from_values(r) for r in await self._db.fetchall(sql.replace(":run", "?"), (run_id,))]

    # boards -------------------------------------------------------------------------

    async def leaderboard(
        self,
        chat_key: str,
        since: float | None = None,
        quiz_id: str | None = None,
        top: int | None = None,
        player_key: str | None = None,
    ) -> list[Standing]:
        """Every player of the chat ranked: points, then right answers, then who came first.

        A top and the caller's place read the summary kept in rank order (all time, this week,
        this month) or the summaries of closed questions, plus the open runs' answers
        (storage/shared/boards.py, ranks.py)."""
        if top is not None:
            return await boards.read_top(self._fetch, chat_key, since, quiz_id, top, player_key)
        rows = await self._db.fetchall(*boards.ranked(chat_key, since, quiz_id))
        return [Standing(i, key, name, pts, ok, n) for i, (key, name, pts, ok, n, _) in enumerate(rows, 1)]

    async def board_size(self, chat_key: str, since: float | None = None, quiz_id: str | None = None) -> int:
        return await boards.read_size(self._fetch, chat_key, since, quiz_id)

    async def run_standings(self, run_id: int) -> list[Standing]:
        sql = (
            "SELECT a.player_key, COALESCE(p.name, a.player_key), SUM(a.points), SUM(a.correct), "
            "SUM(a.scored), MIN(a.answered_at) AS first FROM answers a "
            "LEFT JOIN players p ON p.key = a.player_key WHERE a.run_id=? "
            "GROUP BY a.player_key, p.name ORDER BY 3 DESC, 4 DESC, first ASC, a.player_key"
        )
        rows = await self._db.fetchall(sql, (run_id,))
        return [Standing(i, key, name, pts, ok, n) for i, (key, name, pts, ok, n, _) in enumerate(rows, 1)]

    async def player_stats(self, chat_key: str, player: Player) -> PlayerStats:
        points, answered, correct, best = await self._one(*boards.player_totals(chat_key, player.key))
        # the player's answers index holds run_id (the key of a WITHOUT ROWID table): no table reads
        sql = "SELECT COUNT(DISTINCT run_id) FROM answers WHERE chat_key=? AND player_key=?"
        (quizzes,) = await self._one(sql, (chat_key, player.key))
        rank = await boards.rank_of(self._fetch, chat_key, player.key) if answered else None
        return PlayerStats(player.name, points, answered, correct, best, quizzes, rank)

    # chat quizzes -------------------------------------------------------------------

    async def save_chat_quiz(self, quiz: ChatQuizRow) -> None:
        await self._write(
            "INSERT INTO chat_quizzes(chat_key, quiz_id, content, uploaded_by, uploaded_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(chat_key, quiz_id) DO UPDATE SET content=excluded.content, "
            "uploaded_by=excluded.uploaded_by, uploaded_at=excluded.uploaded_at",
            (quiz.chat_key, quiz.quiz_id, quiz.content, quiz.uploaded_by, quiz.uploaded_at),
        )

    async def chat_quiz(self, chat_key: str, quiz_id: str) -> ChatQuizRow | None:
        row = await self._db.fetchone(
            f"SELECT {CHAT_QUIZ_COLUMNS} FROM chat_quizzes WHERE chat_key=? AND quiz_id=?", (chat_key, quiz_id)
        )
        return ChatQuizRow(*row) if row else None

    async def chat_quizzes(self, chat_key: str) -> list[ChatQuizRow]:
        sql = f"SELECT {CHAT_QUIZ_COLUMNS} FROM chat_quizzes WHERE chat_key=? ORDER BY quiz_id"
        rows = await self._db.fetchall(sql, (chat_key,))
        return [ChatQuizRow(*row) for row in rows]

    async def delete_chat_quiz(self, chat_key: str, quiz_id: str) -> bool:
        written = await self._write("DELETE FROM chat_quizzes WHERE chat_key=? AND quiz_id=?", (chat_key, quiz_id))
        return written.rows > 0


def _run_from_row(row: Sequence[Any]) -> RunRow:
    (
        run_id,
        chat_key,
        quiz_id,
        language,
        seed,
        question_ids,
        seconds,
        pause,
        started_by,
        started_at,
        status,
        phase,
        idx,
        asked_at,
        due,
        message_id,
        silent,
        board_chat,
        host_key,
        paused_left,
        hint_at,
        skipped,
        time_factor,
        scoring,
        streaks,
        board_end,
        min_age,
        chat_id,
        platform,
        is_private,
    ) = row
    return RunRow(
        chat_key=chat_key,
        chat_id=chat_id,
        platform=platform,
        is_private=bool(is_private),
        quiz_id=quiz_id,
        language=language,
        seed=seed,
        question_ids=tuple(json.loads(question_ids)),
        seconds=seconds,
        pause=pause,
        started_by=started_by,
        started_at=started_at,
        phase=Phase(phase),
        index=idx,
        asked_at=asked_at,
        due=due,
        message_id=message_id,
        silent=silent,
        status=RunStatus(status),
        id=run_id,
        board_chat=board_chat,
        host_key=host_key,
        paused_left=paused_left,
        hint_at=hint_at,
        skipped=tuple(json.loads(skipped)),
        time_factor=time_factor,
        scoring=Scoring(scoring),
        streaks=bool(streaks),
        board_end=bool(board_end),
        min_age=min_age,
    )
