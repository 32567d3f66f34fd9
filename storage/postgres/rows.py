"""What the PostgreSQL store says to the server and reads back: rows to values, SQLite's named
parameters to numbered ones, a failed connection to words."""

from __future__ import annotations

import asyncio
import json
import re

import asyncpg

from bot.domain.records import Phase, RunRow, RunStatus
from bot.domain.scoring import Scoring

RUN_COLUMNS = (
    "r.id, r.chat_key, r.quiz_id, r.language, r.seed, r.question_ids, r.seconds, r.pause, "
    "r.started_by, r.started_at, r.status, r.phase, r.idx, r.asked_at, r.due, r.message_id, "
    "r.silent, r.board_chat, r.host_key, r.paused_left, r.hint_at, r.skipped, r.time_factor, "
    "r.scoring, r.streaks, r.board_end, r.min_age, c.chat_id, c.platform, c.is_private"
)


def numbered(sql: str, args: dict) -> tuple:
    """SQLite's `:name` parameters as PostgreSQL's `$n`, and the values in that order."""
    order: list[str] = []

    def number(match: re.Match) -> str:
        name = match.group(1)
        if name not in order:
            order.append(name)
        return f"${order.index(name) + 1}"

    text = re.sub(r"(?<![:\w]):(\w+)", number, sql)
    return (text, *(args[name] for name in order))


def run_from_row(row: asyncpg.Record) -> RunRow:
    return RunRow(
        chat_key=row["chat_key"],
        chat_id=row["chat_id"],
        platform=row["platform"],
        is_private=row["is_private"],
        quiz_id=row["quiz_id"],
        language=row["language"],
        seed=row["seed"],
        question_ids=tuple(row["question_ids"]),
        seconds=row["seconds"],
        pause=row["pause"],
        started_by=row["started_by"],
        started_at=row["started_at"],
        phase=Phase(row["phase"]),
        index=row["idx"],
        asked_at=row["asked_at"],
        due=row["due"],
        message_id=row["message_id"],
        silent=row["silent"],
        status=RunStatus(row["status"]),
        id=row["id"],
        board_chat=row["board_chat"],
        host_key=row["host_key"],
        paused_left=row["paused_left"],
        hint_at=row["hint_at"],
        skipped=tuple(json.loads(row["skipped"])),
        time_factor=row["time_factor"],
        scoring=Scoring(row["scoring"]),
        streaks=row["streaks"],
        board_end=row["board_end"],
        min_age=row["min_age"],
    )


def connect_problem(exc: BaseException) -> str:
    """What went wrong connecting, in words an operator can act on."""
    if isinstance(exc, asyncpg.InvalidPasswordError):
        return "the server refused the user name or password"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return "that database does not exist on the server"
    if isinstance(exc, (ConnectionRefusedError, asyncio.TimeoutError, TimeoutError)):
        return "no PostgreSQL server answered there (connection refused or timed out)"
    if isinstance(exc, OSError):
        return f"could not connect ({exc.strerror or exc})"
    return f"{type(exc).__name__}: {exc}"
