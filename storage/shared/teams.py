"""Teams (bot/engine/teams.py): the tables and queries of line-ups, shared by both stores.

Plain SQL that SQLite and PostgreSQL read the same way, with SQLite's `:name` parameters, as
storage/shared/assignments.py. A line-up is open while `run_id` is NULL; the run that adopts it
sets it, once, by compare-and-set, so a join that races the first question either lands before
the lock or is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.domain.teams import Lineup, Member, TeamScoring
from storage.shared.statements import Statements

# the migration of both stores: {id} the key's type, {time} a float's; written to run again (tests put
# a database back to before an earlier migration, which then runs with those after it)
TABLES = """
    CREATE TABLE IF NOT EXISTS team_lineups (
        id {id},
        chat_key TEXT NOT NULL,
        names TEXT NOT NULL,
        scoring TEXT NOT NULL,
        message_id TEXT,
        run_id BIGINT,
        created_at {time} NOT NULL
    );
    CREATE INDEX IF NOT EXISTS team_lineups_by_chat ON team_lineups(chat_key, run_id);
    CREATE UNIQUE INDEX IF NOT EXISTS team_lineups_by_run ON team_lineups(run_id);
    CREATE TABLE IF NOT EXISTS team_members (
        lineup_id BIGINT NOT NULL,
        player_key TEXT NOT NULL,
        name TEXT NOT NULL,
        team INTEGER NOT NULL,
        late INTEGER NOT NULL DEFAULT 0,
        joined_at {time} NOT NULL,
        PRIMARY KEY (lineup_id, player_key)
    );
"""

_COLUMNS = "id, chat_key, names, scoring, message_id, run_id"
# a chat that changes its id (storage/*/moves.py): its line-ups go with it, open and adopted
MOVES = ("UPDATE team_lineups SET chat_key = :new WHERE chat_key = :old",)


class TeamQueries(Statements):
    async def new_lineup(self, chat_key: str, names: tuple[str, ...], scoring: TeamScoring, now: float) -> int:
        await self.drop_lineup(chat_key)
        return await self._insert_id(
            "INSERT INTO team_lineups(chat_key, names, scoring, created_at) VALUES (:chat, :names, :scoring, :now)",
            {"chat": chat_key, "names": json.dumps(names, ensure_ascii=False), "scoring": scoring.value, "now": now},
        )

    async def lineup(self, lineup_id: int) -> Lineup | None:
        return await self._read_lineup(f"SELECT {_COLUMNS} FROM team_lineups WHERE id = :id", {"id": lineup_id})

    async def open_lineup(self, chat_key: str) -> Lineup | None:
        return await self._read_lineup(
            f"SELECT {_COLUMNS} FROM team_lineups WHERE chat_key = :chat AND run_id IS NULL ORDER BY id DESC",
            {"chat": chat_key},
        )

    async def run_lineup(self, run_id: int) -> Lineup | None:
        return await self._read_lineup(f"SELECT {_COLUMNS} FROM team_lineups WHERE run_id = :run", {"run": run_id})

    async def lineup_message(self, lineup_id: int, message_id: str) -> None:
        await self._change(
            "UPDATE team_lineups SET message_id = :message WHERE id = :id", {"message": message_id, "id": lineup_id}
        )

    async def join_team(self, lineup_id: int, player_key: str, name: str, team: int, late: bool, now: float) -> bool:
        # one statement: the line-up's lock is read where the member is written
        changed = await self._change(
            "INSERT INTO team_members(lineup_id, player_key, name, team, late, joined_at) "
            "SELECT id, CAST(:player AS TEXT), CAST(:name AS TEXT), CAST(:team AS INTEGER), CAST(:late AS INTEGER), "
            "CAST(:now AS DOUBLE PRECISION) FROM team_lineups "
            "WHERE id = :id AND (run_id IS NULL OR CAST(:late AS INTEGER) = 1) "
            "ON CONFLICT (lineup_id, player_key) DO UPDATE SET team = excluded.team, name = excluded.name",
            {"id": lineup_id, "player": player_key, "name": name, "team": team, "late": int(late), "now": now},
        )
        return changed == 1

    async def place_teams(self, lineup_id: int, teams: Mapping[str, int]) -> None:
        for player_key, team in teams.items():
            await self._change(
                "UPDATE team_members SET team = :team WHERE lineup_id = :id AND player_key = :player",
                {"team": team, "id": lineup_id, "player": player_key},
            )

    async def drop_lineup(self, chat_key: str) -> bool:
        await self._change(
            "DELETE FROM team_members WHERE lineup_id IN "
            "(SELECT id FROM team_lineups WHERE chat_key = :chat AND run_id IS NULL)",
            {"chat": chat_key},
        )
        dropped = await self._change(
            "DELETE FROM team_lineups WHERE chat_key = :chat AND run_id IS NULL", {"chat": chat_key}
        )
        return dropped > 0

    async def adopt_lineup(self, chat_key: str, run_id: int) -> Lineup | None:
        if (adopted := await self.run_lineup(run_id)) is not None:
            return adopted
        await self._change(
            "UPDATE team_lineups SET run_id = :run WHERE id = "
            "(SELECT MAX(id) FROM team_lineups WHERE chat_key = :chat AND run_id IS NULL)",
            {"run": run_id, "chat": chat_key},
        )
        return await self.run_lineup(run_id)

    async def _read_lineup(self, sql: str, args: dict[str, object]) -> Lineup | None:
        rows = await self._fetch(sql, args)
        if not rows:
            return None
        lineup_id, chat_key, names, scoring, message_id, run_id = rows[0]
        members = await self._fetch(
            "SELECT player_key, name, team, late FROM team_members WHERE lineup_id = :id "
            "ORDER BY team, joined_at, player_key",
            {"id": lineup_id},
        )
        return Lineup(
            int(lineup_id),
            chat_key,
            tuple(json.loads(names)),
            TeamScoring(scoring),
            tuple(Member(key, name, int(team), bool(late)) for key, name, team, late in members),
            message_id,
            None if run_id is None else int(run_id),
        )
