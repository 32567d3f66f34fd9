"""`quizhost stats [QUIZ] [--chat KEY] [--json]`: question statistics from the database;
`quizhost stats --review`: how well FSRS, the old Leitner rule and a constant predict recall on
the stored review log (bot/app/review_stats.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bot.app.cli_db import existing_database
from bot.app.settings import Settings
from bot.commands.learning import quiz_report
from bot.content.catalog import Catalog, default_quiz_folders
from bot.domain.model import Quiz
from bot.texts import render_stats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("quiz", nargs="*", help="quiz id, alias, title word or tag (default: every quiz)")
    parser.add_argument("--chat", help="one chat's figures, by its key (e.g. telegram:-100123); default: all chats")
    parser.add_argument("--json", action="store_true", help="print stable JSON for scripts instead of tables")
    parser.add_argument("--db", help="the database (default: QUIZHOST_DB)")
    parser.add_argument(
        "--review",
        action="store_true",
        help="replay the review log: log loss and calibration of FSRS, the Leitner boxes and a constant",
    )


def main(args: argparse.Namespace, settings: Settings) -> int:
    db = existing_database("stats", args, settings)
    if db is None:
        return 1
    if args.review:
        if args.quiz or args.chat or args.json:
            print(
                "quizhost stats: --review replays every player's reviews; it takes no quiz, --chat or --json",
                file=sys.stderr,
            )
            return 1
        return asyncio.run(_review(db))
    catalog = Catalog.load(default_quiz_folders() + settings.quiz_folders())
    topic = " ".join(args.quiz)
    quizzes = catalog.match(topic) if topic else catalog.all()
    if topic and len(quizzes) != 1:
        found = ", ".join(q.id for q in quizzes) if quizzes else "none"
        print(
            f"quizhost stats: “{topic}” must match exactly one quiz (matches: {found}); "
            f"quizzes: {', '.join(q.id for q in catalog.all())}",
            file=sys.stderr,
        )
        return 1
    loaded = [quiz for info in quizzes if (quiz := catalog.get(info.id)) is not None]
    return asyncio.run(_print(args, db, loaded))


async def _print(args: argparse.Namespace, db: str, quizzes: list[Quiz]) -> int:
    from bot.app.wiring import open_store

    store = await open_store(db)
    try:
        reports = [(quiz, await quiz_report(store, quiz, args.chat)) for quiz in quizzes]
    finally:
        await store.close()
    if args.json:
        print(
            json.dumps(
                {"chat": args.chat, "quizzes": [render_stats.as_json(q, args.chat, s) for q, s in reports]},
                ensure_ascii=False,
                indent=2,
                sort_keys=True,
            )
        )
    else:
        print("\n\n".join(render_stats.table(q, s) for q, s in reports))
    return 0


async def _review(db: str) -> int:
    from bot.app import review_stats
    from bot.app.wiring import open_store
    from bot.engine.recall_replay import TooLittle, compare

    store = await open_store(db)
    try:
        log = await store.review_log()
    finally:
        await store.close()
    result = compare(log)
    print(review_stats.too_little(result) if isinstance(result, TooLittle) else review_stats.report(result))
    return 0
