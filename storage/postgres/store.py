"""The asyncpg store: the same operations and behaviour as the SQLite store, on PostgreSQL.

Writes of answers and run states go through group commit (storage/postgres/writer.py); the other
writes are single statements, committed before they return. The boards run the SQL of
storage/shared/boards.py, its named parameters numbered for PostgreSQL.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence

import asyncpg

from bot.domain.deck import Misses
from bot.domain.model import ChatRef, Player, PlayerStats, Standing
from bot.domain.records import AnswerRow, ChatQuizRow, ChatSettings, OutboxMessage, PressFacts, RunRow, RunStatus
from bot.ports.store import CHAT_SETTINGS, RunAlreadyOpen
from storage.dburl import SETTING, StoreUnavailable, masked, scrub
from storage.postgres import leases as pg_leases
from storage.postgres import moves as pg_moves
from storage.postgres import presence as pg_presence
from storage.postgres import presses as pg_presses
from storage.postgres import updates as pg_updates
from storage.postgres import wakeups as pg_wakeups
from storage.postgres.connection import open_pool
from storage.postgres.live import PostgresLive
from storage.postgres.rows import RUN_COLUMNS, connect_problem, numbered, run_from_row
from storage.postgres.schema import MIGRATIONS
from storage.postgres.writer import UPSERT_PLAYER, PgAnswerWriter
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
from storage.shared.interactions import CLAIM_POSTGRES as CLAIM_INTERACTIONS
from storage.shared.interactions import InteractionClaims
from storage.shared.learning import LearningQueries
from storage.shared.media import MediaIds
from storage.shared.review import ReviewQueries
from storage.shared.statistics import StatisticsQueries
from storage.shared.tables import ANSWER_COLUMNS, CHAT_QUIZ_COLUMNS, PARTLY_RIGHT
from storage.shared.teams import TeamQueries
from storage.shared.updates import UpdateClaims
from storage.shared.web import WebQueries

POOL_SIZE = 10
CONNECT_SECONDS = 10
MIGRATION_LOCK = 0x71756978  # advisory lock id: workers starting together migrate one at a time
IDENTIFY_LOCK = 0x71756964  # advisory lock class (with the bucket): Discord identifies one at a time
POLLING_LOCK = 0x71757064  # advisory lock id: the one worker that long-polls Telegram holds it

OPEN_RUNS = f"SELECT {RUN_COLUMNS} FROM runs r JOIN chats c ON c.key = r.chat_key WHERE r.status = 'open'"

log = logging.getLogger("quizhost.storage")


async def _no_session_state(conn: asyncpg.Connection) -> None:
    """The pool's reset of a connection it takes back, instead of asyncpg's default reset query
    (unlock every advisory lock, CLOSE ALL, UNLISTEN *, RESET ALL): a round trip on every
    release, which a press made several times. asyncpg still rolls back an open transaction
    first. No pooled connection keeps session state: the advisory locks of identifies and
    migrations are transaction-scoped, the polling lock is held on a connection kept out of the
    pool until `close` unlocks it, the wake-up listener connects on its own, and nothing SETs.
    A connection the server dropped, which this reset would not notice, is renewed when a
    query finds it lost (storage/postgres/connection.py)."""


class PostgresStore(
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
    """One PostgreSQL database through an asyncpg pool."""

    def __init__(self, pool: asyncpg.Pool, url: str, owner: str = "") -> None:
        self._pool = pool
        self._url = url  # the wake-up listener connects on its own (storage/postgres/wakeups.py)
        self.shown = masked(url)
        self._names = StoredNames()  # to skip writing unchanged player names
        self._chats: set[str] = set()
        self.owner = pg_leases.worker_id(owner)  # this worker, in the runs it leases
        self.lease_seconds = pg_leases.LEASE_SECONDS
        self.writer = PgAnswerWriter(pool, self.owner)  # answers are committed in groups
        self.writer.names_stored = self._names.stored
        self._poller: asyncpg.pool.PoolConnectionProxy | None = None  # holds POLLING_LOCK while we poll
        self._presence = pg_presence.Presence(url)  # this worker alive, and its name held (hold_name)
        self._name_refused = False  # another live worker has our name: its leases are not ours to let go
        self._live = PostgresLive(pool, url)  # the big screen's events between workers

    @classmethod
    async def open(cls, url: str, setting: str = SETTING, owner: str = "") -> PostgresStore:
        """Connect and migrate; any failure to reach the database is one StoreUnavailable line
        that names `setting` (where the URL came from) and never the password. `owner`: this
        worker's name in the runs it leases (default: host:pid, leases.worker_id)."""
        try:
            pool = await open_pool(url, POOL_SIZE, CONNECT_SECONDS, _no_session_state)
        except Exception as exc:  # every way of failing becomes the same one clear line
            raise StoreUnavailable(f"{setting}: cannot use {masked(url)}: {scrub(connect_problem(exc), url)}") from None
        store = cls(pool, url, owner)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Commit what was submitted, let this worker's runs and owed messages go (another
        worker claims them at once rather than after their leases ran out), disconnect."""
        if self._pool.is_closing():
            return
        await self._live.close()
        await self.writer.close()
        try:
            if not self._name_refused:
                await pg_leases.release(self._pool, self.owner)
        finally:
            await self._presence.close()
            if self._poller is not None:  # no reset query lets go of the polling lock (_no_session_state)
                await self._poller.execute("SELECT pg_advisory_unlock($1)", POLLING_LOCK)
                await self._pool.release(self._poller)
                self._poller = None
            await self._pool.close()

    def live_events(self) -> PostgresLive:
        """This worker's bus of the big screen's events (bot/ports/live.py SharedLive)."""
        return self._live

    async def hold_polling(self) -> bool:
        """A session-level advisory lock on a connection of its own, kept until `close`: when
        this worker dies, its connection drops and PostgreSQL lets go of the lock."""
        if self._poller is not None:
            return True
        conn = await self._pool.acquire()
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", POLLING_LOCK):
            await self._pool.release(conn)
            return False
        self._poller = conn
        return True

    async def hold_name(self) -> bool:
        held = await self._presence.hold_name(self.owner)
        self._name_refused = not held
        return held

    @contextlib.asynccontextmanager
    async def identify_lock(self, bucket: int) -> AsyncIterator[None]:
        # transaction-scoped: PostgreSQL lets go at the commit, or when a dead worker's connection drops
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", IDENTIFY_LOCK, bucket)
            yield

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if current > len(MIGRATIONS):
                raise StoreUnavailable(
                    f"{SETTING}: {self.shown} was written by a newer quizhost (schema version "
                    f"{current}; this one knows up to {len(MIGRATIONS)}): upgrade quizhost"
                )
            for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
                log.info("applying schema migration %d", number)
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_version(version) VALUES ($1)", number)

    # the statements of storage/shared/web.py, storage/shared/learning.py and storage/shared/statistics.py
    async def _fetch(self, sql: str, args: dict) -> list[tuple]:
        return [tuple(row) for row in await self._pool.fetch(*numbered(sql, args))]

    async def _change(self, sql: str, args: dict) -> int:
        status = await self._pool.execute(*numbered(sql, args))  # "UPDATE 1", "DELETE 0", "INSERT 0 3"
        return int(status.rsplit(" ", 1)[-1])

    async def _insert_new(self, update_ids: list[int], now: float, finished: list[int]) -> set[int]:
        return await pg_updates.claim_round(self._pool, self._presence, update_ids, now, finished)

    async def claimed_elsewhere(self, update_id: int, now: float) -> bool:
        return await pg_updates.claimed_elsewhere(self._pool, self._presence, update_id, now)

    async def _insert_interactions(self, interaction_ids: list[int], now: float) -> set[int]:
        return {row[0] for row in await self._pool.fetch(CLAIM_INTERACTIONS, interaction_ids, now)}

    async def _insert_id(self, sql: str, args: dict) -> int:
        return int(await self._pool.fetchval(*numbered(sql + " RETURNING id", args)))

    async def schema_version(self) -> int:
        return await self._pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    # chats and players -------------------------------------------------------------

    async def ensure_chat(self, chat: ChatRef) -> None:
        if chat.key in self._chats:
            return
        await self._pool.execute(
            "INSERT INTO chats(key, platform, chat_id, title, is_private, created_at) VALUES ($1, $2, $3, $4, $5, $6) "
            "ON CONFLICT (key) DO UPDATE SET title = excluded.title",
            chat.key,
            chat.platform,
            chat.chat_id,
            chat.title,
            chat.is_private,
            time.time(),
        )
        self._chats.add(chat.key)

    async def chat_settings(self, chat_key: str) -> ChatSettings:
        row = await self._pool.fetchrow(f"SELECT {', '.join(SETTING_COLUMNS)} FROM chats WHERE key = $1", chat_key)
        return ChatSettings() if row is None else settings_from(row)

    async def update_chat_settings(self, chat: ChatRef, **fields: object) -> None:
        """Set the chat settings named in CHAT_SETTINGS (bot/ports/store.py)."""
        if not fields or not set(fields) <= CHAT_SETTINGS:
            raise ValueError(f"unknown chat settings: {sorted(set(fields) - CHAT_SETTINGS)}")
        await self.ensure_chat(chat)
        assignments = ", ".join(f"{name} = ${n}" for n, name in enumerate(fields, 2))
        await self._pool.execute(f"UPDATE chats SET {assignments} WHERE key = $1", chat.key, *fields.values())

    async def move_chat(self, old_key: str, new: ChatRef) -> None:
        """The chat got a new id: its runs, answers, boards and settings go with it."""
        async with self._pool.acquire() as conn:
            await pg_moves.move_chat(conn, old_key, new.key, new.chat_id)
        self._chats.discard(old_key)

    async def ensure_player(self, player: Player) -> None:
        """Store the player, keeping the display name current (writes only on a change)."""
        if self._names.is_current(player):
            return
        await self._pool.execute(UPSERT_PLAYER, player.key, player.platform, player.user_id, player.name, time.time())
        self._names.remember(player.key, player.name)

    async def player_names(self, keys: set[str]) -> dict[str, str]:
        if not keys:
            return {}
        rows = await self._pool.fetch("SELECT key, name FROM players WHERE key = ANY($1::text[])", list(keys))
        return {row["key"]: row["name"] for row in rows}

    # runs ---------------------------------------------------------------------------

    async def create_run(self, run: RunRow) -> int:
        try:
            return await self._pool.fetchval(
                "INSERT INTO runs(chat_key, quiz_id, language, seed, question_ids, seconds, pause, started_by, "
                "started_at, status, phase, idx, asked_at, due, message_id, silent, owner, lease_until, board_chat, "
                "host_key, paused_left, hint_at, skipped, time_factor, scoring, streaks, board_end, min_age) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, "
                "now() + make_interval(secs => $18), $19, $20, $21, $22, $23, $24, $25, $26, $27, $28) RETURNING id",
                run.chat_key,
                run.quiz_id,
                run.language,
                run.seed,
                list(run.question_ids),
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
                self.owner,
                self.lease_seconds,
                run.board_chat,
                run.host_key,
                run.paused_left,
                run.hint_at,
                json.dumps(run.skipped),
                run.time_factor,
                run.scoring,
                run.streaks,
                run.board_end,
                run.min_age,
            )
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name == "runs_one_open_per_chat":
                raise RunAlreadyOpen(run.chat_key) from error
            raise

    async def save_run(
        self,
        run: RunRow,
        send: Sequence[OutboxMessage] = (),
        done: Sequence[str] = (),
        missed: Misses | None = None,
    ) -> None:
        """Persist the moving parts of a run; committed with the next group of answers."""
        await self.writer.submit_run(run_state(run), outbox_ops(send, done) + review_ops(missed))

    async def outbox(self) -> list[OutboxMessage]:
        return [outbox.message(tuple(row)) for row in await self._pool.fetch(outbox.SELECT)]

    async def outbox_update(self, message: OutboxMessage) -> None:
        await self.writer.submit_outbox([outbox_update(message)])

    async def outbox_remove(self, keys: Sequence[str]) -> None:
        await self.writer.submit_outbox(outbox_ops(done=keys))

    async def open_runs(self) -> list[RunRow]:
        rows = await self._pool.fetch(f"{OPEN_RUNS} ORDER BY r.id")
        return [run_from_row(row) for row in rows]

    # leases: several workers on one database (storage/postgres/leases.py) ------------------

    async def claim_runs(self) -> list[RunRow]:
        """Open runs nobody holds (their worker died or stopped), now leased to this worker."""
        ids = await pg_leases.claim(self._pool, self.owner, self.lease_seconds)
        if not ids:
            return []
        rows = await self._pool.fetch(f"{OPEN_RUNS} AND r.id = ANY($1::bigint[]) ORDER BY r.id", ids)
        return [run_from_row(row) for row in rows]

    async def renew_leases(self, run_ids: set[int]) -> set[int]:
        """Extend this worker's leases on these runs; the ones missing from the answer are not
        this worker's any more (taken over, or over)."""
        kept = await pg_leases.renew(self._pool, self.owner, self.lease_seconds, run_ids)
        await pg_leases.renew_outbox(self._pool, self.owner, self.lease_seconds)
        return kept

    async def claim_outbox(self, own_too: bool = False) -> list[OutboxMessage]:
        return await pg_leases.claim_outbox(self._pool, self.owner, self.lease_seconds, own_too)

    async def release_leases(self) -> None:
        await pg_leases.release(self._pool, self.owner)

    async def press_facts(self, run_id: int, player_key: str, unseen_cap: int) -> PressFacts | None:
        return await pg_presses.facts(self._pool, run_id, player_key, unseen_cap)

    async def insert_answer_if_asking(
        self, answer: AnswerRow, player: Player, wake_owner: bool = True, replace: bool = False
    ) -> bool | None:
        """A press taken by a worker that does not run the quiz (storage/postgres/presses.py)."""
        return await pg_presses.insert_if_asking(
            self._pool, answer, (player.key, player.platform, player.user_id, player.name), wake_owner, replace
        )

    async def seal_question(self, run_id: int, index: int) -> list[AnswerRow]:
        return await pg_presses.seal(self._pool, self.owner, run_id, index)

    # wake-ups between workers (storage/postgres/wakeups.py) ----------------------------------

    async def listen(self, woken: Callable[[int | None], None]) -> None:
        await pg_wakeups.listen(self._url, woken)

    async def chat_run(self, chat_key: str) -> RunRow | None:
        row = await self._pool.fetchrow(f"{OPEN_RUNS} AND r.chat_key = $1", chat_key)
        return run_from_row(row) if row is not None else None

    async def request_stop(self, run_id: int, by: str) -> bool:
        return await pg_wakeups.request_stop(self._pool, run_id, by)

    async def stops_requested(self, run_ids: set[int]) -> set[int]:
        return await pg_wakeups.stops_requested(self._pool, run_ids)

    async def request_host(self, run_id: int, action: str, by: str) -> bool:
        return await pg_wakeups.request_host(self._pool, run_id, action, by)

    async def host_requests(self, run_ids: set[int]) -> list[tuple[int, str, str]]:
        return await pg_wakeups.take_host_requests(self._pool, run_ids)

    async def question_answers(self, run_id: int, index: int) -> list[AnswerRow]:
        return await pg_presses.question_answers(self._pool, run_id, index)

    async def run_status(self, run_id: int) -> RunStatus | None:
        status = await self._pool.fetchval("SELECT status FROM runs WHERE id = $1", run_id)
        return RunStatus(status) if status is not None else None

    # answers ------------------------------------------------------------------------

    async def run_answers(self, run_id: int) -> list[AnswerRow]:
        rows = await self._pool.fetch(
            f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE run_id = $1 ORDER BY idx, answered_at",
            run_id,
        )
        return [AnswerRow.from_values(r) for r in rows]

    async def discard_answers(self, run_id: int, index: int) -> None:
        await self._pool.execute("DELETE FROM answers WHERE run_id = $1 AND idx = $2", run_id, index)

    async def run_partly_right(self, run_id: int) -> list[AnswerRow]:
        sql = f"SELECT {', '.join(ANSWER_COLUMNS)} FROM answers WHERE {PARTLY_RIGHT} ORDER BY idx, answered_at"
        return [AnswerRow.from_values(r) for r in await self._pool.fetch(sql.replace(":run", "$1"), run_id)]

    # boards -------------------------------------------------------------------------

    async def leaderboard(
        self,
        chat_key: str,
        since: float | None = None,
        quiz_id: str | None = None,
        top: int | None = None,
        player_key: str | None = None,
    ) -> list[Standing]:
        """Every player of the chat ranked, from the summaries plus the open runs (boards.py, ranks.py)."""
        if top is not None:
            return await boards.read_top(self._fetch, chat_key, since, quiz_id, top, player_key)
        rows = await self._pool.fetch(*numbered(*boards.ranked(chat_key, since, quiz_id)))
        return [Standing(i, key, name, pts, ok, n) for i, (key, name, pts, ok, n, _) in enumerate(rows, 1)]

    async def board_size(self, chat_key: str, since: float | None = None, quiz_id: str | None = None) -> int:
        return await boards.read_size(self._fetch, chat_key, since, quiz_id)

    async def run_standings(self, run_id: int) -> list[Standing]:
        rows = await self._pool.fetch(
            "SELECT a.player_key, COALESCE(p.name, a.player_key), SUM(a.points), SUM(a.correct), SUM(a.scored), "
            "MIN(a.answered_at) AS first FROM answers a LEFT JOIN players p ON p.key = a.player_key "
            "WHERE a.run_id = $1 GROUP BY a.player_key, p.name ORDER BY 3 DESC, 4 DESC, first ASC, a.player_key",
            run_id,
        )
        return [Standing(i, key, name, pts, ok, n) for i, (key, name, pts, ok, n, _) in enumerate(rows, 1)]

    async def player_stats(self, chat_key: str, player: Player) -> PlayerStats:
        totals = await self._pool.fetchrow(*numbered(*boards.player_totals(chat_key, player.key)))
        assert totals is not None  # an aggregate: always one row
        points, answered, correct, best = totals
        quizzes = await self._pool.fetchval(
            "SELECT COUNT(DISTINCT run_id) FROM answers WHERE chat_key = $1 AND player_key = $2", chat_key, player.key
        )
        rank = await boards.rank_of(self._fetch, chat_key, player.key) if answered else None
        return PlayerStats(player.name, points, answered, correct, best, quizzes, rank)

    # chat quizzes -------------------------------------------------------------------

    async def save_chat_quiz(self, quiz: ChatQuizRow) -> None:
        await self._pool.execute(
            "INSERT INTO chat_quizzes(chat_key, quiz_id, content, uploaded_by, uploaded_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (chat_key, quiz_id) DO UPDATE SET content = excluded.content, "
            "uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at",
            quiz.chat_key,
            quiz.quiz_id,
            quiz.content,
            quiz.uploaded_by,
            quiz.uploaded_at,
        )

    async def chat_quiz(self, chat_key: str, quiz_id: str) -> ChatQuizRow | None:
        row = await self._pool.fetchrow(
            f"SELECT {CHAT_QUIZ_COLUMNS} FROM chat_quizzes WHERE chat_key = $1 AND quiz_id = $2", chat_key, quiz_id
        )
        return ChatQuizRow(*row) if row else None

    async def chat_quizzes(self, chat_key: str) -> list[ChatQuizRow]:
        rows = await self._pool.fetch(
            f"SELECT {CHAT_QUIZ_COLUMNS} FROM chat_quizzes WHERE chat_key = $1 ORDER BY quiz_id", chat_key
        )
        return [ChatQuizRow(*row) for row in rows]

    async def delete_chat_quiz(self, chat_key: str, quiz_id: str) -> bool:
        status = await self._pool.execute(
            "DELETE FROM chat_quizzes WHERE chat_key = $1 AND quiz_id = $2", chat_key, quiz_id
        )
        return status != "DELETE 0"
