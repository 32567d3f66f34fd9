"""What users wrote and earlier versions stored raw: the migration that cleans it as it is now
cleaned where it enters (bot/texts/textcut.py `clean`).

A name stored with a right-to-left override (U+202E) before `clean` dropped directional controls
kept flipping the rest of every board line it was shown in, until its player played again; a
typed answer or a chat title the same in reveals and reports. Each column below is rewritten
without those characters (and, on SQLite, without NUL: PostgreSQL never kept one). None of the
columns is part of a key or a unique index, so no two rows can collide.
"""

from __future__ import annotations

from bot.texts.bidi import CONTROLS

# (table, column): the text users wrote that chats, pages and downloads show
WRITTEN_BY_USERS = (
    ("players", "name"),
    ("chats", "title"),
    ("answers", "response"),
    ("suggestions", "player_name"),
    ("quiz_drafts", "title"),
)


def cleaning(char: str) -> str:
    """The statements that drop the directional controls from each column of WRITTEN_BY_USERS;
    `char` is the database's function from a code point to its character (SQLite `char`,
    PostgreSQL `chr`), so the SQL text holds none of them. Only rows that change are written."""
    return "".join(_cleaned(table, column, char) for table, column in WRITTEN_BY_USERS)


def _cleaned(table: str, column: str, char: str) -> str:
    value = column
    for control in sorted(CONTROLS):
        value = f"replace({value}, {char}({ord(control)}), '')"
    return f"UPDATE {table} SET {column} = {value} WHERE {column} <> {value};\n"


def nuls_dropped() -> str:
    """SQLite's statements that drop every NUL from each column of WRITTEN_BY_USERS (a row with one
    could not be copied to PostgreSQL by `quizhost migrate-db`). SQLite's `replace` returns its text
    unchanged for a pattern that starts with a NUL, and its `substr` stops at one: the text is cut
    as bytes (a BLOB) at each NUL in turn, and the pieces joined."""
    return "".join(_without_nul(table, column) for table, column in WRITTEN_BY_USERS)


def _without_nul(table: str, column: str) -> str:
    cut = "instr(s, x'00')"
    return f"""UPDATE {table} SET {column} = (
        WITH RECURSIVE pieces(s) AS (
            SELECT CAST({column} AS BLOB)
            UNION ALL SELECT CAST(substr(s, 1, {cut} - 1) || substr(s, {cut} + 1) AS BLOB) FROM pieces WHERE {cut} > 0
        ) SELECT CAST(s AS TEXT) FROM pieces WHERE {cut} = 0
    ) WHERE instr(CAST({column} AS BLOB), x'00') > 0;
"""
