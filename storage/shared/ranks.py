"""Boards kept in rank order: each player's sums per chat and period, read top first from an index.

`board_ranks` holds, per chat, period and quiz ('' for every quiz), one row per player with the
sums of the answers of the chat's *ended* runs: all time (start_day 0), the UTC week from Monday
and the UTC month from the 1st (start_day: the period's first day since 1970). A run adds its
answers when it ends, once (a trigger of each schema; a late answer to an ended run goes in
with the boards' late trigger). The index on (chat, period, quiz, points DESC, right answers
DESC, first answer, key) is the boards' order, so a board's top is its first rows.

Answers of open runs (the chat's own, and the assignments its members play in private for it)
are "live": read from the answers table and merged as candidates. A player outside the
summary's top with no live answer cannot enter the top: ten players of the summary are ahead
of them and live answers only add points. So a board reads `top` summary rows, the open runs'
answers and, for the caller's rank, the summary rows ahead of them: what it costs grows with
the caller's place and the open runs, not with the chat's answers or players.
"""

from __future__ import annotations

from datetime import UTC, datetime

DAY = 86400
MONDAY = 3  # 1 Jan 1970 was a Thursday: day d starts a week when (d + 3) % 7 == 0
KEYS = "chat_key, span, start_day, quiz_id, player_key"

# the summary, its order, and the index the live part finds open assignments by
TABLE = """
    CREATE TABLE IF NOT EXISTS board_ranks (
        chat_key {key} NOT NULL,
        span {key} NOT NULL,  -- 'all', 'week' or 'month'
        start_day INTEGER NOT NULL,  -- the period's first UTC day since 1970; 0 for all time
        quiz_id {key} NOT NULL,  -- '' for every quiz
        player_key {key} NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        first_at {time} NOT NULL,
        PRIMARY KEY (chat_key, span, start_day, quiz_id, player_key)
    ){rowid};
    CREATE INDEX IF NOT EXISTS board_ranks_order ON board_ranks(
        chat_key, span, start_day, quiz_id, points DESC, correct DESC, first_at, player_key);
    -- the open assignments played for a chat, whose answers are live on its boards
    CREATE INDEX IF NOT EXISTS runs_open_for_board ON runs(board_chat) WHERE status = 'open';
"""

# every period and quiz an answer counts in
_SPANS = (
    "(SELECT 'all' AS span, 0 AS per_quiz UNION ALL SELECT 'all', 1 UNION ALL SELECT 'week', 0 "
    "UNION ALL SELECT 'week', 1 UNION ALL SELECT 'month', 0 UNION ALL SELECT 'month', 1) AS p"
)
_EARLIER = "CASE WHEN excluded.first_at < board_ranks.first_at THEN excluded.first_at ELSE board_ranks.first_at END"
_ADDED = (
    "points = board_ranks.points + excluded.points, correct = board_ranks.correct + excluded.correct, "
    f"answered = board_ranks.answered + excluded.answered, first_at = {_EARLIER}"
)


def add_answers(source: str, where: str, day: str, month_of_day: str) -> str:
    """Add the answers `FROM source WHERE where` (over `a`) to every period and quiz they count in;
    `day` is the store's SQL for an answer's UTC day, `month_of_day` for the first day of the
    month of `g.day`. The answers are added up per player, quiz and day first (a run's 160
    answers become 20 rows), and only those are spread over the periods: this statement 1.2 ->
    0.4 ms at a run's end on SQLite, where spreading every answer six ways sorted six times as many."""
    return f"""
    INSERT INTO board_ranks({KEYS}, points, correct, answered, first_at)
        SELECT g.chat_key, p.span,
               CASE p.span WHEN 'week' THEN g.day - (g.day + {MONDAY}) % 7 WHEN 'month' THEN {month_of_day} ELSE 0 END,
               CASE WHEN p.per_quiz = 1 THEN g.quiz_id ELSE '' END, g.player_key,
               SUM(g.points), SUM(g.correct), SUM(g.answered), MIN(g.first_at)
        FROM (SELECT a.chat_key, a.player_key, a.quiz_id, {day} AS day, SUM(a.points) AS points,
                     SUM(a.correct) AS correct, SUM(a.scored) AS answered, MIN(a.answered_at) AS first_at
              FROM {source} WHERE {where} GROUP BY 1, 2, 3, 4) AS g
        CROSS JOIN {_SPANS} WHERE true GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT ({KEYS}) DO UPDATE SET {_ADDED};
    """


ANSWERS_OF_RUNS = "answers a JOIN runs r ON r.id = a.run_id"
ENDED = "r.status <> 'open'"  # over ANSWERS_OF_RUNS: the answers ended runs hold

# a chat that changes its id takes its rows along (storage/*/moves.py)
MOVES = (
    f"INSERT INTO board_ranks({KEYS}, points, correct, answered, first_at) "
    "SELECT :new, span, start_day, quiz_id, player_key, points, correct, answered, first_at FROM board_ranks "
    f"WHERE chat_key = :old ON CONFLICT ({KEYS}) DO UPDATE SET {_ADDED}",
    "DELETE FROM board_ranks WHERE chat_key = :old",
)


def span_of(since: float | None) -> tuple[str, int] | None:
    """The period a board from `since` reads, if one: all time, or the week or month starting then."""
    if since is None:
        return "all", 0
    if since < 0 or since % DAY:
        return None
    day = int(since // DAY)
    if (day + MONDAY) % 7 == 0:
        return "week", day
    if datetime.fromtimestamp(since, UTC).day == 1:
        return "month", day
    return None


def later(chat_key: str, span: str, day: int) -> tuple[str, dict]:
    """Any row of a later period: then `since` is not the current one, and its rows do not hold
    every answer since (the caller reads the day summaries instead)."""
    return (
        # the latest start read off the end of the key (PostgreSQL planned `start_day > :day LIMIT 1`
        # generically as a scan of the whole table, expecting a match soon: 10 ms at 10^6 answers)
        "SELECT 1 WHERE (SELECT MAX(start_day) FROM board_ranks WHERE chat_key = :chat AND span = :span) > :day",
        {"chat": chat_key, "span": span, "day": day},
    )


def open_answers(columns: str, filters: str = "") -> str:
    """`columns` of the answers `a` of the chat's open runs that count for it: its own run, and the
    assignments its members play in private for it (runs.board_chat)."""
    return " UNION ALL ".join(
        f"SELECT {columns} FROM runs r CROSS JOIN answers a "  # CROSS: SQLite looks up the runs first
        f"WHERE {runs} AND r.status = 'open' AND a.run_id = r.id AND a.chat_key = :chat{filters}"
        for runs in ("r.chat_key = :chat", "r.board_chat = :chat AND r.chat_key <> :chat")
    )


_PERIOD = "chat_key = :chat AND span = :span AND start_day = :day AND quiz_id = :quiz"
_ORDER = "points DESC, correct DESC, first_at, player_key"
_SUMS = "player_key, points, correct, answered, first_at"


def _tie_won(o: tuple[str, str, str, str]) -> str:
    """`o` (points, right, first answer, key), with as many points as `t`, comes before it."""
    _, ok, first, key = o
    return f"({ok} > t.ok OR ({ok} = t.ok AND ({first} < t.first OR ({first} = t.first AND {key} < t.player_key))))"


def _ahead(o: tuple[str, str, str, str]) -> str:
    """`o` comes before `t` in the boards' order."""
    return f"({o[0]} > t.pts OR ({o[0]} = t.pts AND {_tie_won(o)}))"


_SUMMED = ("o.points", "o.correct", "o.first_at", "o.player_key")
_OF_O = "o." + _PERIOD.replace(" AND ", " AND o.")


_TOP = (
    "WITH live AS MATERIALIZED (SELECT player_key, SUM(points) AS pts, SUM(correct) AS ok, SUM(scored) AS n, "
    "MIN(answered_at) AS first FROM ({live}) AS l GROUP BY player_key), "
    # the candidates' summary rows: the summary's top, every live player's, the caller's (by key)
    f"s AS MATERIALIZED (SELECT * FROM (SELECT {_SUMS} FROM board_ranks WHERE {_PERIOD} ORDER BY {_ORDER} "
    f"LIMIT :top) AS best UNION SELECT {_SUMS} FROM board_ranks WHERE {_PERIOD} AND player_key IN "
    f"(SELECT player_key FROM live) UNION SELECT {_SUMS} FROM board_ranks WHERE {_PERIOD} AND player_key = :player), "
    # the candidates' standings: summary and live answers added up (no join: PostgreSQL hashed
    # the whole period's rows to join a dozen)
    # (BIGINT: PostgreSQL's SUM of BIGINT is NUMERIC, which no index on points can be searched by)
    "t AS MATERIALIZED (SELECT player_key, CAST(SUM(pts) AS BIGINT) AS pts, CAST(SUM(ok) AS BIGINT) AS ok, "
    "CAST(SUM(n) AS BIGINT) AS n, MIN(first) AS first, "
    "MAX(is_live) AS is_live FROM (SELECT player_key, points AS pts, correct AS ok, answered AS n, "
    "first_at AS first, 0 AS is_live FROM s UNION ALL SELECT player_key, pts, ok, n, first, 1 FROM live) AS u "
    "GROUP BY player_key), "
    "top AS (SELECT player_key, pts, ok, n, first, 0 AS rank FROM t "
    "ORDER BY pts DESC, ok DESC, first ASC, player_key LIMIT :top), "
    # the caller's rank: the summary's players ahead (counted along the index: those with more
    # points, then the ties), less the live ones among them, plus the live players ahead
    "me AS (SELECT player_key, pts, ok, n, first, 1 "
    f"+ (SELECT COUNT(*) FROM board_ranks o WHERE {_OF_O} AND o.points > t.pts) "
    f"+ (SELECT COUNT(*) FROM board_ranks o WHERE {_OF_O} AND o.points = t.pts AND {_tie_won(_SUMMED)}) "
    f"- (SELECT COUNT(*) FROM board_ranks o WHERE {_OF_O} AND o.player_key IN (SELECT player_key FROM live) "
    f"AND {_ahead(_SUMMED)}) "
    f"+ (SELECT COUNT(*) FROM t AS o WHERE o.is_live = 1 AND {_ahead(('o.pts', 'o.ok', 'o.first', 'o.player_key'))}) "
    "AS rank "
    "FROM t WHERE player_key = :player AND player_key NOT IN (SELECT player_key FROM top)) "
    "SELECT r.player_key, COALESCE(p.name, r.player_key), r.pts, r.ok, r.n, r.rank "
    "FROM (SELECT * FROM top UNION ALL SELECT * FROM me) AS r LEFT JOIN players p ON p.key = r.player_key "
    "ORDER BY r.rank, r.pts DESC, r.ok DESC, r.first ASC, r.player_key"
)


def _live_of(
    chat_key: str, span: tuple[str, int], since: float | None, quiz_id: str | None
) -> tuple[str, dict[str, object]]:
    """The open runs' answers that count on the board of `span`, and the arguments of its SQL."""
    filters = (" AND a.answered_at >= :since" if since is not None else "") + (
        " AND a.quiz_id = :quiz" if quiz_id is not None else ""
    )
    args: dict[str, object] = {"chat": chat_key, "span": span[0], "day": span[1], "quiz": quiz_id or ""}
    if since is not None:
        args["since"] = float(since)  # PostgreSQL compares times as floats
    return open_answers("a.player_key, a.points, a.correct, a.scored, a.answered_at", filters), args


def top_of(
    chat_key: str, span: tuple[str, int], since: float | None, quiz_id: str | None, top: int, player_key: str | None
) -> tuple[str, dict]:
    """The rows of storage/shared/boards.py's top_of, from the ranked summary of `span`."""
    live, args = _live_of(chat_key, span, since, quiz_id)
    return _TOP.format(live=live), {**args, "top": top, "player": player_key}


def size_of(chat_key: str, span: tuple[str, int], since: float | None, quiz_id: str | None) -> tuple[str, dict]:
    """How many players the board of `span` has: the summary's, and the live ones it lacks."""
    live, args = _live_of(chat_key, span, since, quiz_id)
    return (
        f"SELECT (SELECT COUNT(*) FROM board_ranks WHERE {_PERIOD}) + (SELECT COUNT(DISTINCT l.player_key) "
        f"FROM ({live}) AS l WHERE l.player_key NOT IN (SELECT player_key FROM board_ranks WHERE {_PERIOD}))",
        args,
    )
