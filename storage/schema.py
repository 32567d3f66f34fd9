"""The SQLite schema as numbered migrations; PRAGMA user_version says which have run."""
from __future__ import annotations

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
)


def version() -> int:
    return len(MIGRATIONS)
