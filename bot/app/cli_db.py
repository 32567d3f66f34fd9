"""The database a read-only command (`results`, `stats`, `chats`, `export --chat`) reads."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.app.settings import Settings


def existing_database(command: str, args: argparse.Namespace, settings: Settings) -> str | None:
    """`--db`, else QUIZHOST_DB; None (and why, on standard error) when it names a SQLite file
    that is not there: opening it would make an empty one and report nothing."""
    db = str(args.db or settings.quizhost_db)
    if "://" not in db and not Path(db).exists():
        print(f"quizhost {command}: no database at {db} (set QUIZHOST_DB or --db)", file=sys.stderr)
        return None
    return db
