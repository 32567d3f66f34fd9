"""Assignments (bot/engine/assignments.py): the tables and queries, shared by both stores.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters, as
storage/shared/learning.py. Workers sharing a database coordinate by compare-and-set on the
row: a hold (`held_until`) for the one that posts or edits the group message, the status for
the one that closes or cancels it.
"""

from __future__ import annotations

import json

from bot.domain.assignment import AssignmentRow, AssignmentStatus, AssignmentSummary, Attempt, Place
from bot.domain.model import ChatRef
from bot.domain.records import Phase, RunStatus, RunSummary
from storage.shared.statements import Statements

# the migration of both stores: {id} the key's type, {time} a float's
TABLES = """
    CREATE TABLE assignments (
        id {id},
        chat_key TEXT NOT NULL,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        question_ids TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        deadline {time} NOT NULL,
        language TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at {time} NOT NULL,
        status TEXT NOT NULL,
        message_id TEXT,
        shown TEXT NOT NULL DEFAULT '',
        shown_at {time} NOT NULL DEFAULT 0,
        held_until {time} NOT NULL DEFAULT 0
    );
    CREATE INDEX assignments_by_status ON assignments(status, chat_key);
    CREATE TABLE assignment_plays (
        assignment_id BIGINT NOT NULL,
        player_key TEXT NOT NULL,
        run_id BIGINT,
        started_at {time} NOT NULL,
        PRIMARY KEY (assignment_id, player_key)
    );
    ALTER TABLE runs ADD COLUMN board_chat TEXT NOT NULL DEFAULT '';
"""

OPEN = AssignmentStatus.OPEN.value
_COLUMNS = (
    "id, platform, chat_id, quiz_id, question_ids, seconds, deadline, language, created_by, "
    "created_at, status, message_id, shown, shown_at"
)
_PLACES = (
    "SELECT p.player_key, COALESCE(pl.name, p.player_key), COALESCE(SUM(a.points), 0), "
    "COALESCE(SUM(a.correct), 0), COUNT(a.run_id), "
    "CASE WHEN r.status IS NOT NULL AND r.status <> 'open' THEN 1 ELSE 0 END "
    "FROM assignment_plays p LEFT JOIN runs r ON r.id = p.run_id LEFT JOIN answers a ON a.run_id = p.run_id "
    "LEFT JOIN players pl ON pl.key = p.player_key WHERE p.assignment_id = :id "
    "GROUP BY p.player_key, pl.name, r.status, p.started_at "
    "ORDER BY 3 DESC, 4 DESC, p.started_at, p.player_key"
)
_ATTEMPTS = (
    "SELECT p.player_key, COALESCE(pl.name, p.player_key), p.run_id, p.started_at, r.status, r.idx, r.phase, "
    "MAX(a.answered_at), COALESCE(SUM(a.points), 0) FROM assignment_plays p JOIN runs r ON r.id = p.run_id "
    "LEFT JOIN answers a ON a.run_id = p.run_id LEFT JOIN players pl ON pl.key = p.player_key "
    "WHERE p.assignment_id = :id GROUP BY p.player_key, pl.name, p.run_id, p.started_at, r.status, r.idx, r.phase "
    "ORDER BY p.started_at, p.player_key"
)
# a chat's history: its own runs, and its assignments in place of the runs its members played
# for them in private (those name the group: runs.board_chat), each kind's start its date
_HISTORY = (
    "SELECT r.id AS run_id, NULL AS assignment_id, r.quiz_id, r.started_at AS at, r.status, 0.0, 0 FROM runs r "
    "WHERE r.chat_key = :chat AND r.board_chat = '' "
    "UNION ALL SELECT NULL, a.id, a.quiz_id, a.created_at, a.status, a.deadline, "
    "(SELECT COUNT(*) FROM assignment_plays p WHERE p.assignment_id = a.id AND p.run_id IS NOT NULL) "
    "FROM assignments a WHERE a.chat_key = :chat"
)
# the members of a group the store knows of: whoever answered a quiz counted for it (in the group,
# or an assignment of it in private) or started one in it, with a name stored
# The chat's answering players by a skip-scan of answers_by_player (chat_key, player_key): each
# step seeks the least key after the last one found, so the cost grows with the players, not
# with their answers (a scan of every answer held SQLite's one writer for ~87 ms per 1M answers).
_SEEN = (
    "WITH RECURSIVE answered(player_key) AS ("
    "SELECT MIN(player_key) FROM answers WHERE chat_key = :chat "
    "UNION ALL SELECT (SELECT MIN(a.player_key) FROM answers a "
    "WHERE a.chat_key = :chat AND a.player_key > answered.player_key) "
    "FROM answered WHERE answered.player_key IS NOT NULL) "
    "SELECT s.player_key, pl.name FROM (SELECT player_key FROM answered WHERE player_key IS NOT NULL "
    "UNION SELECT started_by FROM runs WHERE chat_key = :chat) s JOIN players pl ON pl.key = s.player_key"
)


class AssignmentQueries(Statements):
    async def add_assignment(self, a: AssignmentRow) -> int:
        return await self._insert_id(
            "INSERT INTO assignments(chat_key, platform, chat_id, quiz_id, question_ids, seconds, deadline, "
            "language, created_by, created_at, status) VALUES (:chat_key, :platform, :chat_id, :quiz_id, "
            ":question_ids, :seconds, :deadline, :language, :created_by, :created_at, :status)",
            dict(
                chat_key=a.chat.key,
                platform=a.chat.platform,
                chat_id=a.chat.chat_id,
                quiz_id=a.quiz_id,
                question_ids=json.dumps(a.question_ids),
                seconds=a.seconds,
                deadline=a.deadline,
                language=a.language,
                created_by=a.created_by,
                created_at=a.created_at,
                status=a.status.value,
            ),
        )

    async def assignment(self, assignment_id: int) -> AssignmentRow | None:
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM assignments WHERE id = :id", {"id": assignment_id})
        return _assignment(rows[0]) if rows else None

    async def open_assignments(self, chat_key: str | None = None) -> list[AssignmentRow]:
        where = "status = :open" + (" AND chat_key = :chat" if chat_key is not None else "")
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM assignments WHERE {where} ORDER BY deadline, id", {"open": OPEN, "chat": chat_key}
        )
        return [_assignment(row) for row in rows]

    async def hold_assignment(self, assignment_id: int, now: float, until: float) -> bool:
        changed = await self._change(
            "UPDATE assignments SET held_until = :until WHERE id = :id AND held_until <= :now AND status = :open",
            {"until": until, "id": assignment_id, "now": now, "open": OPEN},
        )
        return changed == 1

    async def release_assignment(self, a: AssignmentRow) -> None:
        await self._change(
            "UPDATE assignments SET message_id = :message, shown = :shown, shown_at = :shown_at, held_until = 0 "
            "WHERE id = :id",
            {"message": a.message_id, "shown": a.shown, "shown_at": a.shown_at, "id": a.id},
        )

    async def end_assignment(self, assignment_id: int, status: AssignmentStatus) -> bool:
        changed = await self._change(
            "UPDATE assignments SET status = :status, held_until = 0 WHERE id = :id AND status = :open",
            {"status": status.value, "id": assignment_id, "open": OPEN},
        )
        return changed == 1

    async def join_assignment(self, assignment_id: int, player_key: str, now: float) -> bool:
        changed = await self._change(
            "INSERT INTO assignment_plays(assignment_id, player_key, started_at) VALUES (:id, :player, :now) "
            "ON CONFLICT DO NOTHING",
            {"id": assignment_id, "player": player_key, "now": now},
        )
        return changed == 1

    async def set_play_run(self, assignment_id: int, player_key: str, run_id: int | None) -> None:
        if run_id is None:
            await self._change(
                "DELETE FROM assignment_plays WHERE assignment_id = :id AND player_key = :player",
                {"id": assignment_id, "player": player_key},
            )
            return
        await self._change(
            "UPDATE assignment_plays SET run_id = :run WHERE assignment_id = :id AND player_key = :player",
            {"run": run_id, "id": assignment_id, "player": player_key},
        )

    async def assignment_places(self, assignment_id: int) -> list[Place]:
        rows = await self._fetch(_PLACES, {"id": assignment_id})
        return [
            Place(key, name, int(points), int(ok), int(answered), bool(done))
            for key, name, points, ok, answered, done in rows
        ]

    async def assignment_attempts(self, assignment_id: int) -> list[Attempt]:
        rows = await self._fetch(_ATTEMPTS, {"id": assignment_id})
        return [
            Attempt(key, name, int(run), float(at), RunStatus(status), int(idx), Phase(phase), _instant(last), int(pts))
            for key, name, run, at, status, idx, phase, last, pts in rows
        ]

    async def chat_history(
        self, chat_key: str, limit: int = 50, offset: int = 0
    ) -> list[RunSummary | AssignmentSummary]:
        rows = await self._fetch(
            f"SELECT * FROM ({_HISTORY}) h ORDER BY h.at DESC, COALESCE(h.run_id, 0) DESC, "
            "COALESCE(h.assignment_id, 0) DESC LIMIT :limit OFFSET :offset",
            {"chat": chat_key, "limit": limit, "offset": offset},
        )
        return [_history_line(row) for row in rows]

    async def history_size(self, chat_key: str) -> int:
        rows = await self._fetch(f"SELECT COUNT(*) FROM ({_HISTORY}) h", {"chat": chat_key})
        return int(rows[0][0])

    async def members_seen(self, chat_key: str) -> dict[str, str]:
        return {str(key): str(name) for key, name in await self._fetch(_SEEN, {"chat": chat_key})}


def _instant(value: object) -> float | None:
    return None if value is None else float(str(value))


def _history_line(row: tuple) -> RunSummary | AssignmentSummary:
    run_id, assignment_id, quiz_id, at, status, deadline, attempts = row
    if assignment_id is None:
        return RunSummary(int(run_id), str(quiz_id), float(at), RunStatus(status))
    return AssignmentSummary(
        int(assignment_id), str(quiz_id), float(at), float(deadline), AssignmentStatus(status), int(attempts)
    )


def _assignment(row: tuple) -> AssignmentRow:
    (
        aid,
        platform,
        chat_id,
        quiz_id,
        question_ids,
        seconds,
        deadline,
        language,
        by,
        at,
        status,
        message,
        shown,
        when,
    ) = row
    return AssignmentRow(
        chat=ChatRef(platform, chat_id, False),
        quiz_id=quiz_id,
        question_ids=tuple(json.loads(question_ids)),
        seconds=seconds,
        deadline=deadline,
        language=language,
        created_by=by,
        created_at=at,
        status=AssignmentStatus(status),
        message_id=message,
        shown=shown,
        shown_at=when,
        id=aid,
    )
