"""Leaderboard SQL: the summaries of closed questions plus the live answers of open runs.

A board's rows, whatever the period, have the columns
(player_key, quiz_id, points, correct, answered, first_at, streak), one or more per player.
The summaries hold every answer of closed questions; the open questions' answers (the chat's
open run's, and those of assignments played for it) are read from the answers table, so a
board always equals the sum of the stored answers, press by press. A board's top and the
caller's place (`read_top`: /leaderboard, /stats) come from the summary kept in rank order
(storage/shared/ranks.py) for all time and the current week and month; the rest from here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.domain.model import Standing
from storage.shared import ranks
from storage.shared.tables import LIVE_BOUNDARY

DAY = ranks.DAY

_TOTALS = (
    "SELECT player_key, quiz_id, points, correct, answered, first_at, best_streak AS streak "
    "FROM board_totals WHERE chat_key = :chat"
)
_DAYS = (
    "SELECT player_key, quiz_id, points, correct, answered, first_at, 0 AS streak "
    "FROM board_days WHERE chat_key = :chat AND day >= :day"
)


def _live(filters: str = "") -> str:
    """The answers of the open questions: those the summaries do not hold yet."""
    columns = "a.player_key, a.quiz_id, a.points, a.correct, a.scored, a.answered_at, a.streak"
    return ranks.open_answers(columns, f" AND a.idx >= {LIVE_BOUNDARY}{filters}")


_ANSWERS = (
    "SELECT player_key, quiz_id, points, correct, scored AS answered, answered_at AS first_at, streak "
    "FROM answers WHERE chat_key = :chat AND answered_at >= :since"
)

_RANKED = (
    "SELECT b.player_key, COALESCE(p.name, b.player_key), SUM(b.points), SUM(b.correct), "
    "SUM(b.answered), MIN(b.first_at) AS first FROM ({source}) AS b "
    "LEFT JOIN players p ON p.key = b.player_key "
    "GROUP BY b.player_key, p.name ORDER BY 3 DESC, 4 DESC, first ASC, b.player_key"
)
_PLAYER = (
    "SELECT COALESCE(SUM(points), 0), COALESCE(SUM(answered), 0), COALESCE(SUM(correct), 0), "
    "COALESCE(MAX(streak), 0) FROM ({source}) AS s WHERE player_key = :player"
)


def board_source(chat_key: str, since: float | None = None, quiz_id: str | None = None) -> tuple[str, dict]:
    """The rows of a chat's board from `since` (None: all time), maybe of one quiz."""
    args: dict[str, object] = {"chat": chat_key}
    if since is None:
        source = f"{_TOTALS} UNION ALL {_live()}"
    elif since >= 0 and since % DAY == 0:  # the week and month boards start at UTC midnight
        source = f"{_DAYS} UNION ALL {_live(' AND a.answered_at >= :since')}"
        args.update(day=int(since // DAY), since=float(since))  # PostgreSQL compares times as floats
    else:  # any other instant: the answers themselves, one row each
        source = _ANSWERS
        args["since"] = float(since)
    if quiz_id is not None:
        source = f"SELECT * FROM ({source}) AS q WHERE quiz_id = :quiz"
        args["quiz"] = quiz_id
    return source, args


def ranked(chat_key: str, since: float | None, quiz_id: str | None) -> tuple[str, dict]:
    source, args = board_source(chat_key, since, quiz_id)
    return _RANKED.format(source=source), args


# The top `:top` of a board, then the player `:player` with their rank when they are not among
# them: the summaries are added up per player once (MATERIALIZED: SQLite would otherwise
# inline the aggregate thrice), sorted only as far as LIMIT needs, and only those rows get a
# name. Ranking every player and building them all took most of an all-time board's time.
_ORDER = "pts DESC, ok DESC, first ASC, player_key"
_AHEAD = (
    "o.pts > t.pts OR (o.pts = t.pts AND (o.ok > t.ok OR (o.ok = t.ok AND (o.first < t.first OR "
    "(o.first = t.first AND o.player_key < t.player_key)))))"
)
_TOP = (
    "WITH t AS MATERIALIZED (SELECT player_key, SUM(points) AS pts, SUM(correct) AS ok, SUM(answered) AS n, "
    "MIN(first_at) AS first FROM ({source}) AS b GROUP BY player_key), "
    f"top AS (SELECT *, 0 AS rank FROM t ORDER BY {_ORDER} LIMIT :top), "
    f"me AS (SELECT *, 1 + (SELECT COUNT(*) FROM t AS o WHERE {_AHEAD}) AS rank FROM t "
    "WHERE player_key = :player AND player_key NOT IN (SELECT player_key FROM top)) "
    "SELECT r.player_key, COALESCE(p.name, r.player_key), r.pts, r.ok, r.n, r.rank "
    "FROM (SELECT * FROM top UNION ALL SELECT * FROM me) AS r LEFT JOIN players p ON p.key = r.player_key "
    "ORDER BY r.rank, r.pts DESC, r.ok DESC, r.first ASC, r.player_key"
)


def top_of(
    chat_key: str, since: float | None, quiz_id: str | None, top: int, player_key: str | None
) -> tuple[str, dict]:
    """Rows (key, name, points, right, answered, rank): the top `top` in order with rank 0 (their
    place is their position), then `player_key`'s own row with its rank if it is not among them."""
    source, args = board_source(chat_key, since, quiz_id)
    return _TOP.format(source=source), {**args, "top": top, "player": player_key}


def top_standings(rows: list) -> list[Standing]:
    return [Standing(rank or i, key, name, pts, ok, n) for i, (key, name, pts, ok, n, rank) in enumerate(rows, 1)]


Fetch = Callable[[str, dict], Awaitable[Sequence[Sequence[Any]]]]  # a store's read: SQL with :names, arguments


Query = tuple[str, dict]


async def _ranked_or_days(
    fetch: Fetch,
    chat_key: str,
    since: float | None,
    ranked: Callable[[tuple[str, int]], Query],
    days: Callable[[], Query],
) -> Sequence[Sequence[Any]]:
    """The rows of `ranked(span)`, read from the summary kept in rank order, when `since` is None
    (all time) or starts the current week or month; else the rows of `days()`, from the day summaries.

    For a week or month, the check that no later period has rows yet and the ranked read go to
    the store together, so the read waits on it once, not twice: one thread hop on SQLite (about
    0.13 ms, and one chance less of a slow wake-up), one round trip on PostgreSQL. Should a later
    period have rows (`since` is then not the current one), the ranked rows are dropped."""
    span = ranks.span_of(since)
    if span is None:
        return await fetch(*days())
    if span[0] == "all":
        return await fetch(*ranked(span))
    later, rows = await asyncio.gather(fetch(*ranks.later(chat_key, *span)), fetch(*ranked(span)))
    return await fetch(*days()) if later else rows  # an earlier week or month: its rows stop at its end


async def read_top(
    fetch: Fetch, chat_key: str, since: float | None, quiz_id: str | None, top: int, player_key: str | None
) -> list[Standing]:
    """top_of's standings, from the summary kept in rank order (storage/shared/ranks.py) when
    `since` starts the current week or month or is None (all time), else from the day summaries."""
    rows = await _ranked_or_days(
        fetch,
        chat_key,
        since,
        lambda span: ranks.top_of(chat_key, span, since, quiz_id, top, player_key),
        lambda: top_of(chat_key, since, quiz_id, top, player_key),
    )
    return top_standings(list(rows))


async def read_size(fetch: Fetch, chat_key: str, since: float | None, quiz_id: str | None) -> int:
    """How many players the board has, counted where read_top reads it."""

    def days() -> Query:
        source, args = board_source(chat_key, since, quiz_id)
        return f"SELECT COUNT(DISTINCT b.player_key) FROM ({source}) AS b", args

    ((size,),) = await _ranked_or_days(
        fetch, chat_key, since, lambda span: ranks.size_of(chat_key, span, since, quiz_id), days
    )
    return int(size)


async def rank_of(fetch: Fetch, chat_key: str, player_key: str) -> int | None:
    """The player's place on the chat's all-time board (None when not on it)."""
    mine = await read_top(fetch, chat_key, None, None, 0, player_key)
    return mine[0].rank if mine else None


def player_totals(chat_key: str, player_key: str) -> tuple[str, dict]:
    """points, answered, correct and best streak of one player, all time."""
    source, args = board_source(chat_key)
    return _PLAYER.format(source=source), {**args, "player": player_key}
