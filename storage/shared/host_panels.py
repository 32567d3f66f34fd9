"""Where each hosted run's panel is (bot/engine/host_panel.py), shared by both stores: the
message in the host's private chat that a restarted worker, or another one, keeps current.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters, as
storage/shared/teams.py. One row per run: a later /host of the same game posts a new panel,
which replaces the last.
"""

from __future__ import annotations

from storage.shared.statements import Statements

# the migration of both stores
TABLE = """
    CREATE TABLE IF NOT EXISTS host_panels (
        run_id BIGINT PRIMARY KEY,
        chat_id TEXT NOT NULL,
        message_id TEXT NOT NULL
    );
"""


class HostPanelQueries(Statements):
    async def keep_host_panel(self, run_id: int, chat_id: str, message_id: str) -> None:
        await self._change(
            "INSERT INTO host_panels(run_id, chat_id, message_id) VALUES (:run, :chat, :message) "
            "ON CONFLICT (run_id) DO UPDATE SET chat_id = excluded.chat_id, message_id = excluded.message_id",
            {"run": run_id, "chat": chat_id, "message": message_id},
        )

    async def host_panel(self, run_id: int) -> tuple[str, str] | None:
        rows = await self._fetch("SELECT chat_id, message_id FROM host_panels WHERE run_id = :run", {"run": run_id})
        return (str(rows[0][0]), str(rows[0][1])) if rows else None
