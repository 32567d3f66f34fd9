"""`quizhost export TOPIC [--chat KEY] [--format json|yaml]`: a quiz as plain data. A shipped or
folder quiz by topic; with --chat, that chat's own quiz by id (uploaded, or written in the chat
with /newquiz), read from the database. YAML is the quiz file a file author would write."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.app.settings import Settings
from bot.content.catalog import Catalog, default_quiz_folders
from bot.content.export import export_quiz, quiz_yaml
from bot.domain.model import Quiz


def main(args: argparse.Namespace, settings: Settings) -> int:
    catalog = Catalog.load(default_quiz_folders() + settings.quiz_folders())
    topic = " ".join(args.topic)
    if args.chat:
        db = args.db or settings.quizhost_db
        if "://" not in str(db) and not Path(db).exists():  # opening would make an empty one
            print(f"quizhost export: no database at {db} (set QUIZHOST_DB or --db)", file=sys.stderr)
            return 1
        quiz = asyncio.run(_chat_quiz(str(db), catalog, args.chat, topic.casefold()))
        if quiz is None:
            print(f"quizhost export: chat {args.chat} has no quiz “{topic}”", file=sys.stderr)
            return 1
    else:
        matches = catalog.match(topic)
        if len(matches) != 1:
            found = ", ".join(q.id for q in matches) if matches else "none"
            print(
                f"quizhost: “{topic}” must match exactly one quiz (matches: {found}); "
                f"quizzes: {', '.join(q.id for q in catalog.all())}",
                file=sys.stderr,
            )
            return 1
        quiz = catalog.get(matches[0].id)
        assert quiz is not None  # loaded in full just now
    if args.format == "yaml":
        sys.stdout.write(quiz_yaml(quiz, args.lang))
    else:
        print(json.dumps(export_quiz(quiz, args.lang), ensure_ascii=False, indent=2))
    return 0


async def _chat_quiz(db: str, catalog: Catalog, chat_key: str, quiz_id: str) -> Quiz | None:
    from bot.app.wiring import open_store
    from bot.content.chatquizzes import ChatQuizzes
    from bot.ports.clock import SystemClock

    store = await open_store(db)
    try:
        return await ChatQuizzes(store, catalog, SystemClock()).get(chat_key, quiz_id)
    finally:
        await store.close()
