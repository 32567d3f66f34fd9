"""The SQLite schema as numbered migrations; PRAGMA user_version says which have run."""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot.domain.questionstats import OPTION_SLOTS
from storage.shared import ranks, usertext
from storage.shared.assignments import TABLES as ASSIGNMENT_TABLES
from storage.shared.awaited import BY_RUN as AWAITED_BY_RUN
from storage.shared.awaited import TABLE as AWAITED_ANSWERS
from storage.shared.drafts import DRAFT_TABLES
from storage.shared.extra_time import TABLE as EXTRA_TIME_TABLE
from storage.shared.host_panels import TABLE as HOST_PANELS_TABLE
from storage.shared.interactions import TABLE as SEEN_INTERACTIONS
from storage.shared.media import TABLE as MEDIA_IDS
from storage.shared.review import fsrs_migration
from storage.shared.tables import (
    OPTION_COLUMNS,
    RECOUNTED_SUMMARIES,
    REVIEW_SESSIONS,
    boundary,
)
from storage.shared.teams import TABLES as TEAM_TABLES
from storage.shared.updates import HOLDERS as SEEN_UPDATE_HOLDERS
from storage.shared.updates import TABLE as SEEN_UPDATES
from storage.shared.web import REVOCATIONS, RUN_STOPS, RUNS_BY_BOARD


def _summarise(answers: str, answered: str = "COUNT(*)", grouped: bool = True) -> str:
    """Add `answers` (a FROM ... WHERE clause over table `a`) to both board summaries; `answered`
    counts them (the kinds' migration: polls count as no answer). `grouped`: summed per summary
    row first, as a backfill's many answers a row are; else added an answer at a time, as a
    close's are (`answered` is then each answer's count: see PER_ANSWER)."""
    sum_, min_, max_ = (_aggregate(name, grouped) for name in ("SUM", "MIN", "MAX"))
    return f"""
    INSERT INTO board_days
        SELECT a.chat_key, CAST(a.answered_at / 86400 AS INTEGER), a.player_key, a.quiz_id,
               {sum_("a.points")}, {sum_("a.correct")}, {answered}, {min_("a.answered_at")}
        {answers}{_grouped_by(4, grouped)}
        ON CONFLICT DO UPDATE SET points = points + excluded.points,
            correct = correct + excluded.correct, answered = answered + excluded.answered,
            first_at = MIN(first_at, excluded.first_at);
    INSERT INTO board_totals
        SELECT a.chat_key, a.player_key, a.quiz_id, {sum_("a.points")}, {sum_("a.correct")}, {answered},
               {min_("a.answered_at")}, {max_("a.streak")}
        {answers}{_grouped_by(3, grouped)}
        ON CONFLICT DO UPDATE SET points = points + excluded.points,
            correct = correct + excluded.correct, answered = answered + excluded.answered,
            first_at = MIN(first_at, excluded.first_at),
            best_streak = MAX(best_streak, excluded.best_streak);
    """


def _aggregate(name: str, grouped: bool) -> Callable[[str], str]:
    """`name(column)` over a group; the column itself where each answer is added alone."""
    return (lambda column: f"{name}({column})") if grouped else (lambda column: column)


def _grouped_by(keys: int, grouped: bool) -> str:
    return f" GROUP BY {', '.join(str(k) for k in range(1, keys + 1))}" if grouped else ""


SCORED = "SUM(a.scored)"  # what the boards count as answered since the kinds' migration (polls are not)

# every answer already past its run's boundary (migration 2; the bench loads answers this way)
BOARD_BACKFILL = _summarise(f"FROM answers a JOIN runs r ON r.id = a.run_id WHERE a.idx < {boundary('r')}")


_LATE = "a.run_id = new.run_id AND a.idx = new.idx AND a.player_key = new.player_key"  # the answer just stored
_LATE_ANSWER = f"FROM answers a WHERE {_LATE}"
# the answers a run leaves behind as it moves past a question (or ends), and when it does
_CLOSED_ANSWERS = f"FROM answers a WHERE a.run_id = new.id AND a.idx >= {boundary('old')} AND a.idx < {boundary('new')}"
_ON_CLOSE = f"""AFTER UPDATE OF status, phase, idx ON runs
    WHEN {boundary("new")} > {boundary("old")}"""
# an answer stored into a question already summarised (only direct writes do that)
_ON_LATE = f"""AFTER INSERT ON answers
    WHEN new.idx < (SELECT {boundary("r")} FROM runs r WHERE r.id = new.run_id)"""


def _board_triggers(answered: str = "COUNT(*)") -> str:
    return f"""
    -- a run moving past a question (or ending) summarises the answers it leaves behind
    CREATE TRIGGER runs_summarise_answers {_ON_CLOSE} BEGIN
        {_summarise(_CLOSED_ANSWERS, answered)}
    END;
    -- an answer stored after its question was summarised (only direct writes do that) goes
    -- straight in; answers of the open question cost this one lookup of their run
    CREATE TRIGGER answers_late_to_boards {_ON_LATE} BEGIN
        {_summarise(_LATE_ANSWER, answered)}
    END;
    """


MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        key TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        is_private INTEGER NOT NULL DEFAULT 0,
        language TEXT,
        question_seconds INTEGER,
        pause_seconds REAL,
        created_at REAL NOT NULL
    );
    CREATE TABLE players (
        key TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        chat_key TEXT NOT NULL REFERENCES chats(key),
        quiz_id TEXT NOT NULL,
        language TEXT NOT NULL,
        seed INTEGER NOT NULL,
        question_ids TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        pause REAL NOT NULL,
        started_by TEXT NOT NULL,
        started_at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        phase TEXT NOT NULL,
        idx INTEGER NOT NULL,
        asked_at REAL NOT NULL,
        due REAL NOT NULL,
        message_id TEXT,
        silent INTEGER NOT NULL DEFAULT 0,
        ended_at REAL
    );
    -- one run per chat at a time, whatever the engine believes
    CREATE UNIQUE INDEX runs_one_open_per_chat ON runs(chat_key) WHERE status = 'open';
    CREATE TABLE answers (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        idx INTEGER NOT NULL,
        question_id TEXT NOT NULL,
        player_key TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        option INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        elapsed REAL NOT NULL,
        points INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (run_id, idx, player_key)
    ) WITHOUT ROWID;
    CREATE INDEX answers_by_chat_time ON answers(chat_key, answered_at);
    CREATE INDEX answers_by_player ON answers(chat_key, player_key);
    """,
    # 2: leaderboard summaries per chat, player and quiz (all time) and per UTC day (the week
    # and month boards start at UTC midnight), so a board reads a few rows per player instead
    # of grouping every stored answer. A question's answers are summarised when it closes,
    # in the same transaction as the run's new state: for one chat at a time, which touches a
    # few pages, where summarising at every press touched pages all over both tables for
    # every commit (measured: 4 B-tree writes an answer instead of 2).
    f"""
    CREATE TABLE board_days (
        chat_key TEXT NOT NULL,
        day INTEGER NOT NULL,
        player_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        first_at REAL NOT NULL,  -- the earliest answer: ties go to the earlier player
        PRIMARY KEY (chat_key, day, player_key, quiz_id)
    ) WITHOUT ROWID;
    CREATE TABLE board_totals (
        chat_key TEXT NOT NULL,
        player_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        first_at REAL NOT NULL,
        best_streak INTEGER NOT NULL,
        PRIMARY KEY (chat_key, player_key, quiz_id)
    ) WITHOUT ROWID;
    {BOARD_BACKFILL}
    {_board_triggers()}
    -- the boards read the summaries now; this index only cost every answer one more B-tree
    -- write (a third of an answer's insert time, measured). A board from an arbitrary instant
    -- still finds the chat's answers by answers_by_player (chat_key, player_key).
    DROP INDEX answers_by_chat_time;
    """,
    # chat quizzes: uploaded by a chat's admin, played only there (bot/content/chatquizzes.py)
    """
    CREATE TABLE chat_quizzes (
        chat_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        content TEXT NOT NULL,  -- the quiz file's data as JSON, checked before it was stored
        uploaded_by TEXT NOT NULL,
        uploaded_at REAL NOT NULL,
        PRIMARY KEY (chat_key, quiz_id)
    );
    """,
    # the outbox: messages the runs owe their chats, stored with the run state that made
    # them due and removed once the platform took them (bot/engine/sender.py)
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,  -- the order they were added in
        key TEXT NOT NULL UNIQUE,
        run_id INTEGER NOT NULL,
        chat_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        not_before REAL NOT NULL DEFAULT 0
    );
    """,
    # the web pages: the secret their links are signed with; chats whose leaderboard is public
    """
    CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE public_boards (
        chat_key TEXT PRIMARY KEY
    );
    CREATE INDEX runs_by_chat_start ON runs(chat_key, started_at);
    """,
)


def version() -> int:
    return len(MIGRATIONS)


def _tally_choices(answers: str) -> str:
    """Add `answers` (a FROM ... WHERE clause over table `a`) to the first statistics table, a row
    per player and option (the statistics migration; the next one replaced it by stat_players)."""
    return f"""
    INSERT INTO stat_choices
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, a.option, COUNT(*)
        {answers} GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT DO UPDATE SET answers = answers + excluded.answers;
    """


def _tally_players(answers: str, grouped: bool = True) -> str:
    """Add `answers` to the statistics per player and question: one row, a column per option
    (`grouped`: as in _summarise)."""
    sum_ = _aggregate("SUM", grouped)
    counts = ", ".join(sum_(f"CASE WHEN a.option = {i} THEN 1 ELSE 0 END") for i in range(OPTION_SLOTS))
    added = ", ".join(f"{c} = {c} + excluded.{c}" for c in OPTION_COLUMNS)
    return f"""
    INSERT INTO stat_players
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, {counts}
        {answers}{_grouped_by(4, grouped)}
        ON CONFLICT DO UPDATE SET {added};
    """


def _tally_times(answers: str, grouped: bool = True) -> str:
    """Add `answers` to the answer times per question, counted per tenth of a second."""
    counted = "COUNT(*)" if grouped else "1"
    return f"""
    INSERT INTO stat_times
        SELECT a.quiz_id, a.chat_key, a.question_id, CAST(a.elapsed * 10 + 0.5 AS INTEGER), {counted}
        {answers}{_grouped_by(4, grouped)}
        ON CONFLICT DO UPDATE SET answers = answers + excluded.answers;
    """


def _tally_stats(answers: str, grouped: bool = True) -> str:
    return _tally_players(answers, grouped) + _tally_times(answers, grouped)


def _tally_responses(answers: str, grouped: bool = True) -> str:
    """Add the `answers` that are no one option (a multi question's picks, a typed text, a number,
    an order) to the statistics per player, question and answer: the kind credits each from it."""
    counted = "COUNT(*)" if grouped else "1"
    return f"""
    INSERT INTO stat_responses
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, a.response, {counted}
        {answers} AND a.option < 0{_grouped_by(5, grouped)}
        ON CONFLICT DO UPDATE SET answers = answers + excluded.answers;
    """


def _stats_triggers(add: Callable[[str], str]) -> str:
    """The triggers that keep the statistics: a run moving past a question (or ending) adds the
    answers it leaves behind; an answer stored into a closed question goes straight in."""
    return f"""
    CREATE TRIGGER runs_tally_stats {_ON_CLOSE} BEGIN
        {add(_CLOSED_ANSWERS)}
    END;
    CREATE TRIGGER answers_late_to_stats {_ON_LATE} BEGIN
        {add(_LATE_ANSWER)}
    END;
    """


# every closed question's answers (the statistics migrations; the bench loads answers this way)
PAST_BOUNDARY = f"FROM answers a JOIN runs r ON r.id = a.run_id WHERE a.idx < {boundary('r')}"
STATS_BACKFILL = _tally_stats(PAST_BOUNDARY)

MIGRATIONS += (
    # review decks, question statistics, schedules and the chat's time zone.
    # Statistics are summed when a question closes, like the boards: per player and option
    # (the split, the share right and the discrimination index's groups) and per tenth of a
    # second (the median time), so /quizstats reads rows per player and question, never
    # every stored answer of a busy chat.
    f"""
    CREATE TABLE review_cards (
        player_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        box INTEGER NOT NULL,
        due REAL NOT NULL,
        PRIMARY KEY (player_key, quiz_id, question_id)
    ) WITHOUT ROWID;
    CREATE TABLE stat_choices (
        quiz_id TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        question_id TEXT NOT NULL,
        player_key TEXT NOT NULL,
        option INTEGER NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key, option)
    ) WITHOUT ROWID;
    CREATE TABLE stat_times (
        quiz_id TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        question_id TEXT NOT NULL,
        tenths INTEGER NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, tenths)
    ) WITHOUT ROWID;
    {_tally_choices(PAST_BOUNDARY) + _tally_times(PAST_BOUNDARY)}
    {_stats_triggers(lambda answers: _tally_choices(answers) + _tally_times(answers))}
    CREATE TABLE schedules (
        id INTEGER PRIMARY KEY,
        chat_key TEXT NOT NULL,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        is_private INTEGER NOT NULL,
        quiz_id TEXT NOT NULL,
        cadence TEXT NOT NULL,
        weekday INTEGER,
        hour INTEGER NOT NULL,
        minute INTEGER NOT NULL,
        questions INTEGER,  -- NULL: the whole quiz; 1: a question of the day
        hours INTEGER NOT NULL,  -- how long a question of the day stays open
        status TEXT NOT NULL,
        next_due REAL NOT NULL,
        asked TEXT NOT NULL,  -- question ids asked in this round (JSON list)
        seed INTEGER NOT NULL,
        created_by TEXT NOT NULL
    );
    CREATE INDEX schedules_by_due ON schedules(status, next_due);
    CREATE INDEX schedules_by_chat ON schedules(chat_key);
    ALTER TABLE chats ADD COLUMN time_zone TEXT;
    """,
)

MIGRATIONS += (
    # webhook updates taken already (storage/shared/updates.py): a repeat is skipped, whichever worker gets it
    SEEN_UPDATES.format(key="INTEGER", time="REAL"),
    # question statistics in one row per player and question, a column per option, instead of a
    # row per player and option: /quizstats reads the rows of the players who answered each
    # question (what the discrimination index ranks), however often they answered it, where the
    # rows per option grew towards one per option as a chat played on. Backfilled from the
    # stored answers, then kept by the same triggers as before.
    f"""
    CREATE TABLE stat_players (
        quiz_id TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        question_id TEXT NOT NULL,
        player_key TEXT NOT NULL,
        {", ".join(f"{c} INTEGER NOT NULL" for c in OPTION_COLUMNS)},
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key)
    ) WITHOUT ROWID;
    {_tally_players(PAST_BOUNDARY)}
    DROP TRIGGER runs_tally_stats;
    DROP TRIGGER answers_late_to_stats;
    {_stats_triggers(_tally_stats)}
    DROP TABLE stat_choices;
    """,
)

MIGRATIONS += (
    """
    CREATE TABLE review_cards_keyed (
        player_key TEXT NOT NULL,
        quiz_chat TEXT NOT NULL DEFAULT '',
        quiz_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        box INTEGER NOT NULL,
        due REAL NOT NULL,
        PRIMARY KEY (player_key, quiz_chat, quiz_id, question_id)
    ) WITHOUT ROWID;
    INSERT INTO review_cards_keyed(player_key, quiz_id, question_id, box, due)
        SELECT player_key, quiz_id, question_id, box, due FROM review_cards;
    DROP TABLE review_cards;
    ALTER TABLE review_cards_keyed RENAME TO review_cards;
    """
    + REVIEW_SESSIONS,
)

# Summaries that counted answers twice (boundary() gave a question waiting to be posted as
# closed, so the move to asking went back and its close added its answers again): the triggers
# with the boundary that never moves back, and every summary recounted from the stored answers.
MIGRATIONS += (
    f"""
    DROP TRIGGER runs_summarise_answers;
    DROP TRIGGER answers_late_to_boards;
    DROP TRIGGER runs_tally_stats;
    DROP TRIGGER answers_late_to_stats;
    {_board_triggers()}
    {_stats_triggers(_tally_stats)}
    {"".join(f"DELETE FROM {table};" for table in RECOUNTED_SUMMARIES)}
    {BOARD_BACKFILL}
    {STATS_BACKFILL}
    """,
)

MIGRATIONS += (
    # /dashboard revoke: since when a chat's web links count (storage/shared/web.py)
    REVOCATIONS.format(time="REAL"),
    # a claim of an update names its holder and lasts CLAIM_SECONDS (storage/shared/updates.py): a repeat
    # of an update whose worker died holding it is handled after all
    SEEN_UPDATE_HOLDERS.format(key="INTEGER", time="REAL"),
)
# the reveal rides on the question's closing edit; a chat may ask for a short reply as well (/settings notify on)
MIGRATIONS += ("ALTER TABLE chats ADD COLUMN close_notice INTEGER NOT NULL DEFAULT 0;",)

# /review schedules with FSRS: each card's memory state, and a log of every grade (storage/shared/review.py)
MIGRATIONS += (fsrs_migration("TEXT", "REAL", "INTEGER PRIMARY KEY", " WITHOUT ROWID"),)
# assignments: a quiz members play in private until a deadline, counted on the group's boards
# (storage/shared/assignments.py); a run played for another chat names it (runs.board_chat)
MIGRATIONS += (ASSIGNMENT_TABLES.format(id="INTEGER PRIMARY KEY", time="REAL"),)
# who /stop-ped a run, for its report (storage/shared/web.py)
MIGRATIONS += (RUN_STOPS.format(key="INTEGER"),)
# the board triggers as the kinds' migration found them (tests put a database back to before it)
BOARD_TRIGGERS_BEFORE_KINDS = _board_triggers()

# kinds of question (issue #22): what a player answered besides an option (a select-all-that-apply
# question's picks, a typed text, a number) and whether the answer is scored at all (a poll is
# not: it counts in neither "answered" nor accuracy on the boards). Stored answers were all
# scored, so the summaries stand as they are; the board triggers count scored answers from now.
MIGRATIONS += (
    f"""
    ALTER TABLE answers ADD COLUMN response TEXT NOT NULL DEFAULT '';
    ALTER TABLE answers ADD COLUMN scored INTEGER NOT NULL DEFAULT 1;
    DROP TRIGGER runs_summarise_answers;
    DROP TRIGGER answers_late_to_boards;
    {_board_triggers(SCORED)}
    """,
)

# a question's picture is uploaded to Telegram once: the file_id it gave is kept by the file's
# digest for every worker and the next start (storage/shared/media.py)
MIGRATIONS += (MEDIA_IDS,)
# quizzes written in the chat (issue #23): each author's draft, and the codes of share links
MIGRATIONS += (DRAFT_TABLES.format(time="REAL"),)
# what a player's next private message answers after a typed question's "Answer" deep link,
# for whichever worker receives it (storage/shared/awaited.py)
MIGRATIONS += (AWAITED_ANSWERS.format(id="INTEGER", time="REAL"),)
# a group's web page lists the runs its members played for it in private (storage/shared/web.py)
MIGRATIONS += (RUNS_BY_BOARD,)

# boards kept in rank order (issue #24: flat in the data): each player's sums per period, added
# when a run ends and read top first from an index (storage/shared/ranks.py). A late answer to an
# ended run goes in with the boards' late trigger, which fires for every such answer already, so
# no answer pays for another trigger. Written to run again (tests put a database back before it).
_DAY = "CAST(a.answered_at / 86400 AS INTEGER)"
_MONTH_DAY = "CAST(strftime('%s', g.day * 86400, 'unixepoch', 'start of month') AS INTEGER) / 86400"
# every answer of the ended runs, afresh (the migration; the bench loads answers so)
RANKS_BACKFILL = "DELETE FROM board_ranks;" + ranks.add_answers(ranks.ANSWERS_OF_RUNS, ranks.ENDED, _DAY, _MONTH_DAY)


def _late_to_boards_and_ranks(summarised: str) -> str:
    """The boards' late trigger once boards are ranked: `summarised` adds the answer to the
    summaries, and an answer to an ended run goes into the ranks too."""
    return f"""CREATE TRIGGER answers_late_to_boards {_ON_LATE} BEGIN
        {summarised}
        {ranks.add_answers(ranks.ANSWERS_OF_RUNS, f"{_LATE} AND {ranks.ENDED}", _DAY, _MONTH_DAY)}
    END;"""


MIGRATIONS += (
    f"""
    {ranks.TABLE.format(key="TEXT", time="REAL", rowid=" WITHOUT ROWID")}
    {RANKS_BACKFILL}
    CREATE TRIGGER IF NOT EXISTS runs_rank_players AFTER UPDATE OF status ON runs
    WHEN old.status = 'open' AND new.status <> 'open' BEGIN
        {ranks.add_answers("answers a", "a.run_id = new.id", _DAY, _MONTH_DAY)}
    END;
    DROP TRIGGER IF EXISTS answers_late_to_boards;
    {_late_to_boards_and_ranks(_summarise(_LATE_ANSWER, SCORED))}
    """,
)

# A close's summaries add its answers one at a time (issue #24: the writer's time at 30% of flat
# out). Each player has one answer to a question, so a close's GROUP BY summed nothing, and
# sorting the answers into groups cost as much as the upserts: a close of 50 answers (its four
# statements and the batch around them) took 565 µs grouped and 301 one at a time, on a copy of
# the bench's database (docs/PERFORMANCE.md). The upserts add whatever a group would have (sums,
# the earliest answer, the best streak), so a run's end, which summarises several questions at
# once, comes to the same. Backfills still group: many answers a row. Written to run again (tests
# put a database back before it).
PER_ANSWER = "a.scored"  # an answer's count on the boards (a poll's is 0), added one at a time
MIGRATIONS += (
    f"""
    DROP TRIGGER IF EXISTS runs_summarise_answers;
    DROP TRIGGER IF EXISTS answers_late_to_boards;
    DROP TRIGGER IF EXISTS runs_tally_stats;
    DROP TRIGGER IF EXISTS answers_late_to_stats;
    CREATE TRIGGER runs_summarise_answers {_ON_CLOSE} BEGIN
        {_summarise(_CLOSED_ANSWERS, PER_ANSWER, grouped=False)}
    END;
    {_late_to_boards_and_ranks(_summarise(_LATE_ANSWER, PER_ANSWER, grouped=False))}
    {_stats_triggers(functools.partial(_tally_stats, grouped=False))}
    """,
)

# a player sent to answer two groups' typed questions has both to answer, each named with its
# group (storage/shared/awaited.py); the rows of links without a proof go
MIGRATIONS += (AWAITED_BY_RUN.format(id="INTEGER", time="REAL"),)

# Discord interactions taken already (storage/shared/interactions.py): a signed request posted
# again, to any worker, changes nothing
MIGRATIONS += (SEEN_INTERACTIONS.format(key="INTEGER", time="REAL"),)

# names, titles and typed answers stored before directional controls and NUL were dropped where
# they enter (storage/shared/usertext.py): cleaned as they would be now
MIGRATIONS += (usertext.nuls_dropped() + usertext.cleaning("char"),)

# Share right and discrimination for every scored kind (issue #48): what each player answered
# besides one option (a select-all-that-apply question's picks, a typed text, a number, an
# order), counted per player, question and answer, so the statistics credit each as its kind
# does (a partly right answer its share) from sums, never from every stored answer. Backfilled
# exactly from the stored responses; kept by the statistics triggers, one answer at a time as
# the per-answer migration says. Written to run again (tests put a database back before it).
RESPONSES_BACKFILL = "DELETE FROM stat_responses;" + _tally_responses(PAST_BOUNDARY)
# the statistics triggers as this migration found them (tests put a database back to before it)
STATS_TRIGGERS_BEFORE_RESPONSES = _stats_triggers(functools.partial(_tally_stats, grouped=False))
MIGRATIONS += (
    f"""
    CREATE TABLE IF NOT EXISTS stat_responses (
        quiz_id TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        question_id TEXT NOT NULL,
        player_key TEXT NOT NULL,
        response TEXT NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key, response)
    ) WITHOUT ROWID;
    {RESPONSES_BACKFILL}
    DROP TRIGGER IF EXISTS runs_tally_stats;
    DROP TRIGGER IF EXISTS answers_late_to_stats;
    {_stats_triggers(lambda answers: _tally_stats(answers, grouped=False) + _tally_responses(answers, grouped=False))}
    """,
)


# teams (issue #49): a chat's line-up of teams, adopted by its next run (storage/shared/teams.py)
MIGRATIONS += (
    TEAM_TABLES.format(id="INTEGER PRIMARY KEY AUTOINCREMENT", time="REAL"),
)  # ids never reused: a stale button names none

# Hosted games (issue #49): a run's host, the time its open question had left when paused, when
# its hint was shown, the questions its host skipped (JSON); who may /host in a group
MIGRATIONS += (
    """
    ALTER TABLE runs ADD COLUMN host_key TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN paused_left REAL;
    ALTER TABLE runs ADD COLUMN hint_at REAL NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN skipped TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE chats ADD COLUMN host_anyone INTEGER NOT NULL DEFAULT 0;
    """,
)

# plain text for screen readers (issue #50): /settings plain on
MIGRATIONS += ("ALTER TABLE chats ADD COLUMN plain_text INTEGER NOT NULL DEFAULT 0;",)

# extra time (issue #50): the factor a run's time limits are stretched by, read once as it starts;
# the rules admins gave members (storage/shared/extra_time.py)
MIGRATIONS += (
    """
    ALTER TABLE runs ADD COLUMN time_factor REAL NOT NULL DEFAULT 1;
    """
    + EXTRA_TIME_TABLE.format(real="REAL"),
)

# Scoring that fits the room (issue #50): a chat's rules (/settings scoring, streaks, board),
# and each run's copy of them as it started
MIGRATIONS += (
    """
    ALTER TABLE chats ADD COLUMN scoring TEXT NOT NULL DEFAULT 'speed';
    ALTER TABLE chats ADD COLUMN streaks INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE chats ADD COLUMN board_end INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN scoring TEXT NOT NULL DEFAULT 'speed';
    ALTER TABLE runs ADD COLUMN streaks INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE runs ADD COLUMN board_end INTEGER NOT NULL DEFAULT 0;
    """,
)

# fair play (issue #50): how old a Discord account must be to score in a chat (/settings min_age,
# seconds, 0: any), and each run's copy of it as it started (bot/domain/fairplay.py)
MIGRATIONS += (
    """
    ALTER TABLE chats ADD COLUMN min_age INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN min_age INTEGER NOT NULL DEFAULT 0;
    """,
)


# where each hosted run's panel is (storage/shared/host_panels.py): kept current after a restart
MIGRATIONS += (HOST_PANELS_TABLE,)
