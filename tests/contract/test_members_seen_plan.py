"""SQLite reads a group's members by a skip-scan of the answers_by_player index (a seek per
player), never by a scan of every answer: on a long history a scan held the one writer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.shared.assignments import _SEEN as SEEN
from storage.sqlite.store import SqliteStore


async def test_the_members_query_seeks_the_index_once_per_player(tmp_path: Path):
    path = tmp_path / "quizhost.db"
    await (await SqliteStore.open(path)).close()
    with sqlite3.connect(path) as db:
        plan = [row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + SEEN, {"chat": "test:g1"})]
    assert any("answers_by_player (chat_key=? AND player_key>?)" in step for step in plan), plan
    assert not any(step.startswith("SCAN") and "answers" in step for step in plan), plan
