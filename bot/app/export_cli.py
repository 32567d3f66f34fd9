"""`quizhost export TOPIC [--chat KEY] [--format json|yaml] [--output FILE]`: a quiz as plain
data. A shipped or folder quiz by topic; with --chat, that chat's own quiz by id (uploaded, or written in the chat
with /newquiz), read from the database. YAML is the quiz file a file author would write; with
--output, its pictures are written beside it, so the folder validates and plays as it is."""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
from pathlib import Path

from bot.app.cli_db import existing_database
from bot.app.outputs import made_ready
from bot.app.settings import Settings
from bot.content.catalog import Catalog, default_quiz_folders
from bot.content.export import export_quiz, local_media, quiz_yaml
from bot.domain.model import Quiz


def main(args: argparse.Namespace, settings: Settings) -> int:
    catalog = Catalog.load(default_quiz_folders() + settings.quiz_folders())
    topic = " ".join(args.topic)
    if args.chat:
        db = existing_database("export", args, settings)
        if db is None:
            return 1
        quiz = asyncio.run(_chat_quiz(db, catalog, args.chat, topic.casefold()))
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
    text = quiz_yaml(quiz, args.lang) if args.format == "yaml" else _json(quiz, args.lang)
    if args.output is None:
        sys.stdout.write(text)
        if args.format == "yaml" and local_media(quiz):
            print(
                f"quizhost export: the quiz shows {len(local_media(quiz))} file(s) kept beside it: "
                "give --output FILE to write them beside the YAML too",
                file=sys.stderr,
            )
        return 0
    made_ready(args.output).write_text(text, encoding="utf-8")
    if args.format == "yaml":
        return _write_media(quiz, args.output)
    return 0


def _json(quiz: Quiz, lang: str) -> str:
    return json.dumps(export_quiz(quiz, lang), ensure_ascii=False, indent=2) + "\n"


def _write_media(quiz: Quiz, output: Path) -> int:
    """Copies the quiz's files to where the written YAML looks for them; 1 when one is missing."""
    folder = output.parent.resolve()
    missing = 0
    for src, location in local_media(quiz).items():
        target = (folder / src).resolve()
        if not target.is_relative_to(folder):  # the quiz checks refuse such paths; never write outside
            print(f"quizhost export: {src}: not a path beside the quiz; not written", file=sys.stderr)
            missing += 1
            continue
        try:
            shutil.copyfile(location, made_ready(target))
        except OSError as exc:
            print(f"quizhost export: {src}: cannot copy it: {exc.strerror or exc}", file=sys.stderr)
            missing += 1
    return 1 if missing else 0


async def _chat_quiz(db: str, catalog: Catalog, chat_key: str, quiz_id: str) -> Quiz | None:
    from bot.app.wiring import open_store
    from bot.content.chatquizzes import ChatQuizzes
    from bot.ports.clock import SystemClock

    store = await open_store(db)
    try:
        return await ChatQuizzes(store, catalog, SystemClock()).get(chat_key, quiz_id)
    finally:
        await store.close()
