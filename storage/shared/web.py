"""What the web pages keep: the secret their links are signed with, which chats show their
leaderboard publicly, since when a chat's links count (/dashboard revoke), who stopped a run,
and what a chat's run list, run reports and downloads read.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters
(PostgreSQL's store numbers them, as for the boards). Each store supplies `_fetch` and `_change`.
"""

from __future__ import annotations

import json
from typing import Any

from bot.domain.records import AnswerRow, PastRun, Phase, PlayedChat, RunStatus, RunSummary, questions_asked
from storage.shared.tables import ANSWER_COLUMNS

SECRET_NAME = "web_links"

# the table of revocations, in both databases' words (`time`: a double); a test that puts a
# database back before an older migration runs this one again
REVOCATIONS = """
    CREATE TABLE IF NOT EXISTS link_revocations (
        chat_key TEXT PRIMARY KEY,
        not_before {time} NOT NULL  -- links of the chat issued before this instant are refused
    );
"""
# who /stop-ped a run (its report names them), by run id: a run keeps its id when its chat moves
RUN_STOPS = """
    CREATE TABLE IF NOT EXISTS run_stops (
        run_id {key} PRIMARY KEY,
        stopped_by TEXT NOT NULL
    );
"""
# a chat's runs are those its boards count: its own, and those its members played for it in
# private (an assignment's: runs.board_chat), which are not the private chat's
_RUN_OF_CHAT = "(r.board_chat = :chat OR (r.chat_key = :chat AND r.board_chat = ''))"
_BOARD_OF_RUN = "CASE WHEN r.board_chat <> '' THEN r.board_chat ELSE r.chat_key END"  # the chat a run is of
# so that a group's page finds the runs played for it without reading every run
RUNS_BY_BOARD = "CREATE INDEX IF NOT EXISTS runs_by_board_start ON runs(board_chat, started_at);"
_ANSWER_COLUMNS = ", ".join(ANSWER_COLUMNS)
# the later of two instants, in words both databases read (SQLite's MAX is PostgreSQL's GREATEST)
_LATER = (
    "CASE WHEN excluded.not_before > link_revocations.not_before "
    "THEN excluded.not_before ELSE link_revocations.not_before END"
)
# a chat that changes its id keeps its revocation (storage/*/moves.py)
REVOCATION_MOVES = (
    "INSERT INTO link_revocations(chat_key, not_before) SELECT :new, not_before FROM link_revocations "
    f"WHERE chat_key = :old ON CONFLICT (chat_key) DO UPDATE SET not_before = {_LATER}",
    "DELETE FROM link_revocations WHERE chat_key = :old",
)


class WebQueries:
    async def _fetch(self, sql: str, args: dict[str, Any]) -> list[tuple]:
        raise NotImplementedError

    async def _change(self, sql: str, args: dict[str, Any]) -> int:
        """Run a write; how many rows it changed."""
        raise NotImplementedError

    async def web_secret(self, candidate: str) -> str:
        # the first process to store one wins; every later one (and every worker) reads it back
        await self._change(
            "INSERT INTO secrets(name, value) VALUES (:name, :value) ON CONFLICT (name) DO NOTHING",
            {"name": SECRET_NAME, "value": candidate},
        )
        rows = await self._fetch("SELECT value FROM secrets WHERE name = :name", {"name": SECRET_NAME})
        return str(rows[0][0])

    async def set_board_public(self, chat_key: str, public: bool) -> None:
        if public:
            await self._change(
                "INSERT INTO public_boards(chat_key) VALUES (:chat) ON CONFLICT (chat_key) DO NOTHING",
                {"chat": chat_key},
            )
        else:
            await self._change("DELETE FROM public_boards WHERE chat_key = :chat", {"chat": chat_key})

    async def board_public(self, chat_key: str) -> bool:
        return bool(await self._fetch("SELECT 1 FROM public_boards WHERE chat_key = :chat", {"chat": chat_key}))

    async def revoke_links(self, chat_key: str, at: float) -> None:
        await self._change(
            "INSERT INTO link_revocations(chat_key, not_before) VALUES (:chat, :at) "
            f"ON CONFLICT (chat_key) DO UPDATE SET not_before = {_LATER}",
            {"chat": chat_key, "at": at},
        )

    async def links_not_before(self, chat_key: str) -> float:
        rows = await self._fetch("SELECT not_before FROM link_revocations WHERE chat_key = :chat", {"chat": chat_key})
        return float(rows[0][0]) if rows else 0.0

    async def chat_runs(self, chat_key: str, limit: int = 50, offset: int = 0) -> list[RunSummary]:
        rows = await self._fetch(
            f"SELECT r.id, r.quiz_id, r.started_at, r.status FROM runs r WHERE {_RUN_OF_CHAT} "
            "ORDER BY r.started_at DESC, r.id DESC LIMIT :limit OFFSET :offset",
            {"chat": chat_key, "limit": limit, "offset": offset},
        )
        return [RunSummary(int(r[0]), str(r[1]), float(r[2]), RunStatus(r[3])) for r in rows]

    async def run_count(self, chat_key: str) -> int:
        rows = await self._fetch(f"SELECT COUNT(*) FROM runs r WHERE {_RUN_OF_CHAT}", {"chat": chat_key})
        return int(rows[0][0])

    async def played_chats(self) -> list[PlayedChat]:
        rows = await self._fetch(
            "SELECT b.chat, COALESCE(MAX(c.title), ''), COUNT(*), MAX(b.started_at) "
            f"FROM (SELECT {_BOARD_OF_RUN} AS chat, r.started_at FROM runs r) b "
            "LEFT JOIN chats c ON c.key = b.chat GROUP BY b.chat ORDER BY MAX(b.started_at) DESC, b.chat",
            {},
        )
        return [PlayedChat(str(r[0]), str(r[1]), int(r[2]), float(r[3])) for r in rows]

    async def chat_title(self, chat_key: str) -> str:
        rows = await self._fetch("SELECT title FROM chats WHERE key = :chat", {"chat": chat_key})
        return str(rows[0][0] or "") if rows else ""

    async def past_run(self, chat_key: str, run_id: int) -> PastRun | None:
        rows = await self._fetch(
            f"SELECT r.id, {_BOARD_OF_RUN}, r.quiz_id, r.language, r.question_ids, r.started_by, r.started_at, "
            "r.status, s.stopped_by, r.seed, r.phase, r.idx, r.skipped, r.seconds, r.time_factor, r.min_age "
            "FROM runs r LEFT JOIN run_stops s ON s.run_id = r.id "
            f"WHERE r.id = :run AND {_RUN_OF_CHAT}",
            {"run": run_id, "chat": chat_key},
        )
        if not rows:
            return None
        r = rows[0]
        ids = json.loads(r[4]) if isinstance(r[4], str) else r[4]  # SQLite keeps JSON text, PostgreSQL an array
        status = RunStatus(r[7])
        return PastRun(
            int(r[0]),
            str(r[1]),
            str(r[2]),
            str(r[3]),
            tuple(ids),
            str(r[5]),
            float(r[6]),
            status,
            r[8] or "",
            seed=int(r[9]),
            asked=questions_asked(status, Phase(r[10]), int(r[11]), len(ids)),
            skipped=tuple(json.loads(r[12])),
            seconds=int(r[13]),
            time_factor=float(r[14]),
            min_age=int(r[15]),
        )

    async def chat_answers(self, chat_key: str, since: float | None = None) -> list[AnswerRow]:
        rows = await self._fetch(
            f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE chat_key = :chat AND answered_at >= :since "
            "ORDER BY run_id, idx, answered_at, player_key",
            {"chat": chat_key, "since": float("-inf") if since is None else float(since)},
        )
        return [AnswerRow.from_values(r) for r in rows]

    async def chat_answers_after(
        self, chat_key: str, after: AnswerRow | None, limit: int, since: float | None = None
    ) -> list[AnswerRow]:
        # a run at a time, so both databases walk the answers' primary key (run_id, idx, ...)
        # from where the last page stopped; a filter on the chat would sort its whole history per page
        page: list[AnswerRow] = []
        last = after
        run_id = after.run_id if after else await self._next_run(chat_key, None)
        while run_id is not None and len(page) < limit:
            last = last if last and last.run_id == run_id else None  # where this run's reading goes on
            rows = await self._fetch(
                f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE run_id = :run AND chat_key = :chat "
                "AND answered_at >= :since AND (idx, answered_at, player_key) > (:idx, :at, :player) "
                "ORDER BY idx, answered_at, player_key LIMIT :limit",
                {
                    "run": run_id,
                    "chat": chat_key,
                    "since": float("-inf") if since is None else float(since),
                    "idx": last.index if last else -1,
                    "at": last.answered_at if last else float("-inf"),
                    "player": last.player_key if last else "",
                    "limit": limit - len(page),
                },
            )
            page += [AnswerRow.from_values(r) for r in rows]
            last = page[-1] if rows else last
            if len(page) < limit:  # the run has no more
                run_id = await self._next_run(chat_key, run_id)
        return page

    async def _next_run(self, chat_key: str, run_id: int | None) -> int | None:
        """The chat's next run after `run_id`: its own, and those its members played in private
        for it (an assignment's, whose answers name the group)."""
        rows = await self._fetch(
            f"SELECT MIN(r.id) FROM runs r WHERE {_RUN_OF_CHAT} AND r.id > :run",
            {"chat": chat_key, "run": -1 if run_id is None else run_id},
        )
        return None if rows[0][0] is None else int(rows[0][0])

    async def record_stop(self, run_id: int, player_key: str) -> None:
        await self._change(
            "INSERT INTO run_stops(run_id, stopped_by) VALUES (:run, :by) ON CONFLICT (run_id) DO NOTHING",
            {"run": run_id, "by": player_key},
        )
