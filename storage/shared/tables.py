"""Facts of the schema both stores keep alike: column lists, trigger names, the boards' boundary,
the review sessions' table. Each store's migrations (storage/sqlite/schema.py,
storage/postgres/schema.py) and the shared queries read them from here."""

from __future__ import annotations

from bot.domain.questionstats import OPTION_SLOTS

OPTION_COLUMNS = tuple(f"o{i}" for i in range(OPTION_SLOTS))  # stat_players: answers per option, both stores

# the answers table's columns in AnswerRow's field order (bot/domain/records.py), both stores
ANSWER_COLUMNS = (
    "run_id",
    "idx",
    "question_id",
    "player_key",
    "chat_key",
    "quiz_id",
    "option",
    "correct",
    "elapsed",
    "points",
    "streak",
    "answered_at",
    "response",
    "scored",
)
# a run's partly right answers: scored, points without full credit (the worth, bot/domain/worth.py)
PARTLY_RIGHT = "run_id = :run AND correct = 0 AND points > 0 AND scored = 1"
# what an answer moved by a toggle (a select-all-that-apply question) replaces of the stored one
REPLACED_COLUMNS = ("option", "correct", "elapsed", "points", "streak", "answered_at", "response")

CHAT_QUIZ_COLUMNS = "chat_key, quiz_id, content, uploaded_by, uploaded_at"  # ChatQuizRow's order, both stores


# Where a run's summarised answers end: its questions before `idx` while question `idx` waits
# to be posted or is asked, up to `idx` itself while it pauses after it, all of them once the
# run is over. The answers of the open question are "live": the boards add them from the
# answers table. It never moves back as a run goes on (posting -> asking keeps it): the
# triggers add on forward moves only, so a back-and-forth would add the answers between twice.
def boundary(run: str) -> str:
    return (
        f"(CASE WHEN {run}.status <> 'open' THEN 2147483647 WHEN {run}.phase IN ('asking', 'posting') "
        f"THEN {run}.idx ELSE {run}.idx + 1 END)"
    )


LIVE_BOUNDARY = boundary("r")  # for the boards' live part, over `runs r`

# the triggers that add answers stored straight into closed questions: tools that load answers
# in bulk (migrate-db, the bench) turn them off and backfill instead
LATE_TRIGGERS = ("answers_late_to_boards", "answers_late_to_stats")

# the summaries the migration that recounted them all knew; every summary kept now
RECOUNTED_SUMMARIES = ("board_days", "board_totals", "stat_players", "stat_times")
SUMMARIES = (*RECOUNTED_SUMMARIES, "stat_responses")

# a review card names the chat whose own quiz it comes from ('' for a shipped quiz: existing
# cards), part of its key, since two chats may upload quizzes of one id; a player's open /review
REVIEW_SESSIONS = """
    CREATE TABLE review_sessions (
        player_key TEXT PRIMARY KEY,
        session_id INTEGER NOT NULL,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        language TEXT NOT NULL,
        cards TEXT NOT NULL,  -- JSON: [[quiz_chat, quiz_id, question_id, box, due], ...]
        number INTEGER NOT NULL,
        right_count INTEGER NOT NULL,
        option_order TEXT NOT NULL,  -- JSON: displayed position -> authoring index
        message_id TEXT,
        answered INTEGER NOT NULL
    );
"""
