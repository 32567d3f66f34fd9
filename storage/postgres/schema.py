"""The PostgreSQL schema as numbered migrations; table `schema_version` says which have run.

The same tables, keys and board summaries as SQLite's (storage/sqlite/schema.py), in PostgreSQL's
words: DOUBLE PRECISION for times (PostgreSQL's REAL is 4 bytes), keys compared bytewise
(COLLATE "C", as SQLite does, so ties on the boards order the same on both stores), triggers
as PL/pgSQL functions. Late answers are summarised by a statement trigger over the inserted
rows, so a batch of a thousand answers costs one trigger call, not a thousand.
"""

from __future__ import annotations

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
from storage.shared.tables import OPTION_COLUMNS, RECOUNTED_SUMMARIES, REVIEW_SESSIONS, boundary
from storage.shared.teams import TABLES as TEAM_TABLES
from storage.shared.updates import HOLDERS as SEEN_UPDATE_HOLDERS
from storage.shared.updates import TABLE as SEEN_UPDATES
from storage.shared.web import REVOCATIONS, RUN_STOPS, RUNS_BY_BOARD

KEY = 'TEXT COLLATE "C"'


def _summarise(answers: str, answered: str = "COUNT(*)") -> str:
    """Add `answers` (a FROM ... WHERE clause over `a`) to both board summaries; `answered`
    counts them (the kinds' migration: polls count as no answer)."""
    return f"""
    INSERT INTO board_days AS b
        SELECT a.chat_key, FLOOR(a.answered_at / 86400)::INTEGER, a.player_key, a.quiz_id,
               SUM(a.points), SUM(a.correct), {answered}, MIN(a.answered_at)
        {answers} GROUP BY 1, 2, 3, 4
        ON CONFLICT (chat_key, day, player_key, quiz_id) DO UPDATE SET points = b.points + excluded.points,
            correct = b.correct + excluded.correct, answered = b.answered + excluded.answered,
            first_at = LEAST(b.first_at, excluded.first_at);
    INSERT INTO board_totals AS b
        SELECT a.chat_key, a.player_key, a.quiz_id, SUM(a.points), SUM(a.correct), {answered},
               MIN(a.answered_at), MAX(a.streak)
        {answers} GROUP BY 1, 2, 3
        ON CONFLICT (chat_key, player_key, quiz_id) DO UPDATE SET points = b.points + excluded.points,
            correct = b.correct + excluded.correct, answered = b.answered + excluded.answered,
            first_at = LEAST(b.first_at, excluded.first_at),
            best_streak = GREATEST(b.best_streak, excluded.best_streak);
    """


# every answer already past its run's boundary (the boards' and statistics' migrations; the bench loads so)
PAST_BOUNDARY = f"FROM answers a JOIN runs r ON r.id = a.run_id WHERE a.idx < {boundary('r')}"
BOARD_BACKFILL = _summarise(PAST_BOUNDARY)


def _kept_up(add: Callable[[str], str], runs_trigger: str, late_trigger: str) -> str:
    """`add`'s sums (boards, statistics) backfilled from the stored answers, then kept by triggers."""
    return f"""
    {add(PAST_BOUNDARY)}
    {_trigger_functions(add, runs_trigger, late_trigger, "CREATE")}
    {_runs_trigger(runs_trigger)}
    CREATE TRIGGER {late_trigger} AFTER INSERT ON answers REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION {late_trigger}();
    """


def _runs_trigger(name: str) -> str:
    return f"""
    CREATE TRIGGER {name} AFTER UPDATE OF status, phase, idx ON runs
        FOR EACH ROW WHEN ({boundary("NEW")} > {boundary("OLD")}) EXECUTE FUNCTION {name}();
    """


_LATE = f"FROM inserted a JOIN runs r ON r.id = a.run_id WHERE a.idx < {boundary('r')}"  # the rows a statement stored


def _trigger_functions(add: Callable[[str], str], runs_trigger: str, late_trigger: str, verb: str) -> str:
    """What the triggers run: a run moving past a question (or ending) adds the answers it leaves
    behind; answers stored after their question was summed (only direct writes do that) go
    straight in, one call per statement, over the rows it inserted."""
    return f"""
    {verb} FUNCTION {runs_trigger}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
        {add(f"FROM answers a WHERE a.run_id = NEW.id AND a.idx >= {boundary('OLD')} AND a.idx < {boundary('NEW')}")}
        RETURN NULL;
    END $fn$;
    {verb} FUNCTION {late_trigger}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
        {add(_LATE)}
        RETURN NULL;
    END $fn$;
    """


def _tally_choices(answers: str) -> str:
    """Add `answers` (a FROM ... WHERE clause over `a`) to the first statistics table, a row per
    player and option (as SQLite's; the next statistics migration replaced it by stat_players)."""
    return f"""
    INSERT INTO stat_choices AS s
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, a.option, COUNT(*)
        {answers} GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT (quiz_id, chat_key, question_id, player_key, option)
        DO UPDATE SET answers = s.answers + excluded.answers;
    """


def _tally_players(answers: str) -> str:
    """Add `answers` to the statistics per player and question: one row, a column per option."""
    counts = ", ".join(f"COUNT(*) FILTER (WHERE a.option = {i})" for i in range(OPTION_SLOTS))
    added = ", ".join(f"{c} = s.{c} + excluded.{c}" for c in OPTION_COLUMNS)
    return f"""
    INSERT INTO stat_players AS s
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, {counts}
        {answers} GROUP BY 1, 2, 3, 4
        ON CONFLICT (quiz_id, chat_key, question_id, player_key) DO UPDATE SET {added};
    """


def _tally_times(answers: str) -> str:
    """Add `answers` to the answer times per question, counted per tenth of a second."""
    return f"""
    INSERT INTO stat_times AS s
        SELECT a.quiz_id, a.chat_key, a.question_id, FLOOR(a.elapsed * 10 + 0.5)::INTEGER, COUNT(*)
        {answers} GROUP BY 1, 2, 3, 4
        ON CONFLICT (quiz_id, chat_key, question_id, tenths) DO UPDATE SET answers = s.answers + excluded.answers;
    """


def _tally_stats(answers: str) -> str:
    return _tally_players(answers) + _tally_times(answers)


def _tally_responses(answers: str) -> str:
    """Add the `answers` that are no one option to the statistics per player, question and answer."""
    return f"""
    INSERT INTO stat_responses AS s
        SELECT a.quiz_id, a.chat_key, a.question_id, a.player_key, a.response, COUNT(*)
        {answers} AND a.option < 0 GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT (quiz_id, chat_key, question_id, player_key, response)
        DO UPDATE SET answers = s.answers + excluded.answers;
    """


STATS_BACKFILL = _tally_stats(PAST_BOUNDARY)

MIGRATIONS: tuple[str, ...] = (
    # 1: chats, players, runs, answers
    f"""
    CREATE TABLE chats (
        key {KEY} PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        is_private BOOLEAN NOT NULL DEFAULT false,
        language TEXT,
        question_seconds INTEGER,
        pause_seconds DOUBLE PRECISION,
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE players (
        key {KEY} PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE runs (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        chat_key {KEY} NOT NULL REFERENCES chats(key),
        quiz_id {KEY} NOT NULL,
        language TEXT NOT NULL,
        seed BIGINT NOT NULL,
        question_ids TEXT[] NOT NULL,
        seconds INTEGER NOT NULL,
        pause DOUBLE PRECISION NOT NULL,
        started_by TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        phase TEXT NOT NULL,
        idx INTEGER NOT NULL,
        asked_at DOUBLE PRECISION NOT NULL,
        due DOUBLE PRECISION NOT NULL,
        message_id TEXT,
        silent INTEGER NOT NULL DEFAULT 0,
        ended_at DOUBLE PRECISION
    );
    -- one run per chat at a time, whatever the engine believes
    CREATE UNIQUE INDEX runs_one_open_per_chat ON runs(chat_key) WHERE status = 'open';
    CREATE TABLE answers (
        run_id BIGINT NOT NULL REFERENCES runs(id),
        idx INTEGER NOT NULL,
        question_id TEXT NOT NULL,
        player_key {KEY} NOT NULL,
        chat_key {KEY} NOT NULL,
        quiz_id {KEY} NOT NULL,
        option INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        elapsed DOUBLE PRECISION NOT NULL,
        points INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        answered_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (run_id, idx, player_key)
    );
    CREATE INDEX answers_by_player ON answers(chat_key, player_key);
    """,
    # 2: leaderboard summaries, kept by triggers as SQLite's migration 2 keeps them
    f"""
    CREATE TABLE board_days (
        chat_key {KEY} NOT NULL,
        day INTEGER NOT NULL,
        player_key {KEY} NOT NULL,
        quiz_id {KEY} NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        first_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (chat_key, day, player_key, quiz_id)
    );
    CREATE TABLE board_totals (
        chat_key {KEY} NOT NULL,
        player_key {KEY} NOT NULL,
        quiz_id {KEY} NOT NULL,
        points INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        first_at DOUBLE PRECISION NOT NULL,
        best_streak INTEGER NOT NULL,
        PRIMARY KEY (chat_key, player_key, quiz_id)
    );
    {_kept_up(_summarise, "runs_summarise_answers", "answers_late_to_boards")}
    """,
    # chat quizzes: uploaded by a chat's admin, played only there (bot/content/chatquizzes.py)
    """
    CREATE TABLE chat_quizzes (
        chat_key TEXT NOT NULL,
        quiz_id TEXT NOT NULL,
        content TEXT NOT NULL,  -- the quiz file's data as JSON, checked before it was stored
        uploaded_by TEXT NOT NULL,
        uploaded_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (chat_key, quiz_id)
    );
    """,
    # 4: several workers on one database: each open run has an owner and a lease, by the
    # database's clock (storage/postgres/leases.py)
    """
    ALTER TABLE runs ADD COLUMN owner TEXT, ADD COLUMN lease_until TIMESTAMPTZ;
    CREATE INDEX runs_open_by_lease ON runs(lease_until) WHERE status = 'open';
    """,
    # the outbox, as SQLite's
    """
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        run_id BIGINT NOT NULL,
        chat_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        not_before DOUBLE PRECISION NOT NULL DEFAULT 0
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


MIGRATIONS += (
    # review decks, question statistics, schedules, the chat's time zone (as SQLite's)
    f"""
    CREATE TABLE review_cards (
        player_key {KEY} NOT NULL,
        quiz_id {KEY} NOT NULL,
        question_id {KEY} NOT NULL,
        box INTEGER NOT NULL,
        due DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_key, quiz_id, question_id)
    );
    CREATE TABLE stat_choices (
        quiz_id {KEY} NOT NULL,
        chat_key {KEY} NOT NULL,
        question_id {KEY} NOT NULL,
        player_key {KEY} NOT NULL,
        option INTEGER NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key, option)
    );
    CREATE TABLE stat_times (
        quiz_id {KEY} NOT NULL,
        chat_key {KEY} NOT NULL,
        question_id {KEY} NOT NULL,
        tenths INTEGER NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, tenths)
    );
    {
        _kept_up(
            lambda answers: _tally_choices(answers) + _tally_times(answers), "runs_tally_stats", "answers_late_to_stats"
        )
    }
    CREATE TABLE schedules (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        chat_key {KEY} NOT NULL,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        is_private INTEGER NOT NULL,
        quiz_id {KEY} NOT NULL,
        cadence TEXT NOT NULL,
        weekday INTEGER,
        hour INTEGER NOT NULL,
        minute INTEGER NOT NULL,
        questions INTEGER,
        hours INTEGER NOT NULL,
        status TEXT NOT NULL,
        next_due DOUBLE PRECISION NOT NULL,
        asked TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created_by TEXT NOT NULL
    );
    CREATE INDEX schedules_by_due ON schedules(status, next_due);
    CREATE INDEX schedules_by_chat ON schedules(chat_key);
    ALTER TABLE chats ADD COLUMN time_zone TEXT;
    """,
)
MIGRATIONS += (
    # webhook updates taken already (storage/shared/updates.py): a repeat is skipped, whichever worker gets it
    SEEN_UPDATES.format(key="BIGINT", time="DOUBLE PRECISION"),
    # question statistics in one row per player and question, a column per option (as SQLite's)
    f"""
    CREATE TABLE stat_players (
        quiz_id {KEY} NOT NULL,
        chat_key {KEY} NOT NULL,
        question_id {KEY} NOT NULL,
        player_key {KEY} NOT NULL,
        {", ".join(f"{c} INTEGER NOT NULL" for c in OPTION_COLUMNS)},
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key)
    );
    {_tally_players(PAST_BOUNDARY)}
    {_trigger_functions(_tally_stats, "runs_tally_stats", "answers_late_to_stats", "CREATE OR REPLACE")}
    DROP TABLE stat_choices;
    """,
)


MIGRATIONS += (
    # several workers: a /stop taken by a worker that does not run the quiz waits here for its
    # owner (storage/postgres/wakeups.py); each owed message is held by one worker, by the database's
    # clock, and moves to a live one when its worker dies (storage/postgres/leases.py)
    """
    ALTER TABLE runs ADD COLUMN stop_by TEXT;
    ALTER TABLE outbox ADD COLUMN owner TEXT;
    ALTER TABLE outbox ADD COLUMN lease_until TIMESTAMPTZ;
    UPDATE outbox o SET owner = r.owner FROM runs r WHERE r.id = o.run_id;
    CREATE INDEX outbox_by_owner ON outbox(owner);
    """,
)

MIGRATIONS += (
    # review cards of chats' own quizzes, and open reviews (as SQLite's)
    """
    ALTER TABLE review_cards ADD COLUMN quiz_chat TEXT COLLATE "C" NOT NULL DEFAULT '';
    ALTER TABLE review_cards DROP CONSTRAINT review_cards_pkey;
    ALTER TABLE review_cards ADD PRIMARY KEY (player_key, quiz_chat, quiz_id, question_id);
    """
    + REVIEW_SESSIONS.replace("session_id INTEGER", "session_id BIGINT"),
)

MIGRATIONS += (
    # summaries that counted answers twice: the boundary that never moves back (storage/sqlite/schema.py's
    # last migration says why), and every summary recounted from the stored answers
    f"""
    {_trigger_functions(_summarise, "runs_summarise_answers", "answers_late_to_boards", "CREATE OR REPLACE")}
    {_trigger_functions(_tally_stats, "runs_tally_stats", "answers_late_to_stats", "CREATE OR REPLACE")}
    DROP TRIGGER runs_summarise_answers ON runs;
    {_runs_trigger("runs_summarise_answers")}
    DROP TRIGGER runs_tally_stats ON runs;
    {_runs_trigger("runs_tally_stats")}
    TRUNCATE {", ".join(RECOUNTED_SUMMARIES)};
    {BOARD_BACKFILL}
    {STATS_BACKFILL}
    """,
)

MIGRATIONS += (
    # /dashboard revoke (as SQLite's)
    REVOCATIONS.format(time="DOUBLE PRECISION"),
    # a claim of an update names its holder and lasts CLAIM_SECONDS (storage/shared/updates.py): a repeat
    # of an update whose worker died holding it is handled after all
    SEEN_UPDATE_HOLDERS.format(key="BIGINT", time="DOUBLE PRECISION"),
)
# the reveal rides on the question's closing edit; a chat may ask for a short reply as well (/settings notify on)
MIGRATIONS += ("ALTER TABLE chats ADD COLUMN close_notice BOOLEAN NOT NULL DEFAULT false;",)
# assignments (as SQLite's)
MIGRATIONS += (
    ASSIGNMENT_TABLES.format(id="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", time="DOUBLE PRECISION"),
)

# /review schedules with FSRS (as SQLite's); the key keeps its usual name for a later migration to find
MIGRATIONS += (
    fsrs_migration(KEY, "DOUBLE PRECISION", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    + "ALTER INDEX review_cards_fsrs_pkey RENAME TO review_cards_pkey;",
)

# who /stop-ped a run, for its report (storage/shared/web.py)
MIGRATIONS += (RUN_STOPS.format(key="BIGINT"),)

# kinds of question (issue #22), as SQLite's: the answer's response and whether it is scored
# (polls are not); stored answers were all scored, so the summaries stand as they are
SCORED = "SUM(a.scored)::INTEGER"
MIGRATIONS += (
    f"""
    ALTER TABLE answers ADD COLUMN response TEXT NOT NULL DEFAULT '';
    ALTER TABLE answers ADD COLUMN scored INTEGER NOT NULL DEFAULT 1;
    {
        _trigger_functions(
            lambda answers: _summarise(answers, SCORED),
            "runs_summarise_answers",
            "answers_late_to_boards",
            "CREATE OR REPLACE",
        )
    }
    """,
)

# a question's picture is uploaded to Telegram once: the file_id it gave is kept by the file's
# digest for every worker and the next start (storage/shared/media.py)
MIGRATIONS += (MEDIA_IDS,)


# quizzes written in the chat (issue #23): each author's draft, and the codes of share links
MIGRATIONS += (DRAFT_TABLES.format(time="DOUBLE PRECISION"),)
# what a player's next private message answers after a typed question's "Answer" deep link,
# for whichever worker receives it (storage/shared/awaited.py)
MIGRATIONS += (AWAITED_ANSWERS.format(id="BIGINT", time="DOUBLE PRECISION"),)

# a group's web page lists the runs its members played for it in private (storage/shared/web.py)
MIGRATIONS += (RUNS_BY_BOARD,)

# boards kept in rank order (as SQLite's): each player's sums per period, added when a run ends;
# a late answer to an ended run goes in with the boards' late trigger. Written to run again.
_DAY = "FLOOR(a.answered_at / 86400)::INTEGER"
_MONTH = "date_trunc('month', to_timestamp(g.day * 86400.0) AT TIME ZONE 'UTC')"
_MONTH_DAY = f"(EXTRACT(EPOCH FROM {_MONTH}) / 86400)::INTEGER"
# every answer of the ended runs, afresh (the migration; the bench loads answers so)
RANKS_BACKFILL = "DELETE FROM board_ranks;" + ranks.add_answers(ranks.ANSWERS_OF_RUNS, ranks.ENDED, _DAY, _MONTH_DAY)
MIGRATIONS += (
    f"""
    {ranks.TABLE.format(key=KEY, time="DOUBLE PRECISION", rowid="")}
    {RANKS_BACKFILL}
    CREATE OR REPLACE FUNCTION runs_rank_players() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
        {ranks.add_answers("answers a", "a.run_id = NEW.id", _DAY, _MONTH_DAY)}
        RETURN NULL;
    END $fn$;
    DROP TRIGGER IF EXISTS runs_rank_players ON runs;
    CREATE TRIGGER runs_rank_players AFTER UPDATE OF status ON runs
        FOR EACH ROW WHEN (OLD.status = 'open' AND NEW.status <> 'open') EXECUTE FUNCTION runs_rank_players();
    CREATE OR REPLACE FUNCTION answers_late_to_boards() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
        {_summarise(_LATE, SCORED)}
        {ranks.add_answers("inserted a JOIN runs r ON r.id = a.run_id", ranks.ENDED, _DAY, _MONTH_DAY)}
        RETURN NULL;
    END $fn$;
    """,
)


# a player sent to answer two groups' typed questions has both to answer, each named with its
# group (storage/shared/awaited.py); the rows of links without a proof go
MIGRATIONS += (AWAITED_BY_RUN.format(id="BIGINT", time="DOUBLE PRECISION"),)

# Discord interactions taken already (storage/shared/interactions.py): a signed request posted
# again, to any worker, changes nothing
MIGRATIONS += (SEEN_INTERACTIONS.format(key="BIGINT", time="DOUBLE PRECISION"),)

# names, titles and typed answers stored before directional controls were dropped where they enter
# (storage/shared/usertext.py): cleaned as they would be now (a PostgreSQL text never held a NUL)
MIGRATIONS += (usertext.cleaning("chr"),)

# share right and discrimination for every scored kind (as SQLite's): the answers that are no one
# option, counted per player, question and answer; backfilled, then kept by the statistics triggers
RESPONSES_BACKFILL = "DELETE FROM stat_responses;" + _tally_responses(PAST_BOUNDARY)
MIGRATIONS += (
    f"""
    CREATE TABLE IF NOT EXISTS stat_responses (
        quiz_id {KEY} NOT NULL,
        chat_key {KEY} NOT NULL,
        question_id {KEY} NOT NULL,
        player_key {KEY} NOT NULL,
        response TEXT NOT NULL,
        answers INTEGER NOT NULL,
        PRIMARY KEY (quiz_id, chat_key, question_id, player_key, response)
    );
    {RESPONSES_BACKFILL}
    {
        _trigger_functions(
            lambda answers: _tally_stats(answers) + _tally_responses(answers),
            "runs_tally_stats",
            "answers_late_to_stats",
            "CREATE OR REPLACE",
        )
    }
    """,
)

# the big screen's events between workers (storage/postgres/live.py): numbered here, announced
# with NOTIFY, read by every worker with viewers, pruned after an hour
MIGRATIONS += (
    """
    CREATE TABLE IF NOT EXISTS live_events (
        id BIGSERIAL PRIMARY KEY,
        chat_key TEXT NOT NULL,
        run_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX IF NOT EXISTS live_events_by_chat ON live_events (chat_key, id);
    CREATE INDEX IF NOT EXISTS live_events_by_time ON live_events (at);
    """,
)


# teams (issue #49): a chat's line-up of teams, adopted by its next run (storage/shared/teams.py)
MIGRATIONS += (TEAM_TABLES.format(id="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", time="DOUBLE PRECISION"),)

# hosted games (as SQLite's): a run's host, its pause, its hint, its skipped questions; who may /host;
# and a host's actions taken by a worker that does not run the game, for its owner (wakeups.py)
MIGRATIONS += (
    """
    ALTER TABLE runs ADD COLUMN host_key TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN paused_left DOUBLE PRECISION;
    ALTER TABLE runs ADD COLUMN hint_at DOUBLE PRECISION NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN skipped TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE chats ADD COLUMN host_anyone BOOLEAN NOT NULL DEFAULT false;
    CREATE TABLE IF NOT EXISTS host_requests (
        id BIGSERIAL PRIMARY KEY,
        run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        action TEXT NOT NULL,
        by_key TEXT NOT NULL
    );
    """,
)

# plain text for screen readers (issue #50): /settings plain on
MIGRATIONS += ("ALTER TABLE chats ADD COLUMN plain_text BOOLEAN NOT NULL DEFAULT false;",)

# extra time (issue #50): the factor a run's time limits are stretched by, read once as it starts;
# the rules admins gave members (storage/shared/extra_time.py)
MIGRATIONS += (
    """
    ALTER TABLE runs ADD COLUMN time_factor DOUBLE PRECISION NOT NULL DEFAULT 1;
    """
    + EXTRA_TIME_TABLE.format(real="DOUBLE PRECISION"),
)

# scoring that fits the room (as SQLite's): a chat's rules and each run's copy of them
MIGRATIONS += (
    """
    ALTER TABLE chats ADD COLUMN scoring TEXT NOT NULL DEFAULT 'speed';
    ALTER TABLE chats ADD COLUMN streaks BOOLEAN NOT NULL DEFAULT true;
    ALTER TABLE chats ADD COLUMN board_end BOOLEAN NOT NULL DEFAULT false;
    ALTER TABLE runs ADD COLUMN scoring TEXT NOT NULL DEFAULT 'speed';
    ALTER TABLE runs ADD COLUMN streaks BOOLEAN NOT NULL DEFAULT true;
    ALTER TABLE runs ADD COLUMN board_end BOOLEAN NOT NULL DEFAULT false;
    """,
)


# fair play (as SQLite's): a chat's minimum Discord account age to score, and each run's copy
MIGRATIONS += (
    """
    ALTER TABLE chats ADD COLUMN min_age INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN min_age INTEGER NOT NULL DEFAULT 0;
    """,
)


# where each hosted run's panel is (storage/shared/host_panels.py): kept current after a restart
MIGRATIONS += (HOST_PANELS_TABLE,)


def version() -> int:
    return len(MIGRATIONS)
